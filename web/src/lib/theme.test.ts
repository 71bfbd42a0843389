import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { getTheme, readStoredTheme, resetThemeForTests, resolveTheme, setTheme, THEME_STORAGE_KEY, watchTheme } from "./theme";

function mockSystemTheme(dark: boolean) {
  const listeners = new Set<() => void>();
  const media = {
    matches: dark,
    media: "(prefers-color-scheme: dark)",
    addEventListener: (_: string, l: () => void) => listeners.add(l),
    removeEventListener: (_: string, l: () => void) => listeners.delete(l),
  };
  vi.stubGlobal(
    "matchMedia",
    vi.fn(() => media),
  );
  return {
    change(next: boolean) {
      media.matches = next;
      for (const l of listeners) l();
    },
  };
}

beforeEach(() => resetThemeForTests());
afterEach(() => vi.unstubAllGlobals());

describe("theme store", () => {
  it("defaults to system", () => {
    mockSystemTheme(false);
    expect(readStoredTheme()).toBe("system");
    expect(getTheme()).toBe("system");
  });

  it("ignores an unknown stored value", () => {
    window.localStorage.setItem(THEME_STORAGE_KEY, "purple");
    expect(readStoredTheme()).toBe("system");
  });

  it("stores the choice under `theme` and applies the dark class", () => {
    mockSystemTheme(false);
    setTheme("dark");
    expect(window.localStorage.getItem("theme")).toBe("dark");
    expect(document.documentElement.classList.contains("dark")).toBe(true);
    setTheme("light");
    expect(window.localStorage.getItem("theme")).toBe("light");
    expect(document.documentElement.classList.contains("dark")).toBe(false);
  });

  it("follows prefers-color-scheme while set to system", () => {
    const system = mockSystemTheme(true);
    expect(resolveTheme("system")).toBe("dark");
    const stop = watchTheme();
    expect(document.documentElement.classList.contains("dark")).toBe(true);
    system.change(false);
    expect(document.documentElement.classList.contains("dark")).toBe(false);
    stop();
  });

  it("does not follow the system when a theme is chosen", () => {
    const system = mockSystemTheme(false);
    const stop = watchTheme();
    setTheme("light");
    system.change(true);
    expect(document.documentElement.classList.contains("dark")).toBe(false);
    stop();
  });
});
