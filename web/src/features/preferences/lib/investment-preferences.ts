import { z } from "zod";
import { RISK_TOLERANCES, type RiskTolerance, STRATEGIES, type Strategy } from "@/lib/api/enums";
import type { InvestmentPreferencesUpdate, User } from "@/lib/api/models";
import { formatCount } from "@/lib/format";

/** The Investment Preferences form's fields, as typed (amounts stay text until sent). */
export type InvestmentPreferencesValues = {
  investmentCapital: string;
  maxPositionSize: string;
  riskTolerance: RiskTolerance;
  /** In the order of STRATEGIES. */
  preferredStrategies: Strategy[];
};

/** The form's fields, named as the request (and the server's field errors) name them. */
export const PREFERENCE_FIELDS = [
  "investmentCapital",
  "maxPositionSize",
  "riskTolerance",
  "preferredStrategies",
] as const satisfies readonly (keyof InvestmentPreferencesValues)[];

/** An account's values before it changes them: $1,000 capital, $100 a position, medium risk, Momentum and Breakout. */
export const PREFERENCE_DEFAULTS = {
  investmentCapital: 1000,
  maxPositionSize: 100,
  riskTolerance: "medium",
  preferredStrategies: ["Momentum", "Breakout"],
} as const satisfies {
  investmentCapital: number;
  maxPositionSize: number;
  riskTolerance: RiskTolerance;
  preferredStrategies: readonly Strategy[];
};

/** The largest capital (and so position size) the server accepts, in dollars. */
export const MAX_AMOUNT = 1_000_000_000;

/** The stored comma-separated names, as the checkbox list's strategies in its order (any case). */
export function parseStrategies(text: string): Strategy[] {
  const names = new Set(
    text
      .split(",")
      .map((s) => s.trim().toLowerCase())
      .filter(Boolean),
  );
  return STRATEGIES.filter((s) => names.has(s.toLowerCase()));
}

/** `strategies` in the canonical order of the checkbox list, each once. */
export function orderStrategies(strategies: readonly Strategy[]): Strategy[] {
  return STRATEGIES.filter((s) => strategies.includes(s));
}

/** Adds `strategy` when absent, removes it when present (no minimum is enforced). */
export function toggleStrategy(strategies: readonly Strategy[], strategy: Strategy): Strategy[] {
  return strategies.includes(strategy) ? strategies.filter((s) => s !== strategy) : orderStrategies([...strategies, strategy]);
}

const positive = (value: number | null | undefined): value is number => typeof value === "number" && Number.isFinite(value) && value > 0;

type StoredPreferences = Partial<Pick<User, "investmentCapital" | "maxPositionSize" | "riskTolerance" | "preferredStrategies">>;

/**
 * The form's values from the stored user, with the defaults where a value is missing (an
 * amount that is not above 0 counts as missing). An empty strategy list stays empty: it is
 * what "none" is stored as.
 */
export function valuesFromUser(user: StoredPreferences): InvestmentPreferencesValues {
  return {
    investmentCapital: String(positive(user.investmentCapital) ? user.investmentCapital : PREFERENCE_DEFAULTS.investmentCapital),
    maxPositionSize: String(positive(user.maxPositionSize) ? user.maxPositionSize : PREFERENCE_DEFAULTS.maxPositionSize),
    riskTolerance: RISK_TOLERANCES.find((r) => r === user.riskTolerance) ?? PREFERENCE_DEFAULTS.riskTolerance,
    preferredStrategies:
      typeof user.preferredStrategies === "string"
        ? parseStrategies(user.preferredStrategies)
        : [...PREFERENCE_DEFAULTS.preferredStrategies],
  };
}

/** An amount as typed, as a number: 0 when empty or not a number above 0. */
export function parseAmount(text: string): number {
  const trimmed = text.trim();
  const value = Number(trimmed);
  return trimmed && Number.isFinite(value) && value > 0 ? value : 0;
}

const AMOUNT = /^(\d+(\.\d{0,2})?|\.\d{1,2})$/;

/** What is wrong with an amount as typed (the server's rules), or null. */
function amountIssue(text: string, label: string): string | null {
  const trimmed = text.trim();
  if (!trimmed) return `Enter the ${label}`;
  const value = Number(trimmed);
  if (!Number.isFinite(value) || value <= 0) return `The ${label} must be more than 0`;
  if (!AMOUNT.test(trimmed)) return "Use at most two decimals";
  if (value > MAX_AMOUNT) return `The ${label} can be at most ${formatCount(MAX_AMOUNT)} US dollars`;
  return null;
}

/** Whole cents of a valid amount, so comparisons are exact. */
const cents = (value: number) => Math.round(value * 100);

/**
 * The rules of PATCH /api/user/preferences, checked before sending: both amounts more than 0,
 * at most $1,000,000,000 and two decimals, and the maximum position size at most the capital.
 */
export const investmentPreferencesSchema = z
  .object({
    investmentCapital: z.string(),
    maxPositionSize: z.string(),
    riskTolerance: z.enum(RISK_TOLERANCES, { message: "Choose a risk tolerance" }),
    preferredStrategies: z.array(z.enum(STRATEGIES)),
  })
  .superRefine((values, ctx) => {
    const capitalIssue = amountIssue(values.investmentCapital, "investment capital");
    if (capitalIssue) ctx.addIssue({ code: "custom", path: ["investmentCapital"], message: capitalIssue });
    const sizeIssue = amountIssue(values.maxPositionSize, "max position size");
    if (sizeIssue) ctx.addIssue({ code: "custom", path: ["maxPositionSize"], message: sizeIssue });
    if (!capitalIssue && !sizeIssue && cents(Number(values.maxPositionSize)) > cents(Number(values.investmentCapital))) {
      ctx.addIssue({
        code: "custom",
        path: ["maxPositionSize"],
        message: "The maximum position size cannot be more than the investment capital",
      });
    }
  });

/** The request body: all four fields, the strategies comma-joined in the checkbox list's order. */
export function toPreferencesUpdate(values: InvestmentPreferencesValues): InvestmentPreferencesUpdate {
  return {
    investmentCapital: Number(values.investmentCapital.trim()),
    riskTolerance: values.riskTolerance,
    maxPositionSize: Number(values.maxPositionSize.trim()),
    preferredStrategies: orderStrategies(values.preferredStrategies).join(","),
  };
}

/** The allocation summary; the two ratios are null unless both amounts are above 0. */
export type Allocation = { maxPositions: number | null; riskPerTrade: number | null; strategies: number };

/**
 * Maximum positions = floor(capital / max position size); risk per trade = max position size
 * / capital as a percent. Amounts not above 0 give no
 * ratio instead of a division by zero.
 */
export function allocationOf(capital: number, maxPositionSize: number, strategies: number): Allocation {
  if (!(capital > 0 && maxPositionSize > 0)) return { maxPositions: null, riskPerTrade: null, strategies };
  const capitalCents = Math.max(1, cents(capital));
  const sizeCents = Math.max(1, cents(maxPositionSize));
  return {
    maxPositions: Math.floor(capitalCents / sizeCents),
    riskPerTrade: (sizeCents / capitalCents) * 100,
    strategies,
  };
}
