const long = new Intl.DateTimeFormat("en-US", { year: "numeric", month: "long", day: "numeric", timeZone: "UTC" });

/** "2026-10-21" → "October 21, 2026" (the date is read as a calendar date, not a moment). */
export function formatLongDate(isoDate: string): string {
  return long.format(new Date(`${isoDate}T00:00:00Z`));
}

const short = new Intl.DateTimeFormat("en-US", { year: "numeric", month: "short", day: "numeric", timeZone: "UTC" });

/** "2026-12-18" → "Dec 18, 2026" (a calendar date, not a moment). */
export function formatShortDate(isoDate: string): string {
  const date = new Date(`${isoDate}T00:00:00Z`);
  return Number.isNaN(date.getTime()) ? isoDate : short.format(date);
}

const dateTime = new Intl.DateTimeFormat("en-US", {
  month: "short",
  day: "numeric",
  year: "numeric",
  hour: "numeric",
  minute: "2-digit",
});

/** An instant in the reader's time zone: "Nov 23, 2026, 2:35 PM". */
export function formatDateTime(instant: string): string {
  const date = new Date(instant);
  return Number.isNaN(date.getTime()) ? instant : dateTime.format(date);
}

const weekdayTime = new Intl.DateTimeFormat("en-US", { weekday: "short", hour: "numeric", minute: "2-digit" });

/** An instant of the coming week in the reader's time zone: "Mon 2:35 PM". */
export function formatScheduleTime(instant: string): string {
  const date = new Date(instant);
  return Number.isNaN(date.getTime()) ? instant : weekdayTime.format(date).replace(",", "");
}
