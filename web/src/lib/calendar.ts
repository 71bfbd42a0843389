/**
 * Calendar dates as `YYYY-MM-DD` text (the API's date format). They are days, not moments:
 * "today" is the reader's local date, and the arithmetic runs in UTC so no time zone or
 * daylight-saving change can move a date.
 */

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

/** The local calendar date of `date` ("2026-11-23"). */
export function toIsoDate(date: Date): string {
  return `${pad(date.getFullYear(), 4)}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** Today in the reader's time zone. */
export function todayIso(now: Date = new Date()): string {
  return toIsoDate(now);
}

/** The date as a UTC midnight, or null when `iso` is not a real `YYYY-MM-DD` date. */
export function parseIsoDate(iso: string): Date | null {
  const match = ISO_DATE.exec(iso);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  // 2026-02-30 rolls over to March: not a real date.
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  return date;
}

/** Whether `iso` is a real `YYYY-MM-DD` date. */
export function isIsoDate(iso: string): boolean {
  return parseIsoDate(iso) !== null;
}

function fromUtc(date: Date): string {
  return `${pad(date.getUTCFullYear(), 4)}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}`;
}

function mustParse(iso: string): Date {
  const date = parseIsoDate(iso);
  if (!date) throw new RangeError(`not a YYYY-MM-DD date: ${iso}`);
  return date;
}

export function addDays(iso: string, days: number): string {
  const date = mustParse(iso);
  date.setUTCDate(date.getUTCDate() + days);
  return fromUtc(date);
}

/** The same day `months` later, kept within the month (Jan 31 + 1 month → Feb 28). */
export function addMonths(iso: string, months: number): string {
  const date = mustParse(iso);
  const day = date.getUTCDate();
  const target = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + months, 1));
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(day, lastDay));
  return fromUtc(target);
}

/** The first day of the date's month. */
export function startOfMonth(iso: string): string {
  return `${iso.slice(0, 7)}-01`;
}

/** 0 for Sunday … 6 for Saturday. */
export function dayOfWeek(iso: string): number {
  return mustParse(iso).getUTCDay();
}

/**
 * The weeks of the month that holds `iso`, Sunday first: each week has 7 entries, the
 * month's dates or null for the days of the months before and after.
 */
export function monthWeeks(iso: string): (string | null)[][] {
  const first = startOfMonth(iso);
  const start = mustParse(first);
  const daysInMonth = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 0)).getUTCDate();
  const cells: (string | null)[] = Array.from({ length: start.getUTCDay() }, () => null);
  for (let d = 1; d <= daysInMonth; d++) cells.push(`${first.slice(0, 8)}${pad(d)}`);
  while (cells.length % 7 !== 0) cells.push(null);
  const weeks: (string | null)[][] = [];
  for (let i = 0; i < cells.length; i += 7) weeks.push(cells.slice(i, i + 7));
  return weeks;
}

/** `iso` kept within [min, max] (either may be absent). Dates compare as text. */
export function clampDate(iso: string, min?: string, max?: string): string {
  if (min && iso < min) return min;
  if (max && iso > max) return max;
  return iso;
}

const monthYear = new Intl.DateTimeFormat("en-US", { month: "long", year: "numeric", timeZone: "UTC" });
const fullDate = new Intl.DateTimeFormat("en-US", { weekday: "long", month: "long", day: "numeric", year: "numeric", timeZone: "UTC" });

/** "November 2026" */
export function formatMonthYear(iso: string): string {
  return monthYear.format(mustParse(iso));
}

/** "Monday, November 23, 2026" (a day button's accessible name). */
export function formatFullDate(iso: string): string {
  return fullDate.format(mustParse(iso));
}
