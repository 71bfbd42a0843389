import { ApiError, rateLimited } from "@/lib/api/client";
import { formatCount } from "@/lib/format";
import type { BrokerCheck, ContractDifference } from "../api/get-broker-reconciliation";
import { brokerRefusal } from "./broker";

const strikes = new Intl.NumberFormat("en-US", { maximumFractionDigits: 3 });
const signedCounts = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0, signDisplay: "exceptZero" });

/** "1 contract", "3 contracts". */
function contracts(count: number): string {
  return `${formatCount(count)} ${count === 1 ? "contract" : "contracts"}`;
}

/** A contract in words, as a broker lists it: "MSFT 400 call 2026-12-18" (the strike in dollars, never converted). */
export function contractLabel(difference: Pick<ContractDifference, "underlying" | "strikePrice" | "right" | "expirationDate">): string {
  return `${difference.underlying} ${strikes.format(difference.strikePrice)} ${difference.right} ${difference.expirationDate}`;
}

/** How many contracts one book holds: "3", "-2 (written)" (a negative count is written, short, contracts), "0". */
export function holdingText(count: number): string {
  return count < 0 ? `${formatCount(count)} (written)` : formatCount(count);
}

/** Alpaca's count less ours, with its sign: "+1", "-2". */
export function differenceText({ ours, theirs }: Pick<ContractDifference, "ours" | "theirs">): string {
  return signedCounts.format(theirs - ours);
}

/** "Books agree: 4 contracts match.", or "2 contracts differ" (with how many match beside it on screen). */
export function summaryText(check: Pick<BrokerCheck, "matched" | "differences">): string {
  const differing = check.differences.length;
  if (differing === 0) return `Books agree: ${contracts(check.matched)} ${check.matched === 1 ? "matches" : "match"}.`;
  return `${contracts(differing)} ${differing === 1 ? "differs" : "differ"}`;
}

/** "Alpaca also holds 2 positions that are not options (not compared).", or null when it holds none. */
export function otherHoldingsText(otherHoldings: number): string | null {
  if (otherHoldings <= 0) return null;
  return otherHoldings === 1
    ? "Alpaca also holds 1 position that is not an option (not compared)."
    : `Alpaca also holds ${formatCount(otherHoldings)} positions that are not options (not compared).`;
}

/** "Too many checks: try again in 30 s." (or in minutes, from two minutes) for a 429, else null. */
export function checkRetryText(error: unknown): string | null {
  const limited = rateLimited(error);
  if (!limited) return null;
  const seconds = limited.retryAfter;
  if (seconds === null) return "Too many checks: try again shortly.";
  return seconds < 120
    ? `Too many checks: try again in ${Math.ceil(seconds)} s.`
    : `Too many checks: try again in ${Math.ceil(seconds / 60)} min.`;
}

/**
 * Why the check failed, in the server's words (`brokerRefusal`: the problem's detail, else its
 * first error's message, which on a 409 says whether the account is not connected or Alpaca
 * refused its keys), with a fallback for each status that came without one; a 429 says when to
 * try again.
 */
export function checkFailureText(error: unknown): string {
  const retry = checkRetryText(error);
  if (retry) return retry;
  const status = error instanceof ApiError ? error.status : 0;
  const fallback =
    status === 503
      ? "Alpaca cannot answer now. Try again in a few minutes."
      : status === 409
        ? "The account is not connected to Alpaca, or Alpaca refused its keys."
        : status === 403
          ? "Checking against Alpaca needs the Premium plan."
          : "Failed to reach the server. Please try again.";
  return brokerRefusal(error, fallback);
}

/** Whether the check was refused for the plan (403): the way to Premium goes with the reason. */
export function refusedForPlan(error: unknown): boolean {
  return error instanceof ApiError && error.status === 403;
}

/** What the check did with Alpaca's fees: each is taken from the account's cash once. */
export function feesNote(booked: number): string {
  const taken = "Alpaca's fees are taken from this account's cash once each";
  if (booked <= 0) return `${taken}.`;
  return `${taken}: this check took ${formatCount(booked)} new ${booked === 1 ? "fee" : "fees"}.`;
}
