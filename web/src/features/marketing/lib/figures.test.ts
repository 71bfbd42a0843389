import { describe, expect, it } from "vitest";
import { makePublicStats } from "@/test/utils";
import { describeStats, every, formatInterval, freshnessSentence, planPrice, signalsPerDay } from "./figures";

describe("figures", () => {
  it("words intervals from the configured schedule", () => {
    expect(formatInterval(300)).toBe("5 minutes");
    expect(formatInterval(60)).toBe("1 minute");
    expect(formatInterval(90)).toBe("1.5 minutes");
    expect(formatInterval(7200)).toBe("2 hours");
    expect(formatInterval(30)).toBe("30 seconds");
    expect(every(60)).toBe("every minute");
    expect(freshnessSentence({ signalRefreshSeconds: 300, priceRefreshSeconds: 60 })).toBe(
      "Signals refresh every 5 minutes and prices every minute during US market hours.",
    );
  });

  it("says when there is too little data instead of showing a number", () => {
    const figures = describeStats(makePublicStats());
    const byId = Object.fromEntries(figures.map((f) => [f.id, f]));
    expect(byId.signals.value).toBeNull();
    expect(byId.signals.empty).toBe("No signals issued yet");
    expect(byId["win-rate"].value).toBeNull();
    expect(byId["win-rate"].empty).toBe("Not enough closed signals yet");
    expect(byId["win-rate"].detail).toBe("Shown once 30 signals have closed in 90 days (0 so far)");
    expect(byId.users.value).toBe("3");
    expect(byId.freshness.value).toBe("Every 5 minutes");
    expect(byId.volume.value).toBeNull();
    expect(byId.volume.empty).toBe("No live signals yet");
  });

  it("shows figures with their periods once there is data", () => {
    const figures = describeStats(
      makePublicStats({
        registeredUsers: 12345,
        signalsIssued: { count: 1840, periodDays: 30 },
        volumeAnalysed: { notional: 24_650_000, signals: 1840, periodDays: 30 },
        winRate: { value: 57.14, closedSignals: 412, periodDays: 90, minimumSample: 30 },
        symbolsCovered: 120,
      }),
    );
    const byId = Object.fromEntries(figures.map((f) => [f.id, f]));
    expect(byId.users.value).toBe("12,345");
    expect(byId.signals.value).toBe("1,840");
    expect(byId.signals.detail).toBe("Last 30 days, across 120 symbols");
    expect(byId["win-rate"].value).toBe("57.1%");
    expect(byId["win-rate"].detail).toBe("Of 412 signals closed in the last 90 days");
    expect(byId.volume.value).toBe("$24.7M");
    expect(byId.volume.detail).toBe("Notional of one contract per live signal, 1,840 signals in the last 30 days");
  });

  it("prices plans monthly and yearly", () => {
    expect(planPrice({ monthlyPrice: 49, yearlyPrice: 470 }, "monthly")).toEqual({ amount: "$49", per: "/month" });
    expect(planPrice({ monthlyPrice: 149, yearlyPrice: 1430 }, "yearly")).toEqual({ amount: "$1,430", per: "/year" });
    expect(planPrice({ monthlyPrice: 0, yearlyPrice: 0 }, "yearly")).toEqual({ amount: "$0", per: "forever" });
    expect(signalsPerDay(null)).toBe("Unlimited signals");
    expect(signalsPerDay(50)).toBe("50 signals per day");
  });
});
