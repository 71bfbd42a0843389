import type { ChangePreview } from "../api/get-change-preview";

/**
 * For the billing feature's tests: GET /api/billing/change/preview for a Premium-yearly account
 * moving to Pro monthly half-way through its year (nothing to pay, the unused half-year kept
 * as credit, which also pays the next month).
 */
export function makeChangePreview(overrides: Partial<ChangePreview> = {}): ChangePreview {
  return {
    plan: "pro",
    billing: "monthly",
    owedFirstCents: 0,
    proratedCents: 0,
    creditAppliedCents: 0,
    chargedTodayCents: 0,
    creditAfterCents: 66600,
    periodStart: "2026-12-27T12:00:00Z",
    periodEnd: "2027-01-27T12:00:00Z",
    nextChargeCents: 0,
    priceCents: 4900,
    provider: "test",
    ...overrides,
  };
}
