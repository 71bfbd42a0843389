import type { z } from "zod";
import { STRATEGIES, type Strategy } from "@/lib/api/enums";
import { formatCount } from "@/lib/format";

/**
 * The rules every form that sets an account's sizing shares (Investment Preferences and the
 * trading accounts' form), as the server's one rule `money::checked_sizes` has them: the
 * capital and the maximum position size more than 0, at most $1,000,000,000 and two decimals,
 * and the position size at most the capital; and the strategy checkboxes' order.
 */

/** The largest capital (and so position size) the server accepts, in dollars. */
export const MAX_AMOUNT = 1_000_000_000;

/** `strategies` in the canonical order of the checkbox list, each once. */
export function orderStrategies(strategies: readonly Strategy[]): Strategy[] {
  return STRATEGIES.filter((s) => strategies.includes(s));
}

/** Adds `strategy` when absent, removes it when present (no minimum is enforced). */
export function toggleStrategy(strategies: readonly Strategy[], strategy: Strategy): Strategy[] {
  return strategies.includes(strategy) ? strategies.filter((s) => s !== strategy) : orderStrategies([...strategies, strategy]);
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
export const cents = (value: number) => Math.round(value * 100);

/** Adds to `ctx` what is wrong with the capital and maximum position size as typed. */
export function checkSizes(values: { investmentCapital: string; maxPositionSize: string }, ctx: z.RefinementCtx): void {
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
}
