import type { ApiKey, KeyLifetime, KeyPermission } from "@/lib/api/models";

/** The permission levels' names: Read Only, Read & Write, Full Access. */
export const PERMISSION_LABELS: Record<KeyPermission, string> = {
  read: "Read Only",
  write: "Read & Write",
  admin: "Full Access",
};

/**
 * What each permission lets a key do: read for GET, write for creating too, admin for everything
 * (docs/decisions.md#16-public-api-and-webhooks).
 */
export const PERMISSION_DESCRIPTIONS: Record<KeyPermission, string> = {
  read: "GET requests: signals, stats and stock prices (portfolio metrics on Pro and Premium).",
  write: "Also creates signals and generates them on demand (Pro and Premium).",
  admin: "Everything a key can do.",
};

export const LIFETIME_LABELS: Record<KeyLifetime, string> = {
  "30": "30 days",
  "90": "90 days",
  "365": "365 days",
  never: "Never",
};

/** A new key's permission defaults to read, its expiration to never. */
export const DEFAULT_PERMISSION: KeyPermission = "read";
export const DEFAULT_LIFETIME: KeyLifetime = "never";

/** How many characters stand for the hidden rest of a key after its prefix. */
export const MASK = "•".repeat(12);

/**
 * The name a key is created with: trimmed; null when nothing is left (the dialog then toasts
 * 'Please enter a name for your API key').
 */
export function keyName(text: string): string | null {
  const name = text.trim();
  return name ? name : null;
}

/** Whether the key can no longer be used: the server says so, or `expiresAt` has passed. */
export function isExpired(key: Pick<ApiKey, "expired" | "expiresAt">, now: number): boolean {
  if (key.expired) return true;
  if (!key.expiresAt) return false;
  const end = Date.parse(key.expiresAt);
  return !Number.isNaN(end) && end <= now;
}

/** The server refuses a 21st key (409). */
export const MAX_API_KEYS = 20;
