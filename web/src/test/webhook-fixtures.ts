import type { WebhookDelivery, WebhookEndpoint } from "@/lib/api/models";

let seq = 0;
const uuid = (n: number) => `00000000-0000-4000-a000-${String(n).padStart(12, "0")}`;

/** One endpoint of GET /api/webhooks (active, new signals, added Nov 20, 2026). */
export function makeWebhook(overrides: Partial<WebhookEndpoint> = {}): WebhookEndpoint {
  seq += 1;
  return {
    id: uuid(seq),
    url: `https://hooks.example.com/strikeline/${seq}`,
    eventType: "new_signal",
    isActive: true,
    failingSince: null,
    disabledAt: null,
    pausedForPlan: false,
    createdAt: "2026-11-20T10:00:00Z",
    ...overrides,
  };
}

/** One attempt of GET /api/webhooks/{id}/deliveries (delivered, HTTP 200 in 42 ms). */
export function makeDelivery(overrides: Partial<WebhookDelivery> = {}): WebhookDelivery {
  seq += 1;
  return {
    messageId: `msg_${String(seq).padStart(32, "0")}`,
    attemptedAt: "2026-11-23T14:30:05Z",
    statusCode: 200,
    latencyMs: 42,
    succeeded: true,
    error: null,
    ...overrides,
  };
}
