import { afterEach, describe, expect, it, vi } from "vitest";
import type { Endpoint } from "./openapi";
import { buildTryRequest, canTry, initialBody, limitsOf, prettyBody, sendTry } from "./try-it";

afterEach(() => vi.unstubAllGlobals());

function endpoint(overrides: Partial<Endpoint> = {}): Endpoint {
  return {
    id: "GET /api/v1/signals",
    method: "GET",
    path: "/api/v1/signals",
    tag: "public-api",
    summary: "Signals",
    description: "",
    auth: "apiKey",
    parameters: [
      { name: "symbol", in: "query", type: "string", required: false, description: "" },
      { name: "limit", in: "query", type: "integer", required: false, description: "" },
    ],
    requestBody: null,
    responses: [],
    ...overrides,
  };
}

const generate = endpoint({
  id: "POST /api/v1/signals/generate",
  method: "POST",
  path: "/api/v1/signals/generate",
  parameters: [],
  requestBody: { contentType: "application/json", fields: [], type: "PublicGenerateRequest", example: { symbol: "AAPL" } },
});

describe("try it", () => {
  it("is offered for the public API's key-authenticated operations only", () => {
    expect(canTry(endpoint())).toBe(true);
    expect(canTry(endpoint({ path: "/api/signals", auth: "session" }))).toBe(false);
    expect(canTry(endpoint({ path: "/api/plans", auth: "none" }))).toBe(false);
  });

  it("sends the key as a bearer token, the filled query parameters, and no cookie", () => {
    const request = buildTryRequest(endpoint(), { params: { symbol: " AAPL ", limit: "" }, body: "" }, "  slk_abc  ");
    expect(request).toEqual({
      url: "/api/v1/signals?symbol=AAPL",
      init: {
        method: "GET",
        headers: { Authorization: "Bearer slk_abc", Accept: "application/json" },
        body: undefined,
        credentials: "omit",
        cache: "no-store",
      },
    });
  });

  it("fills path parameters and sends the JSON body compactly", () => {
    const withPath = endpoint({
      path: "/api/v1/things/{id}",
      parameters: [{ name: "id", in: "path", type: "string", required: true, description: "" }],
    });
    expect(buildTryRequest(withPath, { params: {}, body: "" }, "slk_a")).toEqual({ error: "Enter id." });
    expect(buildTryRequest(withPath, { params: { id: "a b" }, body: "" }, "slk_a")).toMatchObject({ url: "/api/v1/things/a%20b" });

    expect(initialBody(generate)).toBe('{\n  "symbol": "AAPL"\n}');
    const post = buildTryRequest(generate, { params: {}, body: initialBody(generate) }, "slk_a");
    expect(post).toMatchObject({ url: "/api/v1/signals/generate", init: { method: "POST", body: '{"symbol":"AAPL"}' } });
    expect("init" in post && post.init.headers).toMatchObject({ "Content-Type": "application/json" });
  });

  it("says what is missing instead of sending", () => {
    expect(buildTryRequest(endpoint(), { params: {}, body: "" }, " ")).toEqual({ error: "Paste an API key to send the request." });
    expect(buildTryRequest(generate, { params: {}, body: "{nope" }, "slk_a")).toEqual({ error: "The request body is not valid JSON." });
  });

  it("reads the rate-limit headers and pretty-prints JSON", () => {
    const headers = new Headers({
      RateLimit: '"hour";r=999;t=3600',
      "RateLimit-Policy": '"hour";q=1000;w=3600',
      "Content-Type": "application/json",
    });
    expect(limitsOf(headers)).toEqual([
      ["RateLimit-Policy", '"hour";q=1000;w=3600'],
      ["RateLimit", '"hour";r=999;t=3600'],
    ]);
    expect(prettyBody('{"a":1}')).toBe('{\n  "a": 1\n}');
    expect(prettyBody("plain text")).toBe("plain text");
    expect(prettyBody("")).toBe("");
  });

  it("sends and reads the whole answer", async () => {
    const fetchMock = vi.fn(() =>
      Promise.resolve(
        new Response('{"type":"about:blank","title":"Unauthorized","status":401}', {
          status: 401,
          statusText: "Unauthorized",
          headers: { "Content-Type": "application/problem+json", "Retry-After": "5" },
        }),
      ),
    );
    vi.stubGlobal("fetch", fetchMock);
    let t = 100;
    const result = await sendTry({ url: "/api/v1/stats", init: { method: "GET" } }, () => (t += 12));
    expect(fetchMock).toHaveBeenCalledWith("/api/v1/stats", { method: "GET" });
    expect(result).toEqual({
      status: 401,
      statusText: "Unauthorized",
      limits: [["Retry-After", "5"]],
      body: '{\n  "type": "about:blank",\n  "title": "Unauthorized",\n  "status": 401\n}',
      contentType: "application/problem+json",
      ms: 12,
    });
  });
});
