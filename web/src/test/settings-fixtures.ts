import type { ApiKey, AuditEntry, ExchangeRates, SessionView, UserSettings } from "@/lib/api/models";

/** Settings as GET /api/user/preferences answers them for a new account. */
export function makeUserSettings(overrides: Partial<UserSettings> = {}): UserSettings {
  return {
    theme: "system",
    currency: "USD",
    emailNotifications: true,
    signalAlerts: true,
    portfolioSummary: true,
    autoUpdateSignals: true,
    highRiskAlerts: false,
    riskTolerance: "medium",
    pushEvents: ["new_signals", "position_closed", "price_alert", "billing", "webhook", "order"],
    ...overrides,
  };
}

/** GET /api/exchange-rates. */
export function makeExchangeRates(overrides: Partial<ExchangeRates> = {}): ExchangeRates {
  return {
    base: "USD",
    rates: [
      { currency: "USD", perUsd: 1 },
      { currency: "EUR", perUsd: 0.9 },
      { currency: "GBP", perUsd: 0.8 },
    ],
    asOf: "2026-11-23T14:30:00Z",
    provider: "simulated",
    ...overrides,
  };
}

let seq = 0;
const uuid = (n: number) => `00000000-0000-4000-9000-${String(n).padStart(12, "0")}`;

/** One key of GET /api/api-keys. */
export function makeApiKey(overrides: Partial<ApiKey> = {}): ApiKey {
  seq += 1;
  return {
    id: uuid(seq),
    name: "Trading bot",
    keyPrefix: "slk_AbCdEfGh",
    permissions: "read",
    isActive: true,
    expired: false,
    lastUsed: null,
    expiresAt: null,
    createdAt: "2026-11-20T10:00:00Z",
    updatedAt: "2026-11-20T10:00:00Z",
    ...overrides,
  };
}

export const CHROME_MAC =
  "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
export const FIREFOX_WINDOWS = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0";

/** One session of GET /api/user/sessions. */
export function makeSession(overrides: Partial<SessionView> = {}): SessionView {
  seq += 1;
  return {
    id: `session-${seq}`,
    current: false,
    createdAt: "2026-11-20T10:00:00Z",
    lastSeenAt: new Date(Date.now() - 5 * 60_000).toISOString(),
    expiresAt: "2026-12-20T10:00:00Z",
    ip: "203.0.113.7",
    userAgent: FIREFOX_WINDOWS,
    ...overrides,
  };
}

/** One entry of GET /api/user/audit. */
export function makeAuditEntry(overrides: Partial<AuditEntry> = {}): AuditEntry {
  seq += 1;
  return {
    id: uuid(seq),
    action: "sign_in",
    at: "2026-11-23T14:30:00Z",
    byAdministrator: false,
    detail: null,
    ip: "203.0.113.7",
    userAgent: CHROME_MAC,
    ...overrides,
  };
}
