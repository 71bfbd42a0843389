import { describe, expect, it } from "vitest";
import { setMoneyDisplay } from "@/lib/money-display";
import { makeSignal } from "@/test/fixtures";
import { shareImageFilename, shareText, tweetIntentUrl } from "./share";

describe("share", () => {
  it("describes the position in one line", () => {
    expect(shareText(makeSignal())).toBe(
      "AAPL CALL, $250.00 strike, expires Dec 18, 2026 · Momentum · strength 78/100 · P&L +$45.00 (+14.1%) per contract · via Strikeline (not financial advice)",
    );
    expect(shareText(makeSignal({ pnl: null, pnlPercent: null }))).not.toContain("P&L");
    // The strength is a heuristic score, never a percentage.
    expect(shareText(makeSignal({ confidence: 74 }))).not.toContain("74%");
  });

  it("keeps the strike in US dollars and the P&L in the display currency", () => {
    setMoneyDisplay({ currency: "EUR", perUsd: 0.92 });
    try {
      expect(shareText(makeSignal())).toBe(
        "AAPL CALL, US$250.00 strike, expires Dec 18, 2026 · Momentum · strength 78/100 · P&L +€41.40 (+14.1%) per contract · via Strikeline (not financial advice)",
      );
    } finally {
      setMoneyDisplay(null);
    }
  });

  it("builds the X post intent with the text encoded", () => {
    const url = new URL(tweetIntentUrl("AAPL CALL & more #1"));
    expect(url.origin + url.pathname).toBe("https://twitter.com/intent/tweet");
    expect(url.searchParams.get("text")).toBe("AAPL CALL & more #1");
  });

  it("names the image after the position", () => {
    expect(shareImageFilename(makeSignal({ symbol: "BRK.B", signalType: "PUT" }))).toBe("strikeline-BRK.B-put.png");
  });
});
