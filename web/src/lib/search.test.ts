import { describe, expect, it } from "vitest";
import { normalize, queryTerms, scoreFields, searchItems } from "./search";

describe("search", () => {
  it("normalizes case, accents and punctuation", () => {
    expect(normalize("  Implied-Vol: Café & P&L! ")).toBe("implied vol cafe p l");
  });

  it("drops stop words unless the query has nothing else", () => {
    expect(queryTerms("How to read a signal")).toEqual(["read", "signal"]);
    expect(queryTerms("how to")).toEqual(["how", "to"]);
    expect(queryTerms("   ")).toEqual([]);
  });

  it("needs every term, matched at the start of a word, singular or plural", () => {
    const fields = [{ text: "Reading trading signals", weight: 1 }];
    expect(scoreFields(fields, ["read", "signal"])).toBe(2);
    expect(scoreFields(fields, ["signals"])).toBe(1);
    expect(scoreFields(fields, ["ading"])).toBe(0);
    expect(scoreFields(fields, ["read", "greeks"])).toBe(0);
  });

  it("ranks by field weight and keeps the original order for ties", () => {
    const items = [
      { id: "body", title: "Portfolio", body: "vega matters" },
      { id: "title", title: "Vega explained", body: "" },
      { id: "body2", title: "Other", body: "vega again" },
    ];
    const found = searchItems(items, "vega", (i) => [
      { text: i.title, weight: 3 },
      { text: i.body, weight: 1 },
    ]);
    expect(found.map((i) => i.id)).toEqual(["title", "body", "body2"]);
    expect(searchItems(items, "", () => [])).toHaveLength(3);
    expect(searchItems(items, "gamma", (i) => [{ text: i.body, weight: 1 }])).toEqual([]);
  });
});
