import type { OrderLegView, OrderView } from "@/lib/api/models";
import { jsonResponse, mockFetch } from "./utils";

let seq = 0;
const uuid = (n: number) => `00000000-0000-4000-b000-${String(n).padStart(12, "0")}`;

/** One leg of an order: by default one AAPL $190 call expiring Dec 18, 2026, bought. */
export function makeOrderLeg(overrides: Partial<OrderLegView> = {}): OrderLegView {
  return { right: "call", side: "buy", ratio: 1, strike: 190, expiration: "2026-12-18", ...overrides };
}

/**
 * An order as GET /api/orders lists it: by default the automation's market day order for 2
 * AAPL $190 calls (Dec 18, 2026), filled by the paper broker at $3.03 a share (a $3.00 mark
 * plus 1% slippage) with $1.30 of commission ($0.65 a contract).
 */
export function makeOrder(overrides: Partial<OrderView> = {}): OrderView {
  seq += 1;
  const signalId = `20000000-0000-4000-8000-${String(seq).padStart(12, "0")}`;
  return {
    id: uuid(seq),
    broker: "paper",
    clientOrderId: `signal-${signalId}`,
    signalId,
    underlying: "AAPL",
    legs: [makeOrderLeg()],
    quantity: 2,
    filledUnits: 2,
    orderType: "market",
    limitPrice: null,
    timeInForce: "day",
    status: "filled",
    reason: null,
    fills: [{ units: 2, netPrice: 3.03, commission: 1.3, cashOut: 607.3, filledAt: "2026-11-23T14:30:01Z" }],
    placedOn: "2026-11-23",
    createdAt: "2026-11-23T14:30:00Z",
    updatedAt: "2026-11-23T14:30:01Z",
    expiresAt: "2026-11-23T15:00:00Z",
    ...overrides,
  };
}

/** An order the broker has accepted and not filled yet: it stands, and can be cancelled. */
export function makeStandingOrder(overrides: Partial<OrderView> = {}): OrderView {
  return makeOrder({ status: "accepted", filledUnits: 0, fills: [], updatedAt: "2026-11-23T14:30:00Z", ...overrides });
}

/** The message the server answers a cancel of an order no longer standing with (409). */
export const NOT_STANDING = "The order is no longer standing: it filled, was cancelled or was rejected.";

type Handler = (url: string, init: RequestInit) => Response | Promise<Response> | undefined;

/**
 * The current account's orders as the server keeps them: GET /api/orders, and POST
 * /api/orders/{id}/cancel, which cancels a standing order (keeping what filled) with the reason
 * "Cancelled by you.", and answers 404 for an id not listed and 409 for an order no longer
 * standing. `extra` answers first; anything else is a 404 problem.
 */
export function ordersServer(initial: OrderView[], extra: Handler = () => undefined) {
  let orders = initial;
  const problem = (status: number, title: string, detail: string) => jsonResponse({ type: "about:blank", title, status, detail }, status);
  const fetchMock = mockFetch((url, init) => {
    const answer = extra(url, init);
    if (answer) return answer;
    const method = init.method ?? "GET";
    if (url === "/api/orders" && method === "GET") return jsonResponse(orders);
    const cancel = url.match(/^\/api\/orders\/([^/]+)\/cancel$/);
    if (cancel && method === "POST") {
      const order = orders.find((o) => o.id === cancel[1]);
      if (!order) return problem(404, "Not Found", "No such order in your current account.");
      if (!["new", "accepted", "partially_filled"].includes(order.status)) return problem(409, "Conflict", NOT_STANDING);
      const cancelled: OrderView = { ...order, status: "cancelled", reason: "Cancelled by you.", updatedAt: "2026-11-23T14:35:00Z" };
      orders = orders.map((o) => (o.id === order.id ? cancelled : o));
      return jsonResponse(cancelled);
    }
    return problem(404, "Not Found", "The requested resource does not exist.");
  });
  return {
    fetchMock,
    orders: () => orders,
    set: (next: OrderView[]) => {
      orders = next;
    },
  };
}
