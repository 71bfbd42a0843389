import { describe, expect, it } from "vitest";
import type { CustomStrategyDocument } from "@/lib/api/models";
import { makeRuleLanguage } from "@/test/fixtures";
import { exitsText, expiryText, modelScoreText, modelText, opensText, strikeText } from "./describe";
import { capitalise, displayLabel, isIndicator, kindGroups, kindOf, labelOf } from "./indicators";
import {
  buildDocument,
  countComparisons,
  depthOf,
  draftFromDocument,
  emptyDraft,
  fraction,
  type GroupDraft,
  kindMismatch,
  nameErrors,
  newGroup,
  newRow,
  percentText,
  placeErrors,
  type RowDraft,
  sameDocument,
  sameDraft,
  stableJson,
  type StrategyDraft,
} from "./rule";
import { draftFromTemplate, TEMPLATES } from "./templates";

/** docs/strategies.md §11's example, as the server stores it (defaults written out). */
const EXAMPLE: CustomStrategyDocument = {
  version: 1,
  entry: {
    all: [
      { compare: { left: { indicator: { name: "rsi14", barsAgo: 0 } }, is: "below", right: { number: 30 } } },
      {
        crosses: {
          left: { indicator: { name: "close", barsAgo: 0 } },
          is: "above",
          right: { indicator: { name: "bollingerLower", barsAgo: 0 } },
        },
      },
    ],
  },
  opens: "CALL",
  strike: { offset: 0 },
  minDays: 30,
  exits: { targetGain: 0.5, stopLoss: 0.3, maxDays: 10 },
};

/** The rule language as the server answers it. */
const LANGUAGE = makeRuleLanguage();

const row = (patch: Partial<Omit<RowDraft, "key" | "kind">>) => newRow(patch);
const withEntry = (entry: GroupDraft, patch: Partial<StrategyDraft> = {}): StrategyDraft => ({ ...emptyDraft(), entry, ...patch });

describe("buildDocument", () => {
  it("builds the documented example from its draft, percentages as fractions", () => {
    const built = buildDocument(draftFromDocument("Oversold bounce", EXAMPLE), LANGUAGE);
    expect(built.errors).toEqual([]);
    expect(built.document).toEqual(EXAMPLE);
  });

  it("writes the relation as compare or crosses with its direction, and a number on the right", () => {
    const draft = withEntry(
      newGroup("any", [
        row({
          left: { name: "ema20", barsAgo: 2 },
          relation: "crossesBelow",
          right: { type: "indicator", name: "ema50", barsAgo: 1, value: "" },
        }),
        row({
          left: { name: "hv20", barsAgo: 0 },
          relation: "above",
          right: { type: "number", name: "hv20", barsAgo: 0, value: " 25.5 " },
        }),
      ]),
    );
    expect(buildDocument(draft, LANGUAGE).document?.entry).toEqual({
      any: [
        {
          crosses: { left: { indicator: { name: "ema20", barsAgo: 2 } }, is: "below", right: { indicator: { name: "ema50", barsAgo: 1 } } },
        },
        { compare: { left: { indicator: { name: "hv20", barsAgo: 0 } }, is: "above", right: { number: 25.5 } } },
      ],
    });
  });

  it("nests groups as all-of inside any-of and the other way round", () => {
    const draft = withEntry(newGroup("all", [row({}), newGroup("any", [row({}), row({ relation: "above" })])]));
    const entry = buildDocument(draft, LANGUAGE).document?.entry;
    expect(entry).toMatchObject({ all: [{ compare: {} }, { any: [{ compare: { is: "below" } }, { compare: { is: "above" } }] }] });
    expect(countComparisons(draft.entry)).toBe(3);
    expect(depthOf(draft.entry)).toBe(2);
  });

  it("sends the exits as fractions, and no time limit when the trade is held to expiry", () => {
    const built = buildDocument({ ...emptyDraft(), targetGain: "150", stopLoss: "7", closeAfter: false, maxDays: "12" }, LANGUAGE);
    expect(built.document?.exits).toEqual({ targetGain: 1.5, stopLoss: 0.07, maxDays: null });
    expect(fraction(30)).toBe(0.3);
    expect(percentText(0.07)).toBe("7");
    expect(percentText(0.3)).toBe("30");
  });

  it("sends exactly one of offset and delta, and an offset of 0 for a straddle", () => {
    expect(buildDocument({ ...emptyDraft(), strikeMode: "delta", delta: "0.3" }, LANGUAGE).document?.strike).toEqual({ delta: 0.3 });
    expect(buildDocument({ ...emptyDraft(), strikeMode: "offset", offset: "-2", delta: "0.3" }, LANGUAGE).document?.strike).toEqual({
      offset: -2,
    });
    expect(buildDocument({ ...emptyDraft(), opens: "STRADDLE", strikeMode: "delta", delta: "0.3" }, LANGUAGE).document?.strike).toEqual({
      offset: 0,
    });
  });

  it("names each mistake by the path the server would name it by", () => {
    const draft = withEntry(
      newGroup("all", [
        row({ left: { name: "rsi14", barsAgo: 0 }, right: { type: "indicator", name: "close", barsAgo: 0, value: "" } }),
        newGroup("any", [
          row({ right: { type: "number", name: "rsi14", barsAgo: 0, value: "" } }),
          row({
            relation: "crossesAbove",
            left: { name: "close", barsAgo: 10 },
            right: { type: "number", name: "close", barsAgo: 0, value: "3" },
          }),
        ]),
      ]),
      { opens: "STRADDLE", offset: "2", minDays: "0", stopLoss: "99", targetGain: "abc", maxDays: "400" },
    );
    const built = buildDocument(draft, LANGUAGE);
    expect(built.document).toBeNull();
    expect(built.errors.map((e) => e.field)).toEqual([
      "document.entry.all[0].compare.right",
      "document.entry.all[1].any[0].compare.right.number",
      "document.entry.all[1].any[1].crosses.left.indicator.barsAgo",
      "document.minDays",
      "document.exits.targetGain",
      "document.exits.stopLoss",
      "document.exits.maxDays",
    ]);
    expect(built.errors[0].message).toBe("RSI(14) is a 0–100 reading, close is a price: they cannot be compared.");
    // A straddle's offset is always 0: the draft's 2 is not sent.
    expect(built.errors.some((e) => e.field.endsWith("strike.offset"))).toBe(false);
  });

  it("names the backtest's paths under customStrategy", () => {
    const built = buildDocument({ ...emptyDraft(), minDays: "" }, LANGUAGE, "customStrategy");
    expect(built.errors.map((e) => e.field)).toEqual(["customStrategy.minDays"]);
  });

  it("refuses a group nested deeper than 3", () => {
    const deep = withEntry(newGroup("all", [newGroup("any", [newGroup("all", [newGroup("any", [row({})])])])]));
    expect(depthOf(deep.entry)).toBe(4);
    expect(buildDocument(deep, LANGUAGE).errors).toEqual([
      { field: "document.entry.all[0].any[0].all[0].any", message: "Groups nest at most 3 deep." },
    ]);
  });

  it("refuses an offset out of range, a delta out of range, an empty group and too many comparisons", () => {
    expect(buildDocument({ ...emptyDraft(), offset: "11" }, LANGUAGE).errors.map((e) => e.field)).toEqual(["document.strike.offset"]);
    expect(buildDocument({ ...emptyDraft(), offset: "1.5" }, LANGUAGE).errors.map((e) => e.field)).toEqual(["document.strike.offset"]);
    expect(buildDocument({ ...emptyDraft(), strikeMode: "delta", delta: "0.99" }, LANGUAGE).errors.map((e) => e.field)).toEqual([
      "document.strike.delta",
    ]);
    expect(buildDocument(withEntry(newGroup("all", [])), LANGUAGE).errors.map((e) => e.field)).toEqual(["document.entry.all"]);
    const many = withEntry(
      newGroup(
        "all",
        Array.from({ length: 3 }, () =>
          newGroup(
            "any",
            Array.from({ length: 7 }, () => row({})),
          ),
        ),
      ),
    );
    expect(countComparisons(many.entry)).toBe(21);
    expect(buildDocument(many, LANGUAGE).errors).toEqual([
      { field: "document.entry", message: "At most 20 comparisons in all; this rule has 21." },
    ]);
  });
});

describe("the monthly expiration (monthly)", () => {
  it("sends monthly: true while checked, and leaves the key out while not, never false", () => {
    expect(emptyDraft()).toMatchObject({ monthly: false });
    expect(buildDocument({ ...emptyDraft(), monthly: true }, LANGUAGE).document?.monthly).toBe(true);
    const off = buildDocument({ ...emptyDraft(), monthly: false }, LANGUAGE).document;
    expect(off).not.toBeNull();
    expect(off).not.toHaveProperty("monthly");
    expect(buildDocument(draftFromDocument("Oversold bounce", EXAMPLE), LANGUAGE).document).not.toHaveProperty("monthly");
  });

  it("reads a saved monthly back as checked, absent or false as unchecked, and round-trips it", () => {
    const doc: CustomStrategyDocument = { ...EXAMPLE, monthly: true };
    const draft = draftFromDocument("Monthly bounce", doc);
    expect(draft).toMatchObject({ monthly: true });
    expect(buildDocument(draft, LANGUAGE).document).toEqual(doc);
    expect(draftFromDocument("Plain", EXAMPLE)).toMatchObject({ monthly: false });
    const unset = draftFromDocument("False", { ...EXAMPLE, monthly: false });
    expect(unset).toMatchObject({ monthly: false });
    expect(buildDocument(unset, LANGUAGE).document).toEqual(EXAMPLE);
  });

  it("tells monthly added or removed from the saved document, and false from absent not at all", () => {
    expect(sameDocument(EXAMPLE, { ...EXAMPLE, monthly: true }, LANGUAGE)).toBe(false);
    expect(sameDocument({ ...EXAMPLE, monthly: true }, { ...EXAMPLE, monthly: false }, LANGUAGE)).toBe(false);
    expect(sameDocument({ ...EXAMPLE, monthly: true }, { ...EXAMPLE, monthly: true }, LANGUAGE)).toBe(true);
    expect(sameDocument(EXAMPLE, { ...EXAMPLE, monthly: false }, LANGUAGE)).toBe(true);
    expect(sameDraft(emptyDraft(), { ...emptyDraft(), monthly: true })).toBe(false);
  });

  it("says monthly in a summary after the days", () => {
    const trend = { ...EXAMPLE, strike: { offset: 1 }, minDays: 21 };
    expect(expiryText(trend)).toBe("21+ days");
    expect(expiryText({ ...trend, monthly: false })).toBe("21+ days");
    expect(expiryText({ ...trend, monthly: true })).toBe("21+ days, monthly");
    expect(`${strikeText(trend.strike)}, ${expiryText({ ...trend, monthly: true })}`).toBe("1 strike out of the money, 21+ days, monthly");
    expect(opensText({ ...EXAMPLE, monthly: true })).toBe("CALL at the money, 30+ days, monthly");
  });
});

describe("the minimum model score (minProbability)", () => {
  it("sends the score out of 100 as a fraction while checked, and leaves the key out while not", () => {
    expect(buildDocument({ ...emptyDraft(), modelFilter: true }, LANGUAGE).document?.minProbability).toBe(0.6);
    expect(buildDocument({ ...emptyDraft(), modelFilter: true, minProbability: " 7 " }, LANGUAGE).document?.minProbability).toBe(0.07);
    expect(buildDocument({ ...emptyDraft(), modelFilter: true, minProbability: "95" }, LANGUAGE).document?.minProbability).toBe(0.95);
    expect(buildDocument({ ...emptyDraft(), modelFilter: true, minProbability: "5" }, LANGUAGE).document?.minProbability).toBe(0.05);
    const off = buildDocument({ ...emptyDraft(), modelFilter: false, minProbability: "75" }, LANGUAGE).document;
    expect(off).not.toBeNull();
    expect(off).not.toHaveProperty("minProbability");
    // Unchecked, what the input still holds is not judged: it is not sent.
    expect(buildDocument({ ...emptyDraft(), modelFilter: false, minProbability: "200" }, LANGUAGE).errors).toEqual([]);
  });

  it("starts unchecked at 60", () => {
    expect(emptyDraft()).toMatchObject({ modelFilter: false, minProbability: "60" });
  });

  it("refuses a minimum outside 5–95 or not whole, named as the server names it", () => {
    const message = "Must be a whole number from 5 to 95.";
    for (const text of ["4", "96", "0", "100", "60.5", "", "abc", "0.6"]) {
      expect(buildDocument({ ...emptyDraft(), modelFilter: true, minProbability: text }, LANGUAGE).errors).toEqual([
        { field: "document.minProbability", message },
      ]);
    }
    expect(
      buildDocument({ ...emptyDraft(), modelFilter: true, minProbability: "99" }, LANGUAGE, "customStrategy").errors.map((e) => e.field),
    ).toEqual(["customStrategy.minProbability"]);
  });

  it("reads a saved minimum back as checked with its score out of 100, and round-trips it", () => {
    const doc: CustomStrategyDocument = { ...EXAMPLE, minProbability: 0.55 };
    const draft = draftFromDocument("AI bounce", doc);
    expect(draft).toMatchObject({ modelFilter: true, minProbability: "55" });
    expect(buildDocument(draft, LANGUAGE).document).toEqual(doc);
    expect(draftFromDocument("Plain", EXAMPLE)).toMatchObject({ modelFilter: false, minProbability: "60" });
    expect(draftFromDocument("Null", { ...EXAMPLE, minProbability: null })).toMatchObject({ modelFilter: false });
  });

  it("tells a minimum added, changed or removed from the saved document, and null from absent", () => {
    expect(sameDocument(EXAMPLE, { ...EXAMPLE, minProbability: 0.6 }, LANGUAGE)).toBe(false);
    expect(sameDocument({ ...EXAMPLE, minProbability: 0.6 }, { ...EXAMPLE, minProbability: 0.65 }, LANGUAGE)).toBe(false);
    expect(sameDocument({ ...EXAMPLE, minProbability: 0.6 }, { ...EXAMPLE, minProbability: 0.6 }, LANGUAGE)).toBe(true);
    expect(sameDocument(EXAMPLE, { ...EXAMPLE, minProbability: null }, LANGUAGE)).toBe(true);
  });

  it("places the server's message on the minimum's control, from a save or a backtest", () => {
    const draft = { ...emptyDraft(), modelFilter: true };
    expect(placeErrors([{ field: "document.minProbability", message: "Must be between 0.05 and 0.95." }], draft)).toEqual({
      messages: { minProbability: "Must be between 0.05 and 0.95." },
      unplaced: [],
    });
    expect(placeErrors([{ field: "customStrategy.minProbability", message: "No." }], draft).messages).toEqual({ minProbability: "No." });
  });

  it("says the minimum in a summary, and the model's score out of 100 on the right side of it, never as a percent", () => {
    expect(modelText({ ...EXAMPLE, minProbability: 0.6 })).toBe("model score ≥ 60");
    expect(modelText({ ...EXAMPLE, minProbability: 0.07 })).toBe("model score ≥ 7");
    expect(modelText(EXAMPLE)).toBeNull();
    expect(modelText({ ...EXAMPLE, minProbability: null })).toBeNull();
    expect(modelScoreText(0.62)).toBe("62/100");
    expect(modelScoreText(0.62, 0.6, true)).toBe("62/100");
    expect(modelScoreText(0.48, 0.6, false)).toBe("48/100");
    expect(modelScoreText(0.6, 0.6, true)).toBe("60/100");
    // Rounded to 60/100 it would seem to clear a minimum of 60 it does not.
    expect(modelScoreText(0.596, 0.6, false)).toBe("59.6/100");
    expect(modelScoreText(0.59996, 0.6, false)).toBe("59.996/100");
  });
});

describe("the language's limits", () => {
  it("reads the limits from the language, not from the builder", () => {
    const small = makeRuleLanguage({ maxGroup: 2, maxDepth: 1, maxConditions: 2, maxBarsAgo: 3, version: 2 });
    const draft = withEntry(
      newGroup("all", [
        row({ left: { name: "close", barsAgo: 4 } }),
        row({ relation: "crossesAbove", left: { name: "close", barsAgo: 3 } }),
        newGroup("any", [row({})]),
      ]),
    );
    expect(buildDocument(draft, small).errors).toEqual([
      { field: "document.entry.all", message: "A group holds at most 2 conditions, got 3." },
      { field: "document.entry.all[0].compare.left.indicator.barsAgo", message: "At most 3 bars ago, got 4." },
      { field: "document.entry.all[1].crosses.left.indicator.barsAgo", message: "At most 2 bars ago in a cross, got 3." },
      { field: "document.entry.all[2].any", message: "Groups nest at most 1 deep." },
      { field: "document.entry", message: "At most 2 comparisons in all; this rule has 3." },
    ]);
    // The same draft within the server's own limits, written in its version.
    expect(buildDocument(draft, LANGUAGE).errors).toEqual([]);
    expect(buildDocument(emptyDraft(), small).errors).toEqual([]);
    expect(buildDocument(emptyDraft(), small).document?.version).toBe(2);
  });

  it("refuses an indicator the server does not read", () => {
    const without = makeRuleLanguage({ indicators: LANGUAGE.indicators.filter((i) => i.name !== "hv20") });
    const draft = withEntry(newGroup("all", [row({ left: { name: "hv20", barsAgo: 0 } })]));
    expect(buildDocument(draft, without).errors).toEqual([
      { field: "document.entry.all[0].compare.left.indicator.name", message: 'This server does not read "hv20".' },
    ]);
    expect(isIndicator(without, "hv20")).toBe(false);
    expect(isIndicator(LANGUAGE, "hv20")).toBe(true);
    expect(isIndicator(LANGUAGE, "vwap")).toBe(false);
  });
});

describe("the indicators as the builder shows them", () => {
  it("takes the server's labels and kinds, capitalised for the selects", () => {
    expect(labelOf(LANGUAGE, "bollingerUpper")).toBe("upper Bollinger band");
    expect(displayLabel(LANGUAGE, "bollingerUpper")).toBe("Upper Bollinger band");
    expect(displayLabel(LANGUAGE, "close")).toBe("Close");
    expect(displayLabel(LANGUAGE, "ema20")).toBe("EMA(20)");
    expect(kindOf(LANGUAGE, "macdSignal")).toBe("momentum");
    expect(capitalise("")).toBe("");
  });

  it("groups the indicators by kind in the server's order", () => {
    const groups = kindGroups(LANGUAGE);
    expect(groups.map((g) => [g.kind, g.label])).toEqual([
      ["price", "Prices (dollars)"],
      ["volume", "Volume (shares)"],
      ["points", "0–100 readings (points)"],
      ["momentum", "MACD"],
      ["volatility", "Volatility (percent)"],
    ]);
    expect(groups[0].indicators.map((i) => i.name)).toEqual([
      "close",
      "open",
      "high",
      "low",
      "ema20",
      "ema50",
      "sma20",
      "bollingerUpper",
      "bollingerLower",
      "atr14",
      "priorHigh",
      "priorLow",
    ]);
    expect(groups.flatMap((g) => g.indicators)).toHaveLength(21);
  });
});

describe("kindMismatch", () => {
  it("compares like with like only", () => {
    expect(
      kindMismatch(
        row({ left: { name: "close", barsAgo: 0 }, right: { type: "indicator", name: "bollingerLower", barsAgo: 0, value: "" } }),
        LANGUAGE,
      ),
    ).toBeNull();
    expect(
      kindMismatch(
        row({ left: { name: "volume", barsAgo: 0 }, right: { type: "indicator", name: "priorVolumeAverage", barsAgo: 0, value: "" } }),
        LANGUAGE,
      ),
    ).toBeNull();
    expect(
      kindMismatch(
        row({ left: { name: "macd", barsAgo: 0 }, right: { type: "indicator", name: "hv20", barsAgo: 0, value: "" } }),
        LANGUAGE,
      ),
    ).toBe("MACD is a MACD value, HV(20) is a volatility: they cannot be compared.");
    // Named as the server names them, bars ago included.
    expect(
      kindMismatch(
        row({ left: { name: "close", barsAgo: 1 }, right: { type: "indicator", name: "rsi14", barsAgo: 2, value: "" } }),
        LANGUAGE,
      ),
    ).toBe("close 1 bar ago is a price, RSI(14) 2 bars ago is a 0–100 reading: they cannot be compared.");
    // A number takes the other side's unit.
    expect(
      kindMismatch(
        row({ left: { name: "volume", barsAgo: 0 }, right: { type: "number", name: "close", barsAgo: 0, value: "1" } }),
        LANGUAGE,
      ),
    ).toBeNull();
  });
});

describe("draftFromDocument", () => {
  it("reads a single condition as an all-of group, and a number on the left the other way round", () => {
    const doc: CustomStrategyDocument = {
      ...EXAMPLE,
      entry: { compare: { left: { number: 70 }, is: "above", right: { indicator: { name: "rsi14" } } } },
      strike: { delta: 0.25 },
      exits: { targetGain: 0.8, stopLoss: 0.35 },
    };
    const draft = draftFromDocument("Custom", doc);
    expect(draft.entry.mode).toBe("all");
    expect(draft.entry.items).toHaveLength(1);
    expect(draft.entry.items[0]).toMatchObject({
      kind: "row",
      left: { name: "rsi14", barsAgo: 0 },
      relation: "below",
      right: { type: "number", value: "70" },
    });
    expect(draft).toMatchObject({ strikeMode: "delta", delta: "0.25", targetGain: "80", stopLoss: "35", closeAfter: false });
    expect(buildDocument(draft, LANGUAGE).document?.entry).toEqual({
      all: [{ compare: { left: { indicator: { name: "rsi14", barsAgo: 0 } }, is: "below", right: { number: 70 } } }],
    });
  });

  it("round-trips every template", () => {
    for (const template of TEMPLATES) {
      const built = buildDocument(draftFromTemplate(template.id), LANGUAGE);
      expect(built.errors).toEqual([]);
      expect(stableJson(built.document)).toBe(stableJson(template.document));
    }
    expect(draftFromTemplate("quiet-before-the-move")).toMatchObject({ name: "Quiet before the move", opens: "STRADDLE", offset: "0" });
  });

  it("tells a saved document from a changed one whatever the order of its keys or its defaults", () => {
    const stored = { ...EXAMPLE, exits: { maxDays: 10, stopLoss: 0.3, targetGain: 0.5 } };
    const sparse: CustomStrategyDocument = JSON.parse(JSON.stringify(EXAMPLE).replaceAll(',"barsAgo":0', ""));
    expect(sameDocument(stored, sparse, LANGUAGE)).toBe(true);
    expect(sameDocument(EXAMPLE, { ...EXAMPLE, minDays: 31 }, LANGUAGE)).toBe(false);
  });

  it("tells an edited draft from where it started, whatever the rows' keys", () => {
    const started = draftFromTemplate("trend-pullback");
    expect(sameDraft(started, draftFromTemplate("trend-pullback"))).toBe(true);
    expect(sameDraft(started, { ...started, name: " Trend pullback " })).toBe(true);
    expect(sameDraft(started, { ...started, stopLoss: "35" })).toBe(false);
    expect(sameDraft(emptyDraft(), emptyDraft())).toBe(true);
    expect(sameDraft(emptyDraft(), withEntry(newGroup("all", [row({}), row({})])))).toBe(false);
  });
});

describe("placeErrors", () => {
  const draft = withEntry(newGroup("all", [row({}), newGroup("any", [row({}), row({})])]));
  const [first, group] = draft.entry.items as [RowDraft, GroupDraft];
  const nested = group.items[1];

  it("puts each server path on its control: a row's side, a group, the rule, the trade's fields, the name", () => {
    const placed = placeErrors(
      [
        { field: "name", message: "This name is already taken" },
        { field: "document.entry.all[0].compare.right", message: "Not like with like." },
        { field: "document.entry.all[1].any[1].crosses.left.indicator.barsAgo", message: "At most 9 bars ago in a cross, got 10." },
        { field: "document.entry.all[1].any", message: "A group holds at most 8 conditions, got 9." },
        { field: "document.entry.all[0].compare", message: "Compare an indicator: two numbers always compare the same way." },
        { field: "document.entry", message: "At most 20 comparisons in all; this rule has 21." },
        { field: "document.strike.offset", message: "Use 0." },
        { field: "document.strike", message: "Give one of offset or delta." },
        { field: "document.exits.stopLoss", message: "Must be between 0.05 and 0.95." },
        { field: "customStrategy.exits.maxDays", message: "Must be between 1 and 365 days." },
        { field: "customStrategy.minDays", message: "Must be between 1 and 365 days." },
      ],
      draft,
    );
    expect(placed.messages).toEqual({
      name: "This name is already taken",
      [`${first.key}:right`]: "Not like with like.",
      [`${nested.key}:left`]: "At most 9 bars ago in a cross, got 10.",
      [group.key]: "A group holds at most 8 conditions, got 9.",
      [`${first.key}:row`]: "Compare an indicator: two numbers always compare the same way.",
      entry: "At most 20 comparisons in all; this rule has 21.",
      offset: "Use 0.",
      strike: "Give one of offset or delta.",
      stopLoss: "Must be between 0.05 and 0.95.",
      maxDays: "Must be between 1 and 365 days.",
      minDays: "Must be between 1 and 365 days.",
    });
    expect(placed.unplaced).toEqual([]);
  });

  it("leaves what no control shows to the page: the version, symbols, a path past the draft", () => {
    const placed = placeErrors(
      [
        { field: "document.version", message: "This server reads version 1." },
        { field: "symbols", message: '"ZZZ" is not a tracked stock' },
        { field: "document.entry.all[5].compare.right", message: "Gone." },
      ],
      draft,
    );
    expect(placed.messages).toEqual({});
    expect(placed.unplaced.map((e) => e.field)).toEqual(["document.version", "symbols", "document.entry.all[5].compare.right"]);
  });

  it("joins two messages for the same control", () => {
    const placed = placeErrors(
      [
        { field: "document.entry.all[0].compare.left.indicator.barsAgo", message: "At most 10 bars ago." },
        { field: "document.entry.all[0].compare.left", message: "Unknown." },
      ],
      draft,
    );
    expect(placed.messages[`${first.key}:left`]).toBe("At most 10 bars ago. Unknown.");
  });
});

describe("nameErrors and the summaries", () => {
  it("asks for a name of 1 to the language's most characters", () => {
    expect(nameErrors("  ", LANGUAGE)).toEqual([{ field: "name", message: "Please enter a name." }]);
    expect(nameErrors("x".repeat(61), LANGUAGE)[0].message).toBe("At most 60 characters.");
    expect(nameErrors(" Oversold bounce ", LANGUAGE)).toEqual([]);
    expect(nameErrors("x".repeat(11), makeRuleLanguage({ maxName: 10 }))[0].message).toBe("At most 10 characters.");
  });

  it("reads the numbers' ranges from the language", () => {
    const narrow = makeRuleLanguage({
      ranges: { offset: [-2, 2], delta: [0.2, 0.8], days: [7, 60], targetGain: [0.1, 2], stopLoss: [0.1, 0.5] },
    });
    const draft: StrategyDraft = {
      ...draftFromTemplate(TEMPLATES[0].id),
      offset: "3",
      minDays: "90",
      targetGain: "300",
      stopLoss: "60",
      closeAfter: true,
      maxDays: "5",
    };
    const messages = Object.fromEntries(buildDocument(draft, narrow).errors.map((e) => [e.field, e.message]));
    expect(messages).toEqual({
      "document.strike.offset": "Must be a whole number of listed strikes between -2 and 2.",
      "document.minDays": "Must be a whole number of days between 7 and 60.",
      "document.exits.targetGain": "Must be between 10% and 200%.",
      "document.exits.stopLoss": "Must be between 10% and 50%.",
      "document.exits.maxDays": "Must be a whole number of days between 7 and 60.",
    });
    expect(buildDocument(draft, LANGUAGE).errors).toEqual([]);
  });

  it("says what a strategy opens and how it closes", () => {
    expect(strikeText({ offset: 0 })).toBe("at the money");
    expect(strikeText({ offset: 1 })).toBe("1 strike out of the money");
    expect(strikeText({ offset: -3 })).toBe("3 strikes in the money");
    expect(strikeText({ delta: 0.3 })).toBe("delta 0.30");
    expect(opensText(EXAMPLE)).toBe("CALL at the money, 30+ days");
    expect(exitsText(EXAMPLE)).toBe("+50% / −30%, closed after 10 days");
    expect(exitsText({ ...EXAMPLE, exits: { targetGain: 1, stopLoss: 0.5, maxDays: null } })).toBe("+100% / −50%, held to expiry");
  });
});
