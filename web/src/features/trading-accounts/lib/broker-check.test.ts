import { describe, expect, it } from "vitest";
import { ApiError } from "@/lib/api/client";
import { checkFailureText, checkRetryText, contractLabel, holdingText, otherHoldingsText, summaryText } from "./broker-check";

describe("the Alpaca check's wording", () => {
  it("names a contract as a broker lists it", () => {
    expect(contractLabel({ underlying: "MSFT", strikePrice: 400, right: "call", expirationDate: "2026-12-18" })).toBe(
      "MSFT 400 call 2026-12-18",
    );
    expect(contractLabel({ underlying: "SPY", strikePrice: 452.5, right: "put", expirationDate: "2026-12-18" })).toBe(
      "SPY 452.5 put 2026-12-18",
    );
  });

  it("marks written contracts and counts in the singular and plural", () => {
    expect(holdingText(-3)).toBe("-3 (written)");
    expect(holdingText(0)).toBe("0");
    expect(summaryText({ matched: 1, differences: [] })).toBe("Books agree: 1 contract matches.");
    expect(summaryText({ matched: 0, differences: [] })).toBe("Books agree: 0 contracts match.");
    expect(otherHoldingsText(0)).toBeNull();
    expect(otherHoldingsText(1)).toBe("Alpaca also holds 1 position that is not an option (not compared).");
  });

  it("says why a check failed when the server gave no reason", () => {
    expect(checkFailureText(new ApiError(503, "503: Service Unavailable"))).toBe("Alpaca cannot answer now. Try again in a few minutes.");
    expect(checkFailureText(new TypeError("Failed to fetch"))).toBe("Failed to reach the server. Please try again.");
    const limited = new ApiError(429, "429: Too Many Requests", null, new Headers({ "Retry-After": "300" }));
    expect(checkRetryText(limited)).toBe("Too many checks: try again in 5 min.");
    expect(checkRetryText(new ApiError(429, "429: Too Many Requests"))).toBe("Too many checks: try again shortly.");
  });
});
