import { z } from "zod";
import { RISK_TOLERANCES, type RiskTolerance, STRATEGIES, type Strategy } from "@/lib/api/enums";
import type { InvestmentPreferencesUpdate, User } from "@/lib/api/models";
import { cents, checkSizes, orderStrategies } from "@/lib/investment-sizes";

export { MAX_AMOUNT, orderStrategies, parseAmount, toggleStrategy } from "@/lib/investment-sizes";

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
  .superRefine(checkSizes);

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
