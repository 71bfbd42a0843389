import { describe, expect, it } from "vitest";
import { queryKeys } from "./query-keys";

describe("queryKeys", () => {
  it("start with the endpoint's path, which the default query function fetches", () => {
    expect(queryKeys.currentUser()).toEqual(["/api/auth/me"]);
    expect(queryKeys.userSettings()).toEqual(["/api/user/preferences"]);
    expect(queryKeys.subscription()).toEqual(["/api/billing/subscription"]);
    expect(queryKeys.apiKeys.all()).toEqual(["/api/api-keys"]);
    expect(queryKeys.tradingAccounts()).toEqual(["/api/accounts"]);
  });

  it("build a family's keys on its shorter key, so that one invalidates them all", () => {
    const startsWith = (key: readonly unknown[], prefix: readonly unknown[]) => prefix.every((part, i) => key[i] === part);
    expect(startsWith(queryKeys.signals.pages({ status: "active" }), queryKeys.signals.all())).toBe(true);
    expect(startsWith(queryKeys.signals.analysis("s1"), queryKeys.signals.all())).toBe(true);
    expect(startsWith(queryKeys.webhooks.deliveries("w1"), queryKeys.webhooks.all())).toBe(true);
    expect(startsWith(queryKeys.portfolio.manualPositions.detail("m1"), queryKeys.portfolio.manualPositions.all())).toBe(true);
    expect(startsWith(queryKeys.portfolio.heldStructures.detail("h1"), queryKeys.portfolio.heldStructures.all())).toBe(true);
    expect(startsWith(queryKeys.stockPrices.history("AAPL", 30), queryKeys.stockPrices.all())).toBe(true);
    expect(startsWith(queryKeys.stockPrices.optionChain("AAPL", "2026-12-18"), queryKeys.stockPrices.all())).toBe(true);
    expect(startsWith(queryKeys.stockPrices.impliedVolatility("AAPL"), queryKeys.stockPrices.all())).toBe(true);
    expect(startsWith(queryKeys.customStrategies.detail("c1"), queryKeys.customStrategies.all())).toBe(true);
    // A preview is not under the list: refreshing the saved strategies asks no preview again.
    expect(startsWith(queryKeys.customStrategies.preview("{}"), queryKeys.customStrategies.all())).toBe(false);
    // Nor is the rule language: it never changes while the app runs.
    expect(startsWith(queryKeys.customStrategies.language(), queryKeys.customStrategies.all())).toBe(false);
    expect(queryKeys.checkout({ plan: "pro", billing: "yearly" })).toEqual(["/api/create-subscription", "pro", "yearly"]);
  });
});
