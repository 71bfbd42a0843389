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
    elapsed < HOUR ? [Math.floor(elapsed / MINUTE), "minute"] : elapsed < DAY ? [Math.floor(elapsed / HOUR), "hour"] : [Math.floor(elapsed / DAY), "day"];
  return `${amount} ${unit}${amount === 1 ? "" : "s"} ago`;
}
