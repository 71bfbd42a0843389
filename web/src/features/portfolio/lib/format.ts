import { isOneOf, RISK_LEVELS, type RiskLevel } from "@/lib/api/enums";
import { formatPercentOrDash, formatRatio, formatSignedPercent, NO_VALUE } from "@/lib/format";

/** Percentages on the portfolio page have two decimals. */
export const PORTFOLIO_PERCENT_DIGITS = 2;

/** 62.5 → "62.50%", null → "—" */
export function portfolioPercent(value: number | null | undefined): string {
  return formatPercentOrDash(value, PORTFOLIO_PERCENT_DIGITS);
}

/** 14.062 → "+14.06%" */
export function portfolioSignedPercent(value: number | null | undefined): string {
  return value == null || !Number.isFinite(value) ? NO_VALUE : formatSignedPercent(value, PORTFOLIO_PERCENT_DIGITS);
}

/** Greeks are shown to 4 decimals. */
export function formatGreek(value: number | null | undefined): string {
  return formatRatio(value, 4);
}

const RISK_LEVEL_LABELS: Record<RiskLevel, string> = { low: "Low", moderate: "Medium", high: "High", very_high: "Very High" };

/**
 * The risk level badge's text: Low, Medium, High, Very High; the
 * server's "moderate" reads Medium and "very_high" Very High; any other value is title-cased.
 */
export function riskLevelLabel(level: string): string {
  if (isOneOf(RISK_LEVELS, level)) return RISK_LEVEL_LABELS[level];
  return level
    .split(/[_\s-]+/)
    .filter(Boolean)
    .map((w) => w[0].toUpperCase() + w.slice(1).toLowerCase())
    .join(" ");
}

/** "positive" for low, "caution" for medium, "negative" for high and above. */
export function riskTone(level: string): "positive" | "caution" | "negative" {
  if (level === "low") return "positive";
  if (level === "moderate" || level === "medium") return "caution";
  return "negative";
}

/** "1 contract", "3 contracts" */
export function contracts(quantity: number): string {
  return `${quantity} ${quantity === 1 ? "contract" : "contracts"}`;
}
