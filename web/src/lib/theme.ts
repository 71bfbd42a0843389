/**
 * The colour theme preference, stored in localStorage under `theme`.
 * "system" (the default) follows the operating system's prefers-color-scheme.
 * public/theme-init.js applies the same rules before the first paint. When signed in, the
 * user's saved theme (GET /api/user/preferences) is applied on load and every change is saved
 * back (features/settings, `UserSettingsSync`).
 */
import { useSyncExternalStore } from "react";
import type { Theme } from "./api/models";

export type { Theme };

export type ResolvedTheme = "light" | "dark";

export const THEME_STORAGE_KEY = "theme";
const DARK_QUERY = "(prefers-color-scheme: dark)";

/** Whether `value` is a theme (the list to iterate is `THEMES` in lib/api/enums). */
export function isTheme(value: unknown): value is Theme {
  return value === "light" || value === "dark" || value === "system";
}

export function readStoredTheme(): Theme {
  try {
    const stored = window.localStorage.getItem(THEME_STORAGE_KEY);
    return isTheme(stored) ? stored : "system";
  } catch {
    return "system";
  }
}

function systemPrefersDark(): boolean {
  return typeof window.matchMedia === "function" && window.matchMedia(DARK_QUERY).matches;
}

export function resolveTheme(theme: Theme): ResolvedTheme {
  if (theme === "system") return systemPrefersDark() ? "dark" : "light";
  return theme;
}

function applyTheme(theme: Theme): void {
  const resolved = resolveTheme(theme);
  const root = document.documentElement;
  root.classList.toggle("dark", resolved === "dark");
  root.style.colorScheme = resolved;
}

type State = { theme: Theme; resolvedTheme: ResolvedTheme };

let state: State | null = null;
const listeners = new Set<() => void>();

function getState(): State {
  if (!state) {
    const theme = readStoredTheme();
    state = { theme, resolvedTheme: resolveTheme(theme) };
  }
  return state;
}

function update(theme: Theme): void {
  state = { theme, resolvedTheme: resolveTheme(theme) };
  applyTheme(theme);
  for (const listener of listeners) listener();
}

export function getTheme(): Theme {
  return getState().theme;
}

/** Stores the preference, applies it to <html> and notifies subscribers. */
export function setTheme(theme: Theme): void {
  try {
    window.localStorage.setItem(THEME_STORAGE_KEY, theme);
  } catch {
    // Storage unavailable: the choice lasts for this page only.
  }
  update(theme);
}

export function subscribeTheme(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * Keeps the page in step with the OS theme (while "system" is chosen) and with
 * changes made in other tabs. Returns a cleanup function.
 */
export function watchTheme(): () => void {
  applyTheme(getTheme());
  const media = typeof window.matchMedia === "function" ? window.matchMedia(DARK_QUERY) : null;
  const onMedia = () => {
    if (getTheme() === "system") update("system");
  };
  const onStorage = (event: StorageEvent) => {
    if (event.key === THEME_STORAGE_KEY) update(readStoredTheme());
  };
  media?.addEventListener("change", onMedia);
  window.addEventListener("storage", onStorage);
  return () => {
    media?.removeEventListener("change", onMedia);
    window.removeEventListener("storage", onStorage);
  };
}

/** Forgets the in-memory state; for tests. */
export function resetThemeForTests(): void {
  state = null;
  listeners.clear();
}

export function useTheme(): State & { setTheme: (theme: Theme) => void } {
  const current = useSyncExternalStore(subscribeTheme, getState, getState);
  return { ...current, setTheme };
}
