/**
 * The number of active signals, shown on the Signals menu badge and the
 * notification bell. This is the one place that count comes from.
 *
 * The signals API (GET /api/signals) is not part of the server yet, so there
 * are no active signals to count and the answer is 0.
 */
export function useActiveSignalCount(): number {
  return 0;
}
