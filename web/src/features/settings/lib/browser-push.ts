import type { NewPushSubscription } from "@/lib/api/models";

/**
 * This browser's side of Web Push: the service worker (`/sw.js`) and the push manager's
 * subscription. The server encrypts each message to the subscription's keys and signs with
 * its VAPID key (`applicationServerKey`), so a subscription made with another key is replaced.
 */

/** What this browser can do about push notifications. */
export type PushAvailability = "unsupported" | "blocked" | "available";

export function pushAvailability(): PushAvailability {
  if (typeof window === "undefined" || !("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window)) {
    return "unsupported";
  }
  return Notification.permission === "denied" ? "blocked" : "available";
}

/** Thrown when the user (or the browser) refuses the permission to notify. */
export class PushPermissionError extends Error {
  constructor() {
    super("Notifications are blocked for this site. Allow them in your browser's site settings, then try again.");
    this.name = "PushPermissionError";
  }
}

/** base64url (with or without padding) → bytes. */
export function base64UrlToBytes(text: string): Uint8Array<ArrayBuffer> {
  const base64 = text.replace(/-/g, "+").replace(/_/g, "/").replace(/=+$/, "");
  const binary = atob(base64 + "=".repeat((4 - (base64.length % 4)) % 4));
  const bytes = new Uint8Array(new ArrayBuffer(binary.length));
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

function sameKey(subscription: PushSubscription, publicKey: string): boolean {
  const key = subscription.options.applicationServerKey;
  if (!key) return false;
  const ours = base64UrlToBytes(publicKey);
  const theirs = new Uint8Array(key);
  return theirs.length === ours.length && theirs.every((b, i) => b === ours[i]);
}

/** This browser's subscription, if it has one (without asking for anything). */
export async function currentSubscription(): Promise<PushSubscription | null> {
  if (pushAvailability() === "unsupported") return null;
  const registration = await navigator.serviceWorker.getRegistration("/");
  return registration ? registration.pushManager.getSubscription() : null;
}

/**
 * Asks for the permission, registers the service worker and subscribes with the server's key
 * (replacing a subscription made with another): what to send to POST /api/push/subscriptions.
 */
export async function subscribeThisBrowser(publicKey: string): Promise<NewPushSubscription> {
  const permission = await Notification.requestPermission();
  if (permission !== "granted") throw new PushPermissionError();
  const registration = await navigator.serviceWorker.register("/sw.js", { scope: "/" });
  await navigator.serviceWorker.ready;
  const existing = await registration.pushManager.getSubscription();
  if (existing && !sameKey(existing, publicKey)) await existing.unsubscribe();
  const subscription =
    existing && sameKey(existing, publicKey)
      ? existing
      : await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: base64UrlToBytes(publicKey) });
  const json = subscription.toJSON();
  return {
    endpoint: subscription.endpoint,
    expirationTime: json.expirationTime ?? null,
    keys: { p256dh: json.keys?.p256dh ?? "", auth: json.keys?.auth ?? "" },
  };
}

/** Ends this browser's subscription; its endpoint, or null when it had none. */
export async function unsubscribeThisBrowser(): Promise<string | null> {
  const subscription = await currentSubscription();
  if (!subscription) return null;
  await subscription.unsubscribe();
  return subscription.endpoint;
}

/** What the push card asks of the browser (tests hand it a stand-in). */
export type BrowserPush = {
  availability: () => PushAvailability;
  /** This browser's subscription endpoint, or null. */
  currentEndpoint: () => Promise<string | null>;
  subscribe: (publicKey: string) => Promise<NewPushSubscription>;
  unsubscribe: () => Promise<string | null>;
};

/** The real browser. */
export const browserPush: BrowserPush = {
  availability: pushAvailability,
  currentEndpoint: async () => (await currentSubscription())?.endpoint ?? null,
  subscribe: subscribeThisBrowser,
  unsubscribe: unsubscribeThisBrowser,
};
