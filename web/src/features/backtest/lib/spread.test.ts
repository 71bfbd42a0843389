import { describe, expect, it } from "vitest";
import { spreadLegs, spreadWidthFraction, spreadWidthIssue, spreadWidthLabel } from "./spread";

describe("spread width", () => {
  it("takes 1–50 percent, decimals too", () => {
    expect(spreadWidthIssue("5")).toBeNull();
    expect(spreadWidthIssue(" 1 ")).toBeNull();
    expect(spreadWidthIssue("50")).toBeNull();
    expect(spreadWidthIssue("12.5")).toBeNull();
    expect(spreadWidthIssue("0.5")).toBe("The spread width must be between 1% and 50%.");
    expect(spreadWidthIssue("51")).toBe("The spread width must be between 1% and 50%.");
    expect(spreadWidthIssue("")).toBe("Enter the spread width in percent, between 1% and 50%.");
    expect(spreadWidthIssue("five")).toBe("Enter the spread width in percent, between 1% and 50%.");
  });

  it("is sent as a fraction and labelled in percent", () => {
    expect(spreadWidthFraction("5")).toBe(0.05);
    expect(spreadWidthFraction("12.5")).toBe(0.125);
    expect(spreadWidthFraction("7")).toBe(0.07);
    expect(spreadWidthLabel(0.05)).toBe("5%");
    expect(spreadWidthLabel(0.125)).toBe("12.5%");
  });
});

describe("spreadLegs", () => {
  it("names a call or put spread's strikes, long first; nothing for a single contract or a straddle", () => {
    expect(spreadLegs({ signalType: "CALL", strike: 105, shortStrike: 112.5 })).toEqual({
      strikes: "$105.00 / $112.50",
      kind: "call spread",
    });
    expect(spreadLegs({ signalType: "PUT", strike: 120, shortStrike: 114 })).toEqual({ strikes: "$120.00 / $114.00", kind: "put spread" });
    expect(spreadLegs({ signalType: "CALL", strike: 105, shortStrike: null })).toBeNull();
    expect(spreadLegs({ signalType: "CALL", strike: 105 })).toBeNull();
    expect(spreadLegs({ signalType: "STRADDLE", strike: 180, shortStrike: 190 })).toBeNull();
  });
});
