import createClient from "openapi-fetch";
import type { FieldError, Problem } from "./models";
import type { paths } from "./schema";

/**
 * A non-OK answer from the server. `message` is "{status}: {body text or
 * status text}"; `problem` is the parsed RFC 9457
 * body when the server sent JSON.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly problem: Problem | null;
  readonly headers: Headers | null;

  constructor(status: number, message: string, problem: Problem | null = null, headers: Headers | null = null) {
    super(message);
    this.name = "ApiError";
    this.status = status;
    this.problem = problem;
    this.headers = headers;
  }

  /** Field errors listed by the server (validation or uniqueness). */
  get fieldErrors(): FieldError[] {
    return this.problem?.errors ?? [];
  }
}

/** A 429's wait: the seconds its Retry-After asks for (`null` when it names none); `null` for any other error. */
export function rateLimited(error: unknown): { retryAfter: number | null } | null {
  if (!(error instanceof ApiError) || error.status !== 429) return null;
  const seconds = Number(error.headers?.get("Retry-After"));
  return { retryAfter: Number.isFinite(seconds) && seconds > 0 ? seconds : null };
}

function parseProblem(text: string): Problem | null {
  if (!text) return null;
  try {
    const value: unknown = JSON.parse(text);
    if (value && typeof value === "object" && "status" in value && "title" in value) {
      return value as Problem;
    }
  } catch {
    // Not JSON: the message keeps the raw text.
  }
  return null;
}

/** Throws an ApiError for any non-OK response. */
export async function throwIfResNotOk(res: Response): Promise<void> {
  if (res.ok) return;
  const text = await res.text().catch(() => "");
  const body = text || res.statusText;
  throw new ApiError(res.status, `${res.status}: ${body}`, parseProblem(text), res.headers);
}

/**
 * Sends a request with the session cookie. A content type (JSON unless `contentType` says
 * otherwise) is sent only when there is a body. Throws an ApiError for any non-OK answer.
 */
async function send(
  method: string,
  url: string,
  body: string | Blob | undefined,
  signal?: AbortSignal,
  contentType = "application/json",
): Promise<Response> {
  const res = await fetch(url, {
    method,
    headers: body !== undefined ? { "Content-Type": contentType } : {},
    body,
    credentials: "same-origin",
    // A typed call given `signal` (a query's, so a stale request is aborted) passes it on.
    ...(signal ? { signal } : {}),
  });
  await throwIfResNotOk(res);
  return res;
}

/** Sends `data` (when given) as JSON; see `send`. For calls outside the OpenAPI document. */
export async function apiRequest(method: string, url: string, data?: unknown): Promise<Response> {
  return send(method, url, data !== undefined ? JSON.stringify(data) : undefined);
}

/** Sends a request and parses the JSON answer. For calls outside the OpenAPI document. */
export async function apiJson<T>(method: string, url: string, data?: unknown): Promise<T> {
  const res = await apiRequest(method, url, data);
  return (await res.json()) as T;
}

/**
 * What openapi-fetch builds before it calls `fetch`: the URL (relative, as the app calls it)
 * and the serialized body. openapi-fetch would otherwise build a real `Request`, which needs
 * an absolute URL outside a browser and sends its own headers; with this, every typed call
 * goes through `send` exactly as `apiRequest` does.
 */
class PendingRequest {
  readonly url: string;
  readonly method: string;
  readonly payload: string | undefined;
  readonly signal: AbortSignal | undefined;

  constructor(url: string, init: RequestInit = {}) {
    this.url = url;
    this.method = init.method ?? "GET";
    this.payload = typeof init.body === "string" ? init.body : undefined;
    this.signal = init.signal ?? undefined;
  }
}

/** Query parameters as URLSearchParams writes them, leaving out absent and empty values. */
function querySerializer(query: Record<string, unknown>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== "") params.set(key, String(value));
  }
  return params.toString();
}

/**
 * The typed client: each call's path, parameters, body and answer are checked against the
 * server's OpenAPI document (schema.d.ts). A non-OK answer throws an ApiError, as
 * `apiRequest` does, so `data` is the success answer; read it with `dataOf`.
 */
export const api = createClient<paths>({
  Request: PendingRequest as unknown as typeof Request,
  fetch: (request) => {
    const { method, url, payload, signal } = request as unknown as PendingRequest;
    return send(method, url, payload, signal);
  },
  querySerializer,
});

/** The paths whose PUT takes a PNG as its body (`Content-Type: image/png`), as the schema says. */
export type PngUploadPath = {
  [P in keyof paths]: paths[P] extends { put: { requestBody: { content: { "image/png": unknown } } } } ? P : never;
}[keyof paths];

/**
 * PUTs `image` (the file's bytes as they are) to a path of the schema that takes a PNG, with
 * the session cookie; throws an ApiError for any non-OK answer, as every typed call does.
 */
export async function putPng(path: PngUploadPath, image: Blob): Promise<void> {
  const res = await send("PUT", path, image, undefined, "image/png");
  // Read the (empty) answer: an unread body keeps the request open.
  await res.text().catch(() => "");
}

/** The success answer of a typed call (`dataOf(api.GET("/api/stats"))`). */
export async function dataOf<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await call;
  // `send` throws for every non-OK answer, so openapi-fetch never reports an error itself.
  if (error !== undefined) throw new ApiError(response.status, `${response.status}: ${response.statusText}`);
  return data as T;
}

/**
 * The message a toast shows for a failed call: the server's problem detail
 * (or title), never the raw body; `fallback` for anything else.
 */
export function errorMessage(error: unknown, fallback: string): string {
  if (error instanceof ApiError && error.problem) {
    return error.problem.detail || error.problem.title || fallback;
  }
  return fallback;
}

export type UnauthorizedBehavior = "returnNull" | "throw";

/**
 * The default query function: GET the path made by joining the query key's
 * segments with "/", and parse JSON. With `on401: "returnNull"` a 401 answer
 * resolves to null instead of throwing.
 */
export function getQueryFn<T>({ on401 }: { on401: UnauthorizedBehavior }) {
  return async ({ queryKey }: { queryKey: readonly unknown[] }): Promise<T | null> => {
    const res = await fetch(queryKey.join("/"), { credentials: "same-origin" });
    if (on401 === "returnNull" && res.status === 401) {
      // Read the body all the same: an unread (streamed) body keeps the request open.
      await res.text().catch(() => "");
      return null;
    }
    await throwIfResNotOk(res);
    return (await res.json()) as T;
  };
}
