const long = new Intl.DateTimeFormat("en-US", { year: "numeric", month: "long", day: "numeric", timeZone: "UTC" });

/** "2026-10-21" → "October 21, 2026" (the date is read as a calendar date, not a moment). */
export function formatLongDate(isoDate: string): string {
  return long.format(new Date(`${isoDate}T00:00:00Z`));
}
