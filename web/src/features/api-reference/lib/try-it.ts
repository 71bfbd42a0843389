import type { Endpoint } from "./openapi";

/**
 * "Try it" for the public API (`/api/v1`, bearer API key): builds the request from what the
 * user typed and reads what came back. The browser's session cookie is not sent, so the
 * answer is what a program holding the key gets.
 */

export type TryValues = {
  /** Path and query parameters by name; empty text leaves a query parameter out. */
  params: Record<string, string>;
  /** The JSON body, for operations that take one. */
  body: string;
};

export type TryRequest = { url: string; init: RequestInit };

export type TryResult = {
  status: number;
  statusText: string;
  /** The rate-limit headers the answer carried, in a fixed order. */
  limits: [string, string][];
  /** The body, pretty-printed when it is JSON. */
  body: string;
  contentType: string;
  ms: number;
};

/** Whether the explorer offers "Try it" for the endpoint: the public API, authenticated by a key. */
export function canTry(endpoint: Pick<Endpoint, "path" | "auth">): boolean {
  return endpoint.auth === "apiKey" && endpoint.path.startsWith("/api/v1/");
}

/** The example body the form starts with: the documented example, pretty-printed. */
export function initialBody(endpoint: Pick<Endpoint, "requestBody">): string {
  const example = endpoint.requestBody?.example;
  return example === undefined ? "" : JSON.stringify(example, null, 2);
}

/** The request to send, or the reason it cannot be sent. */
export function buildTryRequest(endpoint: Endpoint, values: TryValues, apiKey: string): TryRequest | { error: string } {
  const key = apiKey.trim();
  if (!key) return { error: "Paste an API key to send the request." };
  let path = endpoint.path;
  for (const p of endpoint.parameters.filter((p) => p.in === "path")) {
    const value = values.params[p.name]?.trim() ?? "";
    if (!value) return { error: `Enter ${p.name}.` };
    path = path.replace(`{${p.name}}`, encodeURIComponent(value));
  }
  const query = new URLSearchParams();
  for (const p of endpoint.parameters.filter((p) => p.in === "query")) {
    const value = values.params[p.name]?.trim() ?? "";
    if (value) query.set(p.name, value);
    else if (p.required) return { error: `Enter ${p.name}.` };
  }
  const headers: Record<string, string> = { Authorization: `Bearer ${key}`, Accept: "application/json" };
  let body: string | undefined;
  if (endpoint.requestBody) {
    const text = values.body.trim();
    if (text) {
      try {
        body = JSON.stringify(JSON.parse(text));
      } catch {
        return { error: "The request body is not valid JSON." };
      }
      headers["Content-Type"] = endpoint.requestBody.contentType || "application/json";
    }
  }
  const search = query.toString();
  return {
    url: `${path}${search ? `?${search}` : ""}`,
    init: { method: endpoint.method, headers, body, credentials: "omit", cache: "no-store" },
  };
}

/** The rate-limit headers an answer reports (IETF RateLimit-Policy and RateLimit, Retry-After). */
export const LIMIT_HEADERS = ["RateLimit-Policy", "RateLimit", "Retry-After"] as const;

export function limitsOf(headers: Headers): [string, string][] {
  return LIMIT_HEADERS.flatMap((name) => {
    const value = headers.get(name);
    return value === null ? [] : [[name, value] as [string, string]];
  });
}

/** Pretty-prints JSON; any other text is returned as it came. */
export function prettyBody(text: string): string {
  if (!text) return "";
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

/** Sends the request and reads the whole answer. Rejects only when nothing came back (network). */
export async function sendTry(request: TryRequest, now: () => number = () => performance.now()): Promise<TryResult> {
  const started = now();
  const res = await fetch(request.url, request.init);
  const text = await res.text();
  return {
    status: res.status,
    statusText: res.statusText,
    limits: limitsOf(res.headers),
    body: prettyBody(text),
    contentType: res.headers.get("Content-Type") ?? "",
    ms: Math.round(now() - started),
  };
}
