// Applies the stored colour theme before the first paint, so a dark-mode user
// never sees a flash of the light theme. Kept in sync with src/lib/theme.ts.
(function () {
  var theme = "system";
  try {
    var stored = window.localStorage.getItem("theme");
    if (stored === "light" || stored === "dark" || stored === "system") theme = stored;
  } catch (e) {
    /* storage may be unavailable (privacy mode); fall back to the system theme */
  }
  var dark = theme === "dark" || (theme === "system" && window.matchMedia && window.matchMedia("(prefers-color-scheme: dark)").matches);
  var root = document.documentElement;
  root.classList.toggle("dark", dark);
  root.style.colorScheme = dark ? "dark" : "light";
})();
