// @vitest-environment node
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { curlExample, defaultEndpoint, exampleFor, isPublicApi, parseOpenApi, splitEndpoints, successResponse, typeLabel } from "./openapi";

/** A small document with what the public API will have: parameters, refs, security, nesting. */
const DOC = {
  openapi: "3.1.0",
  info: { title: "Test API", version: "1.2.0", description: "For tests." },
  tags: [
    { name: "signals", description: "Trading signals" },
    { name: "public", description: "Public" },
  ],
  paths: {
    "/api/plans": {
      get: {
        tags: ["public"],
        summary: "The plans.",
        responses: { "200": { description: "", content: { "application/json": { schema: { $ref: "#/components/schemas/Catalogue" } } } } },
      },
    },
    "/api/v1/signals/{id}": {
      parameters: [{ name: "id", in: "path", required: true, schema: { type: "integer", format: "int64" }, description: "Signal id" }],
      get: {
        tags: ["signals"],
        summary: "One signal.\nWith its reasoning.",
        security: [{ bearer: [] }],
        responses: {
          "200": { description: "The signal", content: { "application/json": { schema: { $ref: "#/components/schemas/Signal" } } } },
          "404": { $ref: "#/components/responses/NotFound" },
        },
      },
    },
    "/api/v1/signals": {
      get: {
        tags: ["signals"],
        summary: "List signals.",
        security: [{ bearer: [] }],
        parameters: [
          { name: "symbol", in: "query", schema: { type: "string" } },
          { name: "limit", in: "query", required: true, schema: { type: "integer", default: 50 }, description: "Page size" },
        ],
        responses: {
          "200": {
            description: "Signals",
            content: { "application/json": { schema: { type: "array", items: { $ref: "#/components/schemas/Signal" } } } },
          },
        },
      },
      post: {
        tags: ["signals"],
        summary: "Create a signal.",
        security: [{ bearer: [] }],
        requestBody: {
          content: {
            "application/json": {
              schema: {
                type: "object",
                required: ["symbol", "signalType"],
                properties: {
                  symbol: { type: "string", example: "MSFT" },
                  signalType: { $ref: "#/components/schemas/SignalType" },
                  note: { type: ["string", "null"] },
                },
              },
            },
          },
        },
        responses: {
          "201": { description: "Created", content: { "application/json": { schema: { $ref: "#/components/schemas/Signal" } } } },
        },
      },
    },
  },
  components: {
    schemas: {
      SignalType: { type: "string", enum: ["CALL", "PUT", "STRADDLE"] },
      Signal: {
        type: "object",
        required: ["id", "symbol", "signalType"],
        properties: {
          id: { type: "integer", format: "int64" },
          symbol: { type: "string", description: "Ticker" },
          signalType: { $ref: "#/components/schemas/SignalType" },
          createdAt: { type: "string", format: "date-time" },
          owner: { $ref: "#/components/schemas/Owner" },
        },
      },
      Owner: { type: "object", properties: { email: { type: "string" }, parent: { $ref: "#/components/schemas/Owner" } } },
      Catalogue: {
        type: "object",
        properties: { plans: { type: "array", items: { type: "object", properties: { id: { type: "string" } } } } },
      },
    },
    responses: { NotFound: { description: "No such signal", content: { "application/problem+json": { schema: { type: "object" } } } } },
  },
};

describe("parseOpenApi", () => {
  const api = parseOpenApi(DOC);

  it("lists endpoints by declared tag order with their summaries", () => {
    expect(api.title).toBe("Test API");
    expect(api.endpoints.map((e) => e.id)).toEqual([
      "GET /api/v1/signals",
      "POST /api/v1/signals",
      "GET /api/v1/signals/{id}",
      "GET /api/plans",
    ]);
    expect(api.tags.map((t) => t.name)).toEqual(["signals", "public"]);
    const one = api.endpoints.find((e) => e.id === "GET /api/v1/signals/{id}")!;
    expect(one.summary).toBe("One signal.");
    expect(one.description).toBe("With its reasoning.");
    expect(one.auth).toBe("apiKey");
  });

  it("selects the signals list by default, else the first endpoint", () => {
    expect(defaultEndpoint(api.endpoints)?.id).toBe("GET /api/v1/signals");
    expect(defaultEndpoint(api.endpoints.filter((e) => !e.path.endsWith("/signals")))?.id).toBe("GET /api/v1/signals/{id}");
    expect(defaultEndpoint(api.endpoints.filter((e) => e.path === "/api/plans"))?.id).toBe("GET /api/plans");
    expect(defaultEndpoint([])).toBeUndefined();
  });

  it("opens on the public API, never on the web app's own signals list listed before it", () => {
    const internal = { ...api.endpoints[0], id: "GET /api/signals", path: "/api/signals", auth: "session" as const };
    const endpoints = [internal, ...api.endpoints];
    expect(defaultEndpoint(endpoints)?.id).toBe("GET /api/v1/signals");
    const { publicApi, internal: rest } = splitEndpoints(endpoints);
    expect(publicApi.map((e) => e.id)).toEqual(["GET /api/v1/signals", "POST /api/v1/signals", "GET /api/v1/signals/{id}"]);
    expect(rest.map((e) => e.id)).toEqual(["GET /api/signals", "GET /api/plans"]);
    expect(isPublicApi({ path: "/api/v1/stats" })).toBe(true);
    expect(isPublicApi({ path: "/api/v1" })).toBe(false);
    expect(isPublicApi({ path: "/api/public/stats" })).toBe(false);
  });

  it("reads parameters, including path-level ones", () => {
    const one = api.endpoints.find((e) => e.id === "GET /api/v1/signals/{id}")!;
    expect(one.parameters).toEqual([{ name: "id", in: "path", type: "integer (int64)", required: true, description: "Signal id" }]);
    const list = api.endpoints.find((e) => e.id === "GET /api/v1/signals")!;
    expect(list.parameters.map((p) => [p.name, p.required])).toEqual([
      ["symbol", false],
      ["limit", true],
    ]);
  });

  it("flattens response and request fields, following refs without looping", () => {
    const one = api.endpoints.find((e) => e.id === "GET /api/v1/signals/{id}")!;
    const fields = successResponse(one)!.body!.fields;
    expect(fields.map((f) => f.name)).toEqual(
      expect.arrayContaining(["id", "symbol", "signalType", "owner", "owner.email", "owner.parent"]),
    );
    expect(fields.find((f) => f.name === "signalType")).toMatchObject({ type: "enum: CALL | PUT | STRADDLE", required: true });
    expect(fields.find((f) => f.name === "symbol")?.description).toBe("Ticker");
    expect(one.responses.map((r) => [r.status, r.description])).toEqual([
      ["200", "The signal"],
      ["404", "No such signal"],
    ]);

    const list = api.endpoints.find((e) => e.id === "GET /api/v1/signals")!;
    expect(successResponse(list)!.body!.type).toBe("array of Signal");
    expect(successResponse(list)!.body!.fields.map((f) => f.name)).toContain("createdAt");

    const create = api.endpoints.find((e) => e.id === "POST /api/v1/signals")!;
    expect(create.requestBody?.fields.map((f) => [f.name, f.type, f.required])).toEqual([
      ["symbol", "string", true],
      ["signalType", "enum: CALL | PUT | STRADDLE", true],
      ["note", "string | null", false],
    ]);
  });

  it("builds example values from examples, enums, formats and names", () => {
    const create = api.endpoints.find((e) => e.id === "POST /api/v1/signals")!;
    expect(create.requestBody?.example).toEqual({ symbol: "MSFT", signalType: "CALL", note: "note" });
    const list = api.endpoints.find((e) => e.id === "GET /api/v1/signals")!;
    expect(successResponse(list)!.body!.example).toEqual([
      { id: 0, symbol: "symbol", signalType: "CALL", createdAt: "2025-01-28T14:30:00Z", owner: { email: "ada@example.com", parent: {} } },
    ]);
    expect(exampleFor(DOC, { type: "boolean" })).toBe(true);
    expect(typeLabel(DOC, { oneOf: [{ type: "string" }, { type: "integer" }] })).toBe("string | integer");
  });

  it("writes a curl command with the key, path and required query values, and the JSON body", () => {
    const byId = (id: string) => api.endpoints.find((e) => e.id === id)!;
    expect(curlExample(byId("GET /api/plans"), "https://app.example")).toBe("curl 'https://app.example/api/plans'");
    expect(curlExample(byId("GET /api/v1/signals/{id}"), "https://app.example")).toBe(
      `curl 'https://app.example/api/v1/signals/1' \\\n  -H "Authorization: Bearer $STRIKELINE_API_KEY"`,
    );
    expect(curlExample(byId("GET /api/v1/signals"), "")).toContain("'/api/v1/signals?limit=1'");
    expect(curlExample(byId("POST /api/v1/signals"), "")).toBe(
      `curl -X POST '/api/v1/signals' \\\n  -H "Authorization: Bearer $STRIKELINE_API_KEY" \\\n  -H 'Content-Type: application/json' \\\n  -d '{"symbol":"MSFT","signalType":"CALL","note":"note"}'`,
    );
  });

  it("rejects what is not an OpenAPI document", () => {
    expect(() => parseOpenApi({ hello: "world" })).toThrow("Not an OpenAPI document");
    expect(() => parseOpenApi(null)).toThrow();
  });

  it("reads the server's own document", () => {
    const path = fileURLToPath(new URL("../../../../../docs/openapi.json", import.meta.url));
    const real = parseOpenApi(JSON.parse(readFileSync(path, "utf8")));
    expect(real.endpoints.length).toBeGreaterThan(5);
    const contact = real.endpoints.find((e) => e.id === "POST /api/contact");
    expect(contact?.requestBody?.fields.map((f) => f.name)).toEqual(expect.arrayContaining(["name", "email", "message", "source"]));
    expect(contact?.requestBody?.example).toMatchObject({ email: "ada@example.com", source: "landing" });
    expect(real.endpoints.find((e) => e.id === "GET /api/admin/messages")?.auth).toBe("admin");
    expect(real.endpoints.find((e) => e.id === "GET /api/auth/me")?.auth).toBe("session");
    expect(real.endpoints.find((e) => e.id === "GET /api/plans")?.auth).toBe("none");
  });
});
