import type {
  ConditionDocument,
  CustomStrategyDocument,
  DirectionName,
  FieldError,
  IndicatorName,
  OperandDocument,
  RuleLanguage,
  SignalKind,
} from "@/lib/api/models";
import { KIND_DESCRIPTIONS, kindOf, labelOf } from "./indicators";

/**
 * The builder's draft of a custom strategy and its `CustomStrategyDocument` (docs/strategies.md
 * §11). The draft holds what the inputs hold (text for numbers, percentages for the exits); the
 * document is what the server reads. Every mistake the builder finds itself is named by the
 * path the server would name it by (`document.entry.all[1].compare.right`), so the builder's
 * own messages and the server's land on the same controls (`placeErrors`). What a rule may
 * read and how large it may be are the server's (`RuleLanguage`), passed in.
 */

/** The most bars back an operand is read: a cross reads the bar before too, so one fewer there. */
export function mostBarsAgo(language: RuleLanguage, cross: boolean): number {
  return cross ? language.maxBarsAgo - 1 : language.maxBarsAgo;
}

/** A row's relation: a comparison on the bar, or a cross onto it. */
export type Relation = "above" | "below" | "crossesAbove" | "crossesBelow";
export const RELATIONS: readonly Relation[] = ["above", "below", "crossesAbove", "crossesBelow"];
export const RELATION_LABELS: Record<Relation, string> = {
  above: "is above",
  below: "is below",
  crossesAbove: "crosses above",
  crossesBelow: "crosses below",
};

const isCross = (relation: Relation) => relation === "crossesAbove" || relation === "crossesBelow";
const directionOf = (relation: Relation): DirectionName => (relation === "above" || relation === "crossesAbove" ? "above" : "below");

export type GroupMode = "all" | "any";
export const GROUP_MODE_LABELS: Record<GroupMode, string> = { all: "All of these", any: "Any of these" };

export type IndicatorDraft = { name: IndicatorName; barsAgo: number };
/** The right side keeps both an indicator and a number, so switching between them loses neither. */
export type RightDraft = { type: "indicator" | "number"; name: IndicatorName; barsAgo: number; value: string };
export type RowDraft = { key: string; kind: "row"; left: IndicatorDraft; relation: Relation; right: RightDraft };
export type GroupDraft = { key: string; kind: "group"; mode: GroupMode; items: ConditionDraft[] };
export type ConditionDraft = RowDraft | GroupDraft;

export type StrikeMode = "offset" | "delta";

export type StrategyDraft = {
  name: string;
  /** The entry rule: always a group at the top ("All of these" or "Any of these"). */
  entry: GroupDraft;
  opens: SignalKind;
  strikeMode: StrikeMode;
  /** Listed strikes from the one nearest the price, −10..10. */
  offset: string;
  /** 0.05–0.95. */
  delta: string;
  minDays: string;
  /** Whether the trade opens the first monthly expiration (the third Friday) at least `minDays` out, not the first listed one. */
  monthly: boolean;
  /** Percent of the premium: 50 for +50 %. */
  targetGain: string;
  /** Percent of the premium: 30 for −30 %. */
  stopLoss: string;
  /** Whether the trade closes after `maxDays` calendar days (else it is held to expiry). */
  closeAfter: boolean;
  maxDays: string;
  /** Whether a fired setup must also clear a minimum predictive-model score (a custom AI strategy). */
  modelFilter: boolean;
  /** The minimum model score out of 100, whole: 60 for `minProbability` 0.6. Kept while unchecked, as `maxDays` is. */
  minProbability: string;
};

/**
 * The minimum model score's range out of 100 (`CustomStrategyDocument.minProbability`,
 * 0.05–0.95; the rule language's ranges do not list it), and what a first check starts at.
 */
export const MIN_PROBABILITY_RANGE: readonly [number, number] = [5, 95];
export const DEFAULT_MIN_PROBABILITY = "60";

let lastKey = 0;
/** A key for a new row or group, unique in this page. */
export function newKey(): string {
  lastKey += 1;
  return `c${lastKey}`;
}

export function newRow(patch: Partial<Omit<RowDraft, "key" | "kind">> = {}): RowDraft {
  return {
    key: newKey(),
    kind: "row",
    left: { name: "rsi14", barsAgo: 0 },
    relation: "below",
    right: { type: "number", name: "rsi14", barsAgo: 0, value: "30" },
    ...patch,
  };
}

export function newGroup(mode: GroupMode, items: ConditionDraft[] = [newRow()]): GroupDraft {
  return { key: newKey(), kind: "group", mode, items };
}

/** A fresh strategy: one condition, a call at the money, +50 % / −30 %, closed after 10 days. */
export function emptyDraft(): StrategyDraft {
  return {
    name: "",
    entry: newGroup("all"),
    opens: "CALL",
    strikeMode: "offset",
    offset: "0",
    delta: "0.5",
    minDays: "30",
    monthly: false,
    targetGain: "50",
    stopLoss: "30",
    closeAfter: true,
    maxDays: "10",
    modelFilter: false,
    minProbability: DEFAULT_MIN_PROBABILITY,
  };
}

/** How many comparisons (and crosses) a condition holds. */
export function countComparisons(c: ConditionDraft): number {
  return c.kind === "row" ? 1 : c.items.reduce((n, item) => n + countComparisons(item), 0);
}

/** How deep a group nests, itself counted (a group of rows is 1). */
export function depthOf(group: GroupDraft): number {
  return 1 + Math.max(0, ...group.items.map((item) => (item.kind === "group" ? depthOf(item) : 0)));
}

/** `group` with the item keyed `key` replaced by `replace(item)` (or removed when it returns null), at any depth. */
export function updateItem(group: GroupDraft, key: string, replace: (item: ConditionDraft) => ConditionDraft | null): GroupDraft {
  const items: ConditionDraft[] = [];
  for (const item of group.items) {
    if (item.key === key) {
      const next = replace(item);
      if (next) items.push(next);
    } else items.push(item.kind === "group" ? updateItem(item, key, replace) : item);
  }
  return { ...group, items };
}

/** An indicator operand as the server's messages name it: "close", "EMA(20) 2 bars ago". */
function operandName(language: RuleLanguage, { name, barsAgo }: IndicatorDraft): string {
  const label = labelOf(language, name);
  if (barsAgo === 0) return label;
  return barsAgo === 1 ? `${label} 1 bar ago` : `${label} ${barsAgo} bars ago`;
}

/** The kind mismatch of a row, in the server's words; null when the two sides compare (or a side is not read at all). */
export function kindMismatch(row: RowDraft, language: RuleLanguage): string | null {
  if (row.right.type !== "indicator") return null;
  const left = kindOf(language, row.left.name);
  const right = kindOf(language, row.right.name);
  if (!left || !right || left === right) return null;
  return `${operandName(language, row.left)} is ${KIND_DESCRIPTIONS[left]}, ${operandName(language, row.right)} is ${KIND_DESCRIPTIONS[right]}: they cannot be compared.`;
}

/** A number as the inputs hold it: digits, an optional sign and decimals; NaN otherwise. */
function parseNumber(text: string): number {
  const trimmed = text.trim();
  return trimmed === "" ? Number.NaN : Number(trimmed);
}

const isWhole = (n: number) => Number.isInteger(n);

type Built = { document: CustomStrategyDocument; errors: [] } | { document: null; errors: FieldError[] };

/**
 * The draft as the server reads it, or every mistake the builder can see within `language`'s
 * indicators and limits, each named by its path under `prefix` ("document" in a save or a
 * preview, "customStrategy" in a backtest).
 */
export function buildDocument(draft: StrategyDraft, language: RuleLanguage, prefix = "document"): Built {
  const { maxGroup, maxDepth, maxConditions, ranges } = language;
  const errors: FieldError[] = [];
  const fail = (field: string, message: string) => errors.push({ field: `${prefix}.${field}`, message });

  const condition = (c: ConditionDraft, path: string, depth: number): ConditionDocument => {
    if (c.kind === "group") {
      const here = `${path}.${c.mode}`;
      if (c.items.length === 0) fail(here, "A group needs at least one condition.");
      else if (c.items.length > maxGroup) fail(here, `A group holds at most ${maxGroup} conditions, got ${c.items.length}.`);
      if (depth > maxDepth) fail(here, `Groups nest at most ${maxDepth} deep.`);
      const members = c.items.map((item, i) => condition(item, `${here}[${i}]`, depth + 1));
      return c.mode === "all" ? { all: members } : { any: members };
    }
    const cross = isCross(c.relation);
    const here = `${path}.${cross ? "crosses" : "compare"}`;
    const most = mostBarsAgo(language, cross);
    const indicator = ({ name, barsAgo }: IndicatorDraft, side: "left" | "right"): OperandDocument => {
      if (!kindOf(language, name)) fail(`${here}.${side}.indicator.name`, `This server does not read "${name}".`);
      if (!isWhole(barsAgo) || barsAgo < 0 || barsAgo > most) {
        fail(`${here}.${side}.indicator.barsAgo`, `At most ${most} bars ago${cross ? " in a cross" : ""}, got ${barsAgo}.`);
      }
      return { indicator: { name, barsAgo } };
    };
    const left = indicator(c.left, "left");
    let right: OperandDocument;
    if (c.right.type === "indicator") {
      right = indicator(c.right, "right");
      const mismatch = kindMismatch(c, language);
      if (mismatch) fail(`${here}.right`, mismatch);
    } else {
      const value = parseNumber(c.right.value);
      if (!Number.isFinite(value)) fail(`${here}.right.number`, "Enter a number.");
      else if (Math.abs(value) > 1e9) fail(`${here}.right.number`, "Must be a number between -1e9 and 1e9.");
      right = { number: Number.isFinite(value) ? value : 0 };
    }
    const comparison = { left, is: directionOf(c.relation), right };
    return cross ? { crosses: comparison } : { compare: comparison };
  };

  const entry = condition(draft.entry, "entry", 1);
  const comparisons = countComparisons(draft.entry);
  if (comparisons > maxConditions) fail("entry", `At most ${maxConditions} comparisons in all; this rule has ${comparisons}.`);

  const straddle = draft.opens === "STRADDLE";
  let strike: CustomStrategyDocument["strike"];
  if (draft.strikeMode === "delta" && !straddle) {
    const delta = parseNumber(draft.delta);
    const [low, high] = ranges.delta;
    if (!Number.isFinite(delta) || delta < low || delta > high) fail("strike.delta", `Must be between ${low} and ${high}.`);
    strike = { delta: Number.isFinite(delta) ? delta : 0 };
  } else {
    // A straddle buys the strike nearest the price: its offset is 0 whatever the input held.
    const offset = straddle ? 0 : parseNumber(draft.offset);
    const [low, high] = ranges.offset;
    if (!Number.isFinite(offset) || !isWhole(offset) || offset < low || offset > high) {
      fail("strike.offset", `Must be a whole number of listed strikes between ${low} and ${high}.`);
    }
    strike = { offset: Number.isFinite(offset) ? offset : 0 };
  }

  const [firstDay, lastDay] = ranges.days;
  const daysMessage = `Must be a whole number of days between ${firstDay} and ${lastDay}.`;
  const minDays = parseNumber(draft.minDays);
  if (!isWhole(minDays) || minDays < firstDay || minDays > lastDay) fail("minDays", daysMessage);

  // The inputs hold percentages; the ranges are fractions of the premium.
  const [targetLow, targetHigh] = ranges.targetGain.map((f) => Number(percentText(f)));
  const targetGain = parseNumber(draft.targetGain);
  if (!Number.isFinite(targetGain) || targetGain < targetLow || targetGain > targetHigh) {
    fail("exits.targetGain", `Must be between ${targetLow}% and ${targetHigh}%.`);
  }
  const [stopLow, stopHigh] = ranges.stopLoss.map((f) => Number(percentText(f)));
  const stopLoss = parseNumber(draft.stopLoss);
  if (!Number.isFinite(stopLoss) || stopLoss < stopLow || stopLoss > stopHigh)
    fail("exits.stopLoss", `Must be between ${stopLow}% and ${stopHigh}%.`);
  const maxDays = draft.closeAfter ? parseNumber(draft.maxDays) : null;
  if (maxDays !== null && (!isWhole(maxDays) || maxDays < firstDay || maxDays > lastDay)) fail("exits.maxDays", daysMessage);

  // The minimum is typed as a whole score out of 100; the document holds the fraction. Unchecked, the key is left out.
  const minProbability = draft.modelFilter ? parseNumber(draft.minProbability) : null;
  const [scoreLow, scoreHigh] = MIN_PROBABILITY_RANGE;
  if (minProbability !== null && (!isWhole(minProbability) || minProbability < scoreLow || minProbability > scoreHigh)) {
    fail("minProbability", `Must be a whole number from ${scoreLow} to ${scoreHigh}.`);
  }

  if (errors.length > 0) return { document: null, errors };
  return {
    document: {
      version: language.version,
      entry,
      opens: draft.opens,
      strike,
      minDays,
      // Unchecked, the key is left out (the server's default, false), never sent as false.
      ...(draft.monthly ? { monthly: true } : {}),
      exits: { targetGain: fraction(targetGain), stopLoss: fraction(stopLoss), maxDays },
      ...(minProbability !== null ? { minProbability: fraction(minProbability) } : {}),
    },
    errors: [],
  };
}

/** A percentage as the fraction the document holds: 50 → 0.5 (without 0.30000000000000004). */
export function fraction(percent: number): number {
  return Number((percent / 100).toFixed(6));
}

/** A fraction of the document as the percentage the inputs show: 0.3 → "30". */
export function percentText(value: number): string {
  return String(Number((value * 100).toFixed(4)));
}

/** The mistakes in the name, as the server would name them (its longest name is the language's). */
export function nameErrors(name: string, language: RuleLanguage): FieldError[] {
  const trimmed = name.trim();
  if (trimmed === "") return [{ field: "name", message: "Please enter a name." }];
  if ([...trimmed].length > language.maxName) return [{ field: "name", message: `At most ${language.maxName} characters.` }];
  return [];
}

const flip = (direction: DirectionName): DirectionName => (direction === "above" ? "below" : "above");

/** A saved condition as the builder's rows and groups. */
function conditionDraft(c: ConditionDocument): ConditionDraft {
  if ("all" in c) return { key: newKey(), kind: "group", mode: "all", items: c.all.map(conditionDraft) };
  if ("any" in c) return { key: newKey(), kind: "group", mode: "any", items: c.any.map(conditionDraft) };
  const cross = "crosses" in c;
  const comparison = cross ? c.crosses : c.compare;
  let { left, right, is } = comparison;
  // The builder's left side is an indicator: "30 is above RSI" is read as "RSI is below 30".
  if ("number" in left && "indicator" in right) {
    [left, right] = [right, left];
    is = flip(is);
  }
  const leftIndicator =
    "indicator" in left ? { name: left.indicator.name, barsAgo: left.indicator.barsAgo ?? 0 } : { name: "close" as const, barsAgo: 0 };
  const relation: Relation = cross ? (is === "above" ? "crossesAbove" : "crossesBelow") : is;
  const rightDraft: RightDraft =
    "indicator" in right
      ? { type: "indicator", name: right.indicator.name, barsAgo: right.indicator.barsAgo ?? 0, value: "" }
      : { type: "number", name: leftIndicator.name, barsAgo: 0, value: String(right.number) };
  return { key: newKey(), kind: "row", left: leftIndicator, relation, right: rightDraft };
}

/** A saved strategy (or a template) as the builder's draft. */
export function draftFromDocument(name: string, doc: CustomStrategyDocument): StrategyDraft {
  const entry = conditionDraft(doc.entry);
  const delta = doc.strike.delta;
  const maxDays = doc.exits.maxDays;
  const minProbability = doc.minProbability;
  return {
    name,
    entry: entry.kind === "group" ? entry : { key: newKey(), kind: "group", mode: "all", items: [entry] },
    opens: doc.opens,
    strikeMode: delta != null ? "delta" : "offset",
    offset: String(doc.strike.offset ?? 0),
    delta: String(delta ?? 0.5),
    minDays: String(doc.minDays),
    monthly: doc.monthly === true,
    targetGain: percentText(doc.exits.targetGain),
    stopLoss: percentText(doc.exits.stopLoss),
    closeAfter: maxDays != null,
    maxDays: String(maxDays ?? 10),
    modelFilter: minProbability != null,
    minProbability: minProbability != null ? percentText(minProbability) : DEFAULT_MIN_PROBABILITY,
  };
}

/** `value` as JSON with its keys sorted, so two equal documents give the same text whatever their keys' order. */
export function stableJson(value: unknown): string {
  return JSON.stringify(value, (_, v: unknown) =>
    v && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

/** A saved document as the builder would build it again (defaults written out), to tell whether the draft changed it. */
export function sameDocument(a: CustomStrategyDocument, b: CustomStrategyDocument, language: RuleLanguage): boolean {
  const normal = (doc: CustomStrategyDocument) => {
    const built = buildDocument(draftFromDocument("", doc), language);
    return stableJson(built.document ?? doc);
  };
  return normal(a) === normal(b);
}

/** Whether two drafts hold the same inputs (the rows' keys aside): a new strategy is unsaved once it differs from where it started. */
export function sameDraft(a: StrategyDraft, b: StrategyDraft): boolean {
  const text = (d: StrategyDraft) =>
    stableJson(JSON.parse(JSON.stringify({ ...d, name: d.name.trim() }, (k, v: unknown) => (k === "key" ? undefined : v))));
  return text(a) === text(b);
}

/**
 * Where a message shows: a control of the form (`name`, `opens`, `strike`, `offset`, `delta`,
 * `minDays`, `targetGain`, `stopLoss`, `maxDays`, `minProbability`), the rule as a whole (`entry`), a group
 * (`{key}`) or a row's side (`{key}:left`, `{key}:right`, `{key}:row`).
 */
export type Placed = { messages: Record<string, string>; unplaced: FieldError[] };

const FIELD_TARGETS: Record<string, string> = {
  opens: "opens",
  strike: "strike",
  "strike.offset": "offset",
  "strike.delta": "delta",
  minDays: "minDays",
  exits: "targetGain",
  "exits.targetGain": "targetGain",
  "exits.stopLoss": "stopLoss",
  "exits.maxDays": "maxDays",
  minProbability: "minProbability",
  entry: "entry",
};

/** The control a path under `entry` names in `group`, or null when the draft has no such part. */
function entryTarget(group: GroupDraft, rest: string): string | null {
  let node: ConditionDraft = group;
  let path = rest;
  for (;;) {
    if (node.kind === "group") {
      const member = /^\.(all|any)\[(\d+)\]/.exec(path);
      if (member) {
        const next: ConditionDraft | undefined = node.items[Number(member[2])];
        if (!next) return null;
        node = next;
        path = path.slice(member[0].length);
        continue;
      }
      return /^\.(all|any)$/.test(path) || path === "" ? node.key : null;
    }
    const side = /^\.(compare|crosses)(?:\.(left|right))?/.exec(path);
    if (!side) return null;
    return `${node.key}:${side[2] ?? "row"}`;
  }
}

/**
 * The field errors of an answer (or the builder's own), by the control they belong to. Paths
 * start with `document.` (a save, a preview) or `customStrategy.` (a backtest); `name` is the
 * name. What matches no control (a version, a symbol) is `unplaced`, for the page to say.
 */
export function placeErrors(errors: readonly FieldError[], draft: StrategyDraft): Placed {
  const messages: Record<string, string> = {};
  const unplaced: FieldError[] = [];
  const put = (target: string, message: string) => {
    messages[target] = messages[target] ? `${messages[target]} ${message}` : message;
  };
  for (const error of errors) {
    if (error.field === "name") {
      put("name", error.message);
      continue;
    }
    const match = /^(?:document|customStrategy)\.(.+)$/.exec(error.field);
    const path = match?.[1];
    if (!path) {
      unplaced.push(error);
      continue;
    }
    const field = FIELD_TARGETS[path];
    if (field) {
      put(field, error.message);
      continue;
    }
    const target = path.startsWith("entry.") ? entryTarget(draft.entry, path.slice("entry".length)) : null;
    if (target) put(target, error.message);
    else unplaced.push(error);
  }
  return { messages, unplaced };
}
