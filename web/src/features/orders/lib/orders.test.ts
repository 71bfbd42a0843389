import { afterEach, describe, expect, it } from "vitest";
import { ORDER_STATES } from "@/lib/api/enums";
import { setMoneyDisplay } from "@/lib/money-display";
import { makeOrder, makeOrderLeg } from "@/test/order-fixtures";
import {
  commission,
  contractLabels,
  fillPrice,
  formatExpiry,
  formatStrike,
  inFilter,
  isStanding,
  legLabel,
  ORDER_STATE_LABELS,
  orderReason,
  orderStateLabel,
} from "./orders";

afterEach(() => setMoneyDisplay(null));

describe("orders", () => {
  it("names every state, and reads an unknown one as sent", () => {
    expect(ORDER_STATES.map(orderStateLabel)).toEqual(["New", "Accepted", "Partially filled", "Filled", "Cancelled", "Rejected"]);
    expect(Object.keys(ORDER_STATE_LABELS)).toHaveLength(ORDER_STATES.length);
    expect(orderStateLabel("expired")).toBe("expired");
  });

  it("lets only new, accepted and partially filled orders be cancelled", () => {
    expect(ORDER_STATES.filter((status) => isStanding({ status }))).toEqual(["new", "accepted", "partially_filled"]);
  });

  it("puts every known state in exactly one filter besides All, and an unknown one in All only", () => {
    const among = (filter: Parameters<typeof inFilter>[1]) => ORDER_STATES.filter((status) => inFilter({ status }, filter));
    expect(among("all")).toEqual(ORDER_STATES);
    expect(among("open")).toEqual(["new", "accepted", "partially_filled"]);
    expect(among("filled")).toEqual(["filled"]);
    expect(among("ended")).toEqual(["cancelled", "rejected"]);
    expect([...among("open"), ...among("filled"), ...among("ended")].sort()).toEqual([...ORDER_STATES].sort());
    expect((["open", "filled", "ended"] as const).some((filter) => inFilter({ status: "expired" as never }, filter))).toBe(false);
  });

  it("writes a leg as options are quoted: underlying, right, strike, expiration", () => {
    expect(formatExpiry("2026-12-18")).toBe("12/18");
    expect(formatExpiry("2027-01-15")).toBe("1/15");
    expect(formatStrike(190)).toBe("$190");
    expect(formatStrike(187.5)).toBe("$187.50");
    expect(legLabel("AAPL", makeOrderLeg())).toBe("AAPL CALL $190 12/18");
    expect(legLabel("SPY", makeOrderLeg({ right: "put", side: "sell", ratio: 2, strike: 580, expiration: "2027-01-15" }))).toBe(
      "Sell 2 × SPY PUT $580 1/15",
    );
  });

  it("lists both legs of a straddle", () => {
    const straddle = makeOrder({ legs: [makeOrderLeg(), makeOrderLeg({ right: "put" })] });
    expect(contractLabels(straddle)).toEqual(["AAPL CALL $190 12/18", "AAPL PUT $190 12/18"]);
  });

  it("keeps contract terms in US dollars and converts the commission to the display currency", () => {
    const order = makeOrder();
    expect(fillPrice(order)).toBe("$3.03");
    expect(commission(order)).toBe("$1.30");

    setMoneyDisplay({ currency: "EUR", perUsd: 0.9 });
    expect(fillPrice(order)).toBe("US$3.03");
    expect(formatStrike(190)).toBe("US$190");
    expect(commission(order)).toBe("€1.17");
  });

  it("takes the first fill's net price and every fill's commission; a credit is negative", () => {
    const order = makeOrder({
      fills: [
        { units: 1, netPrice: -1.25, commission: 1.3, cashOut: -123.7, filledAt: "2026-11-23T14:30:01Z" },
        { units: 1, netPrice: -1.2, commission: 1.3, cashOut: -118.7, filledAt: "2026-11-23T14:31:01Z" },
      ],
    });
    expect(fillPrice(order)).toBe("-$1.25");
    expect(commission(order)).toBe("$2.60");
    expect(fillPrice(makeOrder({ fills: [] }))).toBe("—");
    expect(commission(makeOrder({ fills: [] }))).toBe("—");
  });

  it("gives the reason of a rejected or cancelled order only", () => {
    expect(orderReason({ status: "rejected", reason: "Too big." })).toBe("Too big.");
    expect(orderReason({ status: "cancelled", reason: "Not filled within 30 minutes." })).toBe("Not filled within 30 minutes.");
    expect(orderReason({ status: "cancelled", reason: null })).toBe("—");
    expect(orderReason({ status: "filled", reason: "stray" })).toBe("—");
  });
});
