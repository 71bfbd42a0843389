import type { FieldError, Problem } from "./types";

/**
 * A non-OK answer from the server. `message` is "{status}: {body text or
 * status text}" (product spec, section 8); `problem` is the parsed RFC 9457
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
 * Sends a request with the session cookie. A JSON content type is sent only
 * when there is a body.
 */
export async function apiRequest(method: string, url: string, data?: unknown): Promise<Response> {
  const res = await fetch(url, {
    method,
    headers: data !== undefined ? { "Content-Type": "application/json" } : {},
    body: data !== undefined ? JSON.stringify(data) : undefined,
    credentials: "same-origin",
  });
  await throwIfResNotOk(res);
  return res;
}

/** Sends a request and parses the JSON answer. */
export async function apiJson<T>(method: string, url: string, data?: unknown): Promise<T> {
  const res = await apiRequest(method, url, data);
  return (await res.json()) as T;
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
    if (on401 === "returnNull" && res.status === 401) return null;
    await throwIfResNotOk(res);
    return (await res.json()) as T;
  };
}
