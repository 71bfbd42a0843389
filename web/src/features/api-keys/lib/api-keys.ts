import type { ApiKey, KeyLifetime, KeyPermission, TradingAccounts } from "@/lib/api/models";

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

/** The Account choice that sends no `accountId`: the key acts on the current account and follows a switch. */
export const CURRENT_ACCOUNT = "";

/**
 * The `accountId` a key is created with: the chosen account while it is one of the user's,
 * else none (the current account).
 */
export function keyAccountId(chosen: string, list: TradingAccounts | undefined): string | undefined {
  return chosen !== CURRENT_ACCOUNT && list?.accounts?.some((a) => a.id === chosen) ? chosen : undefined;
}

/**
 * Which account a key acts on, as its row says it: a scoped key's account by name, an unscoped
 * key "Current account". Undefined while the accounts are not known, and for an unscoped key
 * of a user who holds one account (there is nothing to tell apart). A scoped key's account is
 * always one of the user's: deleting an account deletes the keys scoped to it.
 */
export function keyScope(key: Pick<ApiKey, "accountId">, list: TradingAccounts | undefined): string | undefined {
  const accounts = list?.accounts;
  if (!accounts) return undefined;
  if (key.accountId) return accounts.find((a) => a.id === key.accountId)?.name;
  return accounts.length > 1 ? "Current account" : undefined;
}

export { offersAccountChoice } from "@/lib/api/trading-accounts";
