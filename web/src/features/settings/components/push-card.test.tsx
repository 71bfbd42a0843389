import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { PushDevices, PushSubscriptionView, UserSettings } from "@/lib/api/models";
import { makeUserSettings } from "@/test/settings-fixtures";
import { jsonResponse, mockFetch, renderWithProviders } from "@/test/utils";
import { base64UrlToBytes, type BrowserPush } from "../lib/browser-push";
import { PushCard } from "./push-card";

const KEY = "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4";
const ENDPOINT = "https://fcm.googleapis.com/fcm/send/abc";

function device(overrides: Partial<PushSubscriptionView> = {}): PushSubscriptionView {
  return {
    id: "0b7c4a1e-5f0e-4c55-9b8e-2f1d1f4a9c01",
    label: "Chrome on macOS",
    service: "fcm.googleapis.com",
    endpoint: ENDPOINT,
    createdAt: "2026-11-20T15:00:00Z",
    lastDeliveredAt: null,
    ...overrides,
  };
}

/** A server keeping the browsers and the settings, and what the app sent it. */
function pushServer(initial: PushSubscriptionView[] = [], settings: UserSettings = makeUserSettings()) {
  let devices = initial;
  let stored = settings;
  const sent: { method: string; url: string; body: unknown }[] = [];
  const fetchMock = mockFetch((url, init) => {
    const method = init.method ?? "GET";
    const body = init.body ? JSON.parse(String(init.body)) : undefined;
    if (method !== "GET") sent.push({ method, url, body });
    if (url === "/api/push/subscriptions" && method === "GET") {
      return jsonResponse({ publicKey: KEY, subscriptions: devices, maxSubscriptions: 10 } satisfies PushDevices);
    }
    if (url === "/api/push/subscriptions" && method === "POST") {
      const created = device({ endpoint: (body as { endpoint: string }).endpoint, label: "Firefox on Linux" });
      devices = [created, ...devices];
      return jsonResponse(created, 201);
    }
    if (url.startsWith("/api/push/subscriptions/") && method === "DELETE") {
      devices = devices.filter((d) => !url.endsWith(d.id));
      return new Response(null, { status: 204 });
    }
    if (url === "/api/user/preferences" && method === "GET") return jsonResponse(stored);
    if (url === "/api/user/preferences" && method === "PUT") {
      stored = { ...stored, ...(body as Partial<UserSettings>) };
      return jsonResponse(stored);
    }
    return jsonResponse({});
  });
  return { fetchMock, sent };
}

/** A browser that supports push and has no subscription, unless told otherwise. */
function fakeBrowser(overrides: Partial<BrowserPush> = {}): BrowserPush {
  return {
    availability: () => "available",
    currentEndpoint: () => Promise.resolve(null),
    subscribe: vi.fn(),
    unsubscribe: vi.fn(() => Promise.resolve(null)),
    ...overrides,
  };
}

afterEach(() => vi.unstubAllGlobals());

describe("PushCard", () => {
  it("turns push on for this browser with the server's key and saves the subscription", async () => {
    const server = pushServer();
    const subscribe = vi.fn(() =>
      Promise.resolve({
        endpoint: "https://updates.push.services.mozilla.com/wpush/v2/xyz",
        expirationTime: null,
        keys: { p256dh: KEY, auth: "BTBZMqHH6r4Tts7J_aSIgg" },
      }),
    );
    renderWithProviders(<PushCard available browser={fakeBrowser({ subscribe })} />);
    expect(await screen.findByText("No browser gets push notifications yet.")).toBeInTheDocument();
    await userEvent.click(await screen.findByRole("button", { name: "Turn on for this browser" }));

    expect(subscribe).toHaveBeenCalledWith(KEY);
    await waitFor(() =>
      expect(server.sent).toContainEqual({
        method: "POST",
        url: "/api/push/subscriptions",
        body: {
          endpoint: "https://updates.push.services.mozilla.com/wpush/v2/xyz",
          expirationTime: null,
          keys: { p256dh: KEY, auth: "BTBZMqHH6r4Tts7J_aSIgg" },
        },
      }),
    );
    const list = await screen.findByRole("list", { name: "Browsers with push notifications" });
    expect(within(list).getByText("Firefox on Linux")).toBeInTheDocument();
    expect(within(screen.getByTestId("push-this-browser")).getByText("On")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Turn off for this browser" })).toBeInTheDocument();
  });

  it("saves the kinds pushed as a whole set when one is switched", async () => {
    const server = pushServer([device()]);
    renderWithProviders(<PushCard available browser={fakeBrowser()} />);
    const billing = await screen.findByRole("switch", { name: "Billing" });
    expect(billing).toBeChecked();
    expect(screen.getByRole("switch", { name: "Orders (fills, refusals, cancellations)" })).toBeChecked();
    await userEvent.click(billing);
    await waitFor(() =>
      expect(server.sent).toContainEqual({
        method: "PUT",
        url: "/api/user/preferences",
        body: { pushEvents: ["new_signals", "position_closed", "price_alert", "webhook", "order"] },
      }),
    );
    await waitFor(() => expect(screen.getByRole("switch", { name: "Billing" })).not.toBeChecked());
  });

  it("removes another browser from the list", async () => {
    const server = pushServer([
      device(),
      device({ id: "5d1c2a43-7a6b-4c2e-9d8f-0a1b2c3d4e5f", label: "Safari on iOS", endpoint: "https://web.push.apple.com/x" }),
    ]);
    renderWithProviders(<PushCard available browser={fakeBrowser()} />);
    await userEvent.click(await screen.findByRole("button", { name: "Remove Safari on iOS" }));
    await waitFor(() =>
      expect(server.sent).toContainEqual({
        method: "DELETE",
        url: "/api/push/subscriptions/5d1c2a43-7a6b-4c2e-9d8f-0a1b2c3d4e5f",
        body: undefined,
      }),
    );
    await waitFor(() => expect(screen.queryByText("Safari on iOS")).not.toBeInTheDocument());
  });

  it("says when this browser cannot show notifications", async () => {
    pushServer();
    renderWithProviders(<PushCard available browser={fakeBrowser({ availability: () => "blocked" })} />);
    expect(await screen.findByText(/Notifications are blocked for this site/)).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Turn on for this browser" })).not.toBeInTheDocument();
  });

  it("is locked on a plan without push, and still lets a downgraded account remove its browsers", async () => {
    pushServer([device()]);
    renderWithProviders(<PushCard available={false} browser={fakeBrowser()} />);
    expect(await screen.findByTestId("push-locked")).toHaveTextContent("Upgrade to Pro");
    expect(await screen.findByRole("button", { name: "Remove Chrome on macOS" })).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Turn on for this browser" })).not.toBeInTheDocument();
    expect(screen.queryByRole("switch", { name: "Billing" })).not.toBeInTheDocument();
  });
});

describe("base64UrlToBytes", () => {
  it("reads the server's key as the 65 bytes of an uncompressed point", () => {
    const bytes = base64UrlToBytes(KEY);
    expect(bytes.length).toBe(65);
    expect(bytes[0]).toBe(4);
    expect(Array.from(base64UrlToBytes("AQID"))).toEqual([1, 2, 3]);
  });
});
