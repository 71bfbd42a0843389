import { z } from "zod";
import { WEBHOOK_EVENT_TYPES } from "@/lib/api/enums";
import type { WebhookDelivery, WebhookEndpoint, WebhookEventType } from "@/lib/api/models";
import { formatDateTime } from "@/lib/dates";

/** The most endpoints a user may hold (the server answers 409 beyond it). */
export const MAX_WEBHOOKS = 10;

/** How each event type reads in the app. */
export const EVENT_TYPE_LABELS: Record<WebhookEventType, string> = {
  new_signal: "New signal",
  price_alert: "Price alert",
  signal_closed: "Signal closed",
  position_closed: "Position closed",
};

export const DEFAULT_EVENT_TYPE: WebhookEventType = "new_signal";

/**
 * The Add endpoint form. The URL must read as an http(s) address; whether it is allowed
 * (https, a public address that resolves) is the server's call, and its reason goes under
 * the field.
 */
export const webhookFormSchema = z.object({
  url: z
    .string()
    .trim()
    .min(1, "Enter the URL to send events to")
    .max(2048, "The URL must be at most 2,048 characters")
    .refine((value) => /^https?:\/\//i.test(value) && URL.canParse(value), "Enter a full URL, such as https://example.com/strikeline"),
  eventType: z.enum(WEBHOOK_EVENT_TYPES),
});

export type WebhookFormValues = z.infer<typeof webhookFormSchema>;

export const EMPTY_WEBHOOK_FORM: WebhookFormValues = { url: "", eventType: DEFAULT_EVENT_TYPE };

/** The fields the server's 422 may name. */
export const WEBHOOK_FIELDS = ["url", "eventType"] as const;

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
