/** The automation API as the issue-4 contract gives it (hand-written until the OpenAPI document lists it). */

/** When each scheduled job runs next (instants). */
export type NextSchedules = {
  signalUpdates: string;
  newSignals: string;
  portfolioStats: string;
  endOfDay: string;
  preMarket: string;
  weekend: string;
};

/** GET /api/automation/status; also the answer of start, stop and update. */
export type AutomationStatus = {
  isRunning: boolean;
  marketOpen: boolean;
  lastRunAt: string | null;
  nextSchedules: NextSchedules;
};
