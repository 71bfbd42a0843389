import { describe, expect, it } from "vitest";
import { refreshInterval } from "./schedule";
import { parseSettingsTab, SETTINGS_TABS } from "./tabs";

describe("settings tabs", () => {
  it("are General, Trading, Trading accounts, Notifications, Reports, API Keys, Subscription and Security, linkable by ?tab=", () => {
    expect(SETTINGS_TABS.map((t) => t.label)).toEqual([
      "General",
      "Trading",
      "Trading accounts",
      "Notifications",
      "Reports",
      "API Keys",
      "Subscription",
      "Security",
    ]);
    expect(parseSettingsTab("api-keys")).toBe("api-keys");
    expect(parseSettingsTab("security")).toBe("security");
    expect(parseSettingsTab("reports")).toBe("reports");
    expect(parseSettingsTab("accounts")).toBe("accounts");
    expect(parseSettingsTab(null)).toBe("general");
    expect(parseSettingsTab("billing")).toBe("general");
  });
});

describe("the signal schedule", () => {
  it("words the server's refresh period", () => {
    expect(refreshInterval(300)).toBe("5 minutes");
    expect(refreshInterval(60)).toBe("minute");
    expect(refreshInterval(90)).toBe("90 seconds");
    expect(refreshInterval(7200)).toBe("2 hours");
    expect(refreshInterval(undefined)).toBeUndefined();
    expect(refreshInterval(0)).toBeUndefined();
  });
});
