import { afterEach, describe, expect, it } from "vitest";
import { setMoneyDisplay } from "@/lib/money-display";
import { alreadyCrossed, crossedWarning, describeAlert, sameAlert } from "./price-alert";

afterEach(() => setMoneyDisplay(null));

describe("price alerts", () => {
  it("knows a target the price has already reached, as the server triggers it", () => {
    // Above fires at or above the target, below at or below.
    expect(alreadyCrossed({ direction: "above", targetPrice: 380 }, 382.1)).toBe(true);
    expect(alreadyCrossed({ direction: "above", targetPrice: 380 }, 380)).toBe(true);
    expect(alreadyCrossed({ direction: "above", targetPrice: 400 }, 382.1)).toBe(false);
    expect(alreadyCrossed({ direction: "below", targetPrice: 400 }, 382.1)).toBe(true);
    expect(alreadyCrossed({ direction: "below", targetPrice: 300 }, 382.1)).toBe(false);
    // No usable quote: nothing to warn about.
    expect(alreadyCrossed({ direction: "above", targetPrice: 1 }, Number.NaN)).toBe(false);
    expect(alreadyCrossed({ direction: "below", targetPrice: 1 }, 0)).toBe(false);
  });

  it("warns in words, with the target and the price now", () => {
    expect(crossedWarning({ symbol: "AAPL", direction: "above", targetPrice: 380 }, 382.1)).toBe(
      "AAPL is already above $380.00 (at $382.10 now): the alert would fire at once. Create it anyway?",
    );
    expect(crossedWarning({ symbol: "XOM", direction: "below", targetPrice: 120 }, 105)).toBe(
      "XOM is already below $120.00 (at $105.00 now): the alert would fire at once. Create it anyway?",
    );
  });

  it("keeps the quote's US dollars in another display currency, labelled, never converted", () => {
    setMoneyDisplay({ currency: "EUR", perUsd: 0.92 });
    expect(describeAlert({ symbol: "AAPL", direction: "above", targetPrice: 250 })).toBe("AAPL above US$250.00");
    expect(crossedWarning({ symbol: "XOM", direction: "below", targetPrice: 120 }, 105)).toBe(
      "XOM is already below US$120.00 (at US$105.00 now): the alert would fire at once. Create it anyway?",
    );
  });

  it("compares two alerts by what they ask", () => {
    const a = { symbol: "AAPL", direction: "above" as const, targetPrice: 380 };
    expect(sameAlert(a, { ...a })).toBe(true);
    expect(sameAlert(a, { ...a, targetPrice: 381 })).toBe(false);
    expect(sameAlert(a, { ...a, direction: "below" })).toBe(false);
  });
});
