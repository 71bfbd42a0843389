/**
 * Where to go after signing up or in when a page sent the visitor there (`/register?next=…`):
 * a path on this site only (it starts with one "/"), never another origin; else `fallback`.
 */
export function safeNextPath(next: string | null | undefined, fallback = "/dashboard"): string {
  if (!next || !next.startsWith("/") || next.startsWith("//") || next.startsWith("/\\")) return fallback;
  try {
    const url = new URL(next, "https://strikeline.invalid");
    if (url.origin !== "https://strikeline.invalid") return fallback;
    return `${url.pathname}${url.search}${url.hash}`;
  } catch {
    return fallback;
  }
}

/** `path` with `?next=` (e.g. `/register?next=%2Fsubscribe%3Fplan%3Dpro`). */
export function withNext(path: string, next: string): string {
  return `${path}?${new URLSearchParams({ next }).toString()}`;
}
