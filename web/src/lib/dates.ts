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

const monthDay = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", timeZone: "UTC" });

/** "2026-12-18" → "Dec 18", for chart axes within one year (a calendar date, not a moment). */
export function formatMonthDay(isoDate: string): string {
  const date = new Date(`${isoDate.slice(0, 10)}T00:00:00Z`);
  return Number.isNaN(date.getTime()) ? isoDate : monthDay.format(date);
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

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** "Just now", "5 minutes ago", "3 hours ago", "2 days ago"; a future or unreadable time reads as given. */
export function timeAgo(instant: string, now: number): string {
  const at = Date.parse(instant);
  if (Number.isNaN(at)) return instant;
  const elapsed = Math.max(0, now - at);
  if (elapsed < MINUTE) return "Just now";
  const [amount, unit] =
    elapsed < HOUR
      ? [Math.floor(elapsed / MINUTE), "minute"]
      : elapsed < DAY
        ? [Math.floor(elapsed / HOUR), "hour"]
        : [Math.floor(elapsed / DAY), "day"];
  return `${amount} ${unit}${amount === 1 ? "" : "s"} ago`;
}
