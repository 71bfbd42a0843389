import { afterEach, describe, expect, it, vi } from "vitest";
import { ApiError, api, apiRequest, dataOf, errorMessage, getQueryFn, putPng } from "./client";

function stubFetch(response: Response) {
  const mock = vi.fn((_input: RequestInfo | URL, _init?: RequestInit) => Promise.resolve(response));
  vi.stubGlobal("fetch", mock);
  return mock;
}

afterEach(() => vi.unstubAllGlobals());

describe("ApiError", () => {
  it("has the message '{status}: {body text}' and keeps the parsed problem", async () => {
    const body = { type: "about:blank", title: "Unauthorized", status: 401, detail: "Invalid email or password" };
    stubFetch(new Response(JSON.stringify(body), { status: 401, headers: { "Content-Type": "application/problem+json" } }));

    const error = await apiRequest("POST", "/api/auth/login", { email: "a@b.co", password: "secret1" }).catch((e) => e);

    expect(error).toBeInstanceOf(ApiError);
    expect(error.message).toBe(`401: ${JSON.stringify(body)}`);
    expect(error.status).toBe(401);
    expect(error.problem).toEqual(body);
  });

  it("falls back to the status text when the body is empty", async () => {
    stubFetch(new Response(null, { status: 503, statusText: "Service Unavailable" }));
    const error = await apiRequest("GET", "/api/stats").catch((e) => e);
    expect(error.message).toBe("503: Service Unavailable");
    expect(error.problem).toBeNull();
  });

  it("keeps a plain-text body in the message without a problem", async () => {
    stubFetch(new Response("upstream timed out", { status: 502 }));
    const error = await apiRequest("GET", "/api/stats").catch((e) => e);
    expect(error.message).toBe("502: upstream timed out");
    expect(error.problem).toBeNull();
  });

  it("exposes the server's field errors", () => {
    const error = new ApiError(409, "409: {}", {
      type: "about:blank",
      title: "Conflict",
      status: 409,
      errors: [{ field: "email", message: "Email is already registered" }],
    });
    expect(error.fieldErrors).toEqual([{ field: "email", message: "Email is already registered" }]);
  });
});

describe("errorMessage", () => {
  it("prefers the problem detail, then its title, then the fallback", () => {
    const withDetail = new ApiError(429, "429: ...", {
      type: "x",
      title: "Too Many Requests",
      status: 429,
      detail: "Try again in 60 seconds",
    });
    const titleOnly = new ApiError(500, "500: ...", { type: "x", title: "Internal Server Error", status: 500 });
    expect(errorMessage(withDetail, "fallback")).toBe("Try again in 60 seconds");
    expect(errorMessage(titleOnly, "fallback")).toBe("Internal Server Error");
    expect(errorMessage(new ApiError(500, "500: oops"), "fallback")).toBe("fallback");
    expect(errorMessage(new TypeError("Failed to fetch"), "fallback")).toBe("fallback");
  });
});

describe("apiRequest", () => {
  it("sends JSON with a content type and the session cookie when there is a body", async () => {
    const mock = stubFetch(new Response("{}", { status: 200 }));
    await apiRequest("POST", "/api/auth/login", { email: "a@b.co" });
    const init = mock.mock.calls[0][1];
    expect(init).toMatchObject({ method: "POST", credentials: "same-origin", body: '{"email":"a@b.co"}' });
    expect(init?.headers).toEqual({ "Content-Type": "application/json" });
  });

  it("sends no content type without a body", async () => {
    const mock = stubFetch(new Response(null, { status: 204 }));
    await apiRequest("POST", "/api/auth/logout");
    const init = mock.mock.calls[0][1];
    expect(init?.headers).toEqual({});
    expect(init?.body).toBeUndefined();
  });
});

describe("getQueryFn", () => {
  it("GETs the key segments joined with '/'", async () => {
    const mock = stubFetch(new Response('{"ok":true}', { status: 200 }));
    const result = await getQueryFn({ on401: "throw" })({ queryKey: ["/api/portfolio/position", "42"] });
    expect(mock.mock.calls[0][0]).toBe("/api/portfolio/position/42");
    expect(mock.mock.calls[0][1]).toMatchObject({ credentials: "same-origin" });
    expect(result).toEqual({ ok: true });
  });

  it("returns null on 401 when asked to, and throws otherwise", async () => {
    const unauthorized = new Response('{"status":401,"title":"Unauthorized"}', { status: 401, statusText: "Unauthorized" });
    stubFetch(unauthorized);
    await expect(getQueryFn({ on401: "returnNull" })({ queryKey: ["/api/auth/me"] })).resolves.toBeNull();
    // The body is read, so the request ends (an unread streamed body keeps it open).
    expect(unauthorized.bodyUsed).toBe(true);
    stubFetch(new Response("", { status: 401, statusText: "Unauthorized" }));
    await expect(getQueryFn({ on401: "throw" })({ queryKey: ["/api/auth/me"] })).rejects.toThrow("401: Unauthorized");
  });
});

describe("the typed client", () => {
  it("throws the same ApiError as apiRequest for a non-OK answer", async () => {
    const body = {
      type: "about:blank",
      title: "Unprocessable Entity",
      status: 422,
      errors: [{ field: "symbol", message: "Unknown symbol" }],
    };
    stubFetch(new Response(JSON.stringify(body), { status: 422, headers: { "Content-Type": "application/problem+json" } }));
    const error = await dataOf(api.POST("/api/signals/generate-for-symbol", { body: { symbol: "ZZZZ" } })).catch((e) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error.message).toBe(`422: ${JSON.stringify(body)}`);
    expect(error.problem).toEqual(body);
    expect(error.fieldErrors).toEqual([{ field: "symbol", message: "Unknown symbol" }]);

    stubFetch(new Response(null, { status: 503, statusText: "Service Unavailable" }));
    await expect(dataOf(api.GET("/api/stats"))).rejects.toThrow("503: Service Unavailable");
  });

  it("sends JSON with a content type and the session cookie when there is a body", async () => {
    const mock = stubFetch(new Response('{"id":"1","received":true}', { status: 201 }));
    const receipt = await dataOf(api.POST("/api/contact", { body: { name: "Ada", email: "a@b.co", message: "Hi", source: "landing" } }));
    expect(receipt).toEqual({ id: "1", received: true });
    const [url, init] = mock.mock.calls[0];
    expect(url).toBe("/api/contact");
    expect(init).toMatchObject({ method: "POST", credentials: "same-origin" });
    expect(init?.headers).toEqual({ "Content-Type": "application/json" });
    expect(JSON.parse(String(init?.body))).toEqual({ name: "Ada", email: "a@b.co", message: "Hi", source: "landing" });
  });

  it("sends no content type without a body, and resolves a 204 to undefined", async () => {
    const mock = stubFetch(new Response(null, { status: 204 }));
    const { data } = await api.POST("/api/auth/logout");
    expect(data).toBeUndefined();
    const [url, init] = mock.mock.calls[0];
    expect(url).toBe("/api/auth/logout");
    expect(init).toMatchObject({ method: "POST", credentials: "same-origin" });
    expect(init?.headers).toEqual({});
    expect(init?.body).toBeUndefined();
  });

  it("fills path parameters encoded and writes the query, leaving out absent values", async () => {
    const mock = stubFetch(new Response("[]", { status: 200 }));
    await dataOf(api.GET("/api/stock-prices/{symbol}/history", { params: { path: { symbol: "BRK/B" }, query: { days: 30 } } }));
    expect(mock.mock.calls[0][0]).toBe("/api/stock-prices/BRK%2FB/history?days=30");

    const again = stubFetch(new Response("[]", { status: 200 }));
    await dataOf(api.GET("/api/signals", { params: { query: { strategy: "Mean Reversion", symbol: undefined, status: "" } } }));
    expect(again.mock.calls[0][0]).toBe("/api/signals?strategy=Mean+Reversion");
  });

  it("PUTs a PNG as it is, with its media type and the session cookie (putPng)", async () => {
    const mock = stubFetch(new Response(null, { status: 204 }));
    const png = new Blob([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], { type: "image/png" });
    await putPng("/api/reports/brand/logo", png);
    const [url, init] = mock.mock.calls[0];
    expect(url).toBe("/api/reports/brand/logo");
    expect(init).toMatchObject({ method: "PUT", credentials: "same-origin" });
    expect(init?.headers).toEqual({ "Content-Type": "image/png" });
    expect(init?.body).toBe(png);

    const refused = { type: "about:blank", title: "Unprocessable Entity", status: 422, errors: [{ field: "logo", message: "Not a PNG" }] };
    stubFetch(new Response(JSON.stringify(refused), { status: 422, headers: { "Content-Type": "application/problem+json" } }));
    const error = await putPng("/api/reports/brand/logo", png).catch((e) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error.fieldErrors).toEqual([{ field: "logo", message: "Not a PNG" }]);
  });

  it("reads a file answer as a blob with its headers (parseAs: blob)", async () => {
    stubFetch(
      new Response("%PDF-1.7", {
        headers: { "Content-Type": "application/pdf", "Content-Disposition": 'attachment; filename="portfolio-report-2026-11-28.pdf"' },
      }),
    );
    const { data, response } = await api.GET("/api/portfolio/report", { parseAs: "blob" });
    expect(await data?.text()).toBe("%PDF-1.7");
    expect(response.headers.get("Content-Disposition")).toBe('attachment; filename="portfolio-report-2026-11-28.pdf"');
  });
});
