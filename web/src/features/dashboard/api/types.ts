/** The dashboard stats API as the issue-4 contract gives it (hand-written until the OpenAPI document lists it). */

/**
 * A change figure and what it compares with; `value` is null when there is no earlier
 * snapshot (shown "—"). `unit` is not in the contract yet: the server sends "percent"
 * (relative change) or "points" (difference of two percentages); percent when absent.
 */
export type StatChange = { value: number | null; label: string; unit?: "percent" | "points" };

/** GET /api/stats; also the answer of POST /api/update-stats. */
export type DashboardStats = {
  activeSignals: number;
  /** Percent of closed signals that hit target or expired with profit; null with none closed. */
  winRate: number | null;
  avgConfidence: number | null;
  portfolioValue: number;
  lastUpdated: string;
  changes: {
    activeSignals: StatChange;
    winRate: StatChange;
    avgConfidence: StatChange;
    portfolioValue: StatChange;
  };
};
