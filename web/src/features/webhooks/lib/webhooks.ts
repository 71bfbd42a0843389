import { z } from "zod";
import { WEBHOOK_EVENT_TYPES } from "@/lib/api/enums";
import type { CreateWebhookRequest, TradingAccounts, WebhookDelivery, WebhookEndpoint, WebhookEventType } from "@/lib/api/models";
import { formatDateTime } from "@/lib/dates";

/** The most endpoints a user may hold (the server answers 409 beyond it). */
export const MAX_WEBHOOKS = 10;

/** How each event type reads in the app. */
export const EVENT_TYPE_LABELS: Record<WebhookEventType, string> = {
  new_signal: "New signal",
  price_alert: "Price alert",
  signal_closed: "Signal closed",
  position_closed: "Position closed",
  order_filled: "Order filled",
  order_rejected: "Order refused",
};

export const DEFAULT_EVENT_TYPE: WebhookEventType = "new_signal";

/** The Account choice that sends no `accountId`: positions and orders of every account. */
export const ALL_ACCOUNTS = "";

/**
 * The Add endpoint form. The URL must read as an http(s) address; whether it is allowed
 * (https, a public address that resolves) is the server's call, and its reason goes under
 * the field. `accountId` is one of the user's accounts or `ALL_ACCOUNTS`.
 */
export const webhookFormSchema = z.object({
  url: z
    .string()
    .trim()
    .min(1, "Enter the URL to send events to")
    .max(2048, "The URL must be at most 2,048 characters")
    .refine((value) => /^https?:\/\//i.test(value) && URL.canParse(value), "Enter a full URL, such as https://example.com/strikeline"),
  eventType: z.enum(WEBHOOK_EVENT_TYPES),
  accountId: z.string(),
});

export type WebhookFormValues = z.infer<typeof webhookFormSchema>;

export const EMPTY_WEBHOOK_FORM: WebhookFormValues = { url: "", eventType: DEFAULT_EVENT_TYPE, accountId: ALL_ACCOUNTS };

/** The fields the server's 422 may name. */
export const WEBHOOK_FIELDS = ["url", "eventType", "accountId"] as const;

/**
 * The request for the form's values: `accountId` only when one of the user's accounts is
 * chosen (one that has since left the list counts as all accounts).
 */
export function webhookRequest(values: WebhookFormValues, list: TradingAccounts | undefined): CreateWebhookRequest {
  const { url, eventType, accountId } = values;
  const scoped = accountId !== ALL_ACCOUNTS && list?.accounts?.some((a) => a.id === accountId);
  return scoped ? { url, eventType, accountId } : { url, eventType };
}

/**
 * Which account's positions an endpoint hears about, as its row says it: a scoped endpoint's
 * account by name, an unscoped one "All accounts". Undefined while the accounts are not known,
 * and for an unscoped endpoint of a user who holds one account (there is nothing to tell
 * apart). A scoped endpoint's account is always one of the user's: deleting an account deletes
 * the endpoints scoped to it.
 */
export function endpointScope(endpoint: Pick<WebhookEndpoint, "accountId">, list: TradingAccounts | undefined): string | undefined {
  const accounts = list?.accounts;
  if (!accounts) return undefined;
  if (endpoint.accountId) return accounts.find((a) => a.id === endpoint.accountId)?.name;
  return accounts.length > 1 ? "All accounts" : undefined;
}

const day = new Intl.DateTimeFormat("en-US", { year: "numeric", month: "short", day: "numeric" });

/** An instant as a day in the reader's time zone: "Nov 23, 2026". */
export function formatDay(instant: string): string {
  const date = new Date(instant);
  return Number.isNaN(date.getTime()) ? instant : day.format(date);
}

const attemptDay = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric" });
const attemptClock = new Intl.DateTimeFormat("en-US", { hour: "numeric", minute: "2-digit", second: "2-digit" });

/** The day of a delivery attempt in the reader's time zone: "Nov 23". */
export function formatAttemptDay(instant: string): string {
  const date = new Date(instant);
  return Number.isNaN(date.getTime()) ? instant : attemptDay.format(date);
}

/** The time of a delivery attempt, to the second: "2:35:07 PM" (empty when unreadable: the day shows the text). */
export function formatAttemptClock(instant: string): string {
  const date = new Date(instant);
  return Number.isNaN(date.getTime()) ? "" : attemptClock.format(date);
}

export type EndpointStatus = { tone: "active" | "failing" | "off"; label: string };

/** Active; Failing since … (deliveries fail, retries go on); Switched off on … (after a day of failures). */
export function endpointStatus(endpoint: Pick<WebhookEndpoint, "isActive" | "failingSince" | "disabledAt">): EndpointStatus {
  if (!endpoint.isActive) {
    return { tone: "off", label: endpoint.disabledAt ? `Switched off on ${formatDay(endpoint.disabledAt)}` : "Switched off" };
  }
  if (endpoint.failingSince) return { tone: "failing", label: `Failing since ${formatDateTime(endpoint.failingSince)}` };
  return { tone: "active", label: "Active" };
}

/** "HTTP 200 in 42 ms", or "No answer after 5,000 ms" when none came. */
export function deliveryOutcome(delivery: Pick<WebhookDelivery, "statusCode" | "latencyMs">): string {
  const latency = `${delivery.latencyMs.toLocaleString("en-US")} ms`;
  return delivery.statusCode === null || delivery.statusCode === undefined
    ? `No answer after ${latency}`
    : `HTTP ${delivery.statusCode} in ${latency}`;
}

export { offersAccountChoice } from "@/lib/api/trading-accounts";
