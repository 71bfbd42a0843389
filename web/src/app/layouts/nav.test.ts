import { describe, expect, it } from "vitest";
import { buildNav } from "./nav";

const items = (path: string, count = 0) => buildNav(path, count).flatMap((s) => s.items);

describe("buildNav", () => {
  it("lists Dashboard, Signals, Backtest, Portfolio, Settings, News and Pricing with their hrefs", () => {
    const hrefs = Object.fromEntries(items("/").map((i) => [i.label, i.href]));
    expect(hrefs).toMatchObject({
      Dashboard: "/",
      Signals: "/signals",
      Backtest: "/backtest",
      Portfolio: "/portfolio",
      Settings: "/settings",
      News: "/news",
      Pricing: "/pricing",
    });
  });

  it("lists Custom strategies right after Strategy builder", () => {
    const labels = items("/").map((i) => i.label);
    expect(labels.slice(labels.indexOf("Strategy builder"), labels.indexOf("Strategy builder") + 2)).toEqual([
      "Strategy builder",
      "Custom strategies",
    ]);
    expect(items("/custom-strategies").find((i) => i.active)).toMatchObject({ label: "Custom strategies", href: "/custom-strategies" });
  });

  it("marks the current page active, Dashboard on / and /dashboard", () => {
    expect(items("/").find((i) => i.active)?.label).toBe("Dashboard");
    expect(items("/dashboard").find((i) => i.active)?.label).toBe("Dashboard");
    expect(
      items("/portfolio")
        .filter((i) => i.active)
        .map((i) => i.label),
    ).toEqual(["Portfolio"]);
  });

  it("carries the active-signal count on Signals only", () => {
    const withBadge = items("/", 12).filter((i) => i.badge !== undefined);
    expect(withBadge).toEqual([expect.objectContaining({ label: "Signals", badge: 12 })]);
  });

  it("links Dashboard to /dashboard from the settings page", () => {
    expect(items("/settings").find((i) => i.label === "Dashboard")?.href).toBe("/dashboard");
  });
});
