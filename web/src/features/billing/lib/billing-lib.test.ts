import { describe, expect, it } from "vitest";
import { cardSchema, formatCardNumber, formatExpiry, parseExpiry } from "./card";
import { parseSubscribeParams } from "./subscribe-params";

describe("the card form's input", () => {
  it("spaces the card number in fours, digits only, at most 16", () => {
    expect(formatCardNumber("4242424242424242")).toBe("4242 4242 4242 4242");
    expect(formatCardNumber("4000-0000 00")).toBe("4000 0000 00");
    expect(formatCardNumber("4242 4242 4242 4242 99")).toBe("4242 4242 4242 4242");
    expect(formatCardNumber("abc")).toBe("");
  });

  it("writes the expiry as MM/YY", () => {
    expect(formatExpiry("1")).toBe("1");
    expect(formatExpiry("5")).toBe("05");
    expect(formatExpiry("12")).toBe("12");
    expect(formatExpiry("123")).toBe("12/3");
    expect(formatExpiry("12/30")).toBe("12/30");
    expect(formatExpiry("123099")).toBe("12/30");
    expect(parseExpiry("12/30")).toEqual({ month: 12, year: 2030 });
    expect(parseExpiry("13/30")).toBeNull();
    expect(parseExpiry("00/30")).toBeNull();
    expect(parseExpiry("1/30")).toBeNull();
  });

  it("checks the card with the provider's wording", () => {
    const schema = cardSchema(new Date(2026, 10, 23));
    const issues = (values: { cardNumber: string; expiry: string; cvc: string }) => {
      const result = schema.safeParse(values);
      return result.success ? {} : Object.fromEntries(result.error.issues.map((i) => [i.path[0], i.message]));
    };
    expect(issues({ cardNumber: "4242 4242 4242 4242", expiry: "11/26", cvc: "123" })).toEqual({});
    expect(issues({ cardNumber: "4242 4242 4242 4242", expiry: "12/30", cvc: "1234" })).toEqual({});
    expect(issues({ cardNumber: "4242 4242", expiry: "10/26", cvc: "12" })).toEqual({
      cardNumber: "Your card number is incomplete.",
      expiry: "Your card's expiration date is in the past.",
      cvc: "Your card's security code is incomplete.",
    });
    expect(issues({ cardNumber: "4242 4242 4242 4242", expiry: "1230", cvc: "123" })).toEqual({
      expiry: "Enter the expiry date as MM/YY.",
    });
  });
});

describe("/subscribe's query", () => {
  const parse = (query: string) => parseSubscribeParams(new URLSearchParams(query));

  it("defaults to Pro, monthly", () => {
    expect(parse("")).toEqual({ ok: true, choice: { plan: "pro", billing: "monthly" } });
    expect(parse("plan=premium&billing=yearly")).toEqual({ ok: true, choice: { plan: "premium", billing: "yearly" } });
  });

  it("refuses what cannot be bought, saying why", () => {
    expect(parse("plan=free")).toEqual({ ok: false, problems: ["The Free plan needs no payment."] });
    expect(parse("plan=gold&billing=weekly")).toEqual({
      ok: false,
      problems: ["“gold” is not a plan you can buy: choose Pro or Premium.", "“weekly” is not a billing period: choose monthly or yearly."],
    });
  });
});
