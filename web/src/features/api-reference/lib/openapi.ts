/**
 * Reads the server's OpenAPI 3.1 document (GET /api/openapi.json) into what the API explorer
 * shows: endpoints grouped by tag, their parameters, request body fields, responses, example
 * values and a curl command. Only the parts of OpenAPI the explorer displays are modelled;
 * anything unexpected degrades to "any" rather than failing.
 */

type Obj = Record<string, unknown>;

export type FieldInfo = {
  /** Dotted path from the body's root: `plans[].monthlyPrice`. */
  name: string;
  type: string;
  required: boolean;
  description: string;
};

export type ParameterInfo = {
  name: string;
  in: string;
  type: string;
  required: boolean;
  description: string;
};

export type BodyInfo = {
  contentType: string;
  fields: FieldInfo[];
  /** The schema's type when it is not an object with properties (e.g. "array of string"). */
  type: string;
  example: unknown;
};

export type ResponseInfo = {
  status: string;
  description: string;
  body: BodyInfo | null;
};

export type AuthRequirement = "none" | "session" | "admin" | "apiKey";

export type Endpoint = {
  /** "GET /api/plans": unique, used in the URL (?endpoint=). */
  id: string;
  method: string;
  path: string;
  tag: string;
  summary: string;
  description: string;
  auth: AuthRequirement;
  parameters: ParameterInfo[];
  requestBody: BodyInfo | null;
  responses: ResponseInfo[];
};

export type TagInfo = { name: string; description: string };

export type ApiDocument = {
  title: string;
  version: string;
  description: string;
  tags: TagInfo[];
  endpoints: Endpoint[];
};

const METHODS = ["get", "post", "put", "patch", "delete"] as const;
const MAX_DEPTH = 4;

function isObj(value: unknown): value is Obj {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function str(value: unknown): string {
  return typeof value === "string" ? value : "";
}

/** Follows a local `$ref` ("#/components/schemas/User"); undefined when it leads nowhere. */
export function resolveRef(doc: Obj, ref: string): Obj | undefined {
  if (!ref.startsWith("#/")) return undefined;
  let node: unknown = doc;
  for (const raw of ref.slice(2).split("/")) {
    const key = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (!isObj(node)) return undefined;
    node = node[key];
  }
  return isObj(node) ? node : undefined;
}

/** The schema with `$ref` followed (and `allOf` merged); the ref's name as a type label. */
function deref(doc: Obj, schema: unknown, seen: Set<string> = new Set()): { schema: Obj; name?: string } {
  if (!isObj(schema)) return { schema: {} };
  const ref = str(schema.$ref);
  if (ref) {
    const name = ref.split("/").at(-1);
    if (seen.has(ref)) return { schema: {}, name };
    const target = resolveRef(doc, ref);
    const inner = deref(doc, target, new Set([...seen, ref]));
    return { schema: { ...inner.schema, ...(schema.description ? { description: schema.description } : {}) }, name };
  }
  if (Array.isArray(schema.allOf)) {
    const merged: Obj = { type: "object", properties: {}, required: [] };
    for (const part of schema.allOf) {
      const { schema: s } = deref(doc, part, seen);
      merged.properties = { ...(merged.properties as Obj), ...(isObj(s.properties) ? s.properties : {}) };
      merged.required = [...(merged.required as string[]), ...(Array.isArray(s.required) ? (s.required as string[]) : [])];
      if (s.description && !merged.description) merged.description = s.description;
    }
    return { schema: { ...schema, ...merged, allOf: undefined } };
  }
  return { schema };
}

function types(schema: Obj): string[] {
  if (Array.isArray(schema.type)) return schema.type.filter((t): t is string => typeof t === "string");
  if (typeof schema.type === "string") return [schema.type];
  if (isObj(schema.properties)) return ["object"];
  return [];
}

/** A short human-readable type: "string (date-time)", "integer | null", "array of PlanInfo", "enum: a | b". */
export function typeLabel(doc: Obj, raw: unknown, depth = 0): string {
  const { schema, name } = deref(doc, raw);
  if (Array.isArray(schema.enum)) return `enum: ${schema.enum.map((v) => String(v)).join(" | ")}`;
  const variants = Array.isArray(schema.oneOf) ? schema.oneOf : Array.isArray(schema.anyOf) ? schema.anyOf : null;
  if (variants && depth < MAX_DEPTH) return variants.map((v) => typeLabel(doc, v, depth + 1)).join(" | ");
  const list = types(schema);
  if (list.length === 0) return name ?? "any";
  return list
    .map((t) => {
      if (t === "array") return `array of ${depth < MAX_DEPTH ? typeLabel(doc, schema.items, depth + 1) : "any"}`;
      if (t === "object") return name ?? "object";
      return schema.format ? `${t} (${String(schema.format)})` : t;
    })
    .join(" | ");
}

/** The `$ref` of a schema, or of the items of an array schema. */
function refOf(raw: unknown): string | undefined {
  if (!isObj(raw)) return undefined;
  if (typeof raw.$ref === "string") return raw.$ref;
  if (isObj(raw.items) && typeof raw.items.$ref === "string") return raw.items.$ref;
  return undefined;
}

/** The object behind a schema, if it is one (arrays of objects count, with a `[]` suffix). */
function objectOf(doc: Obj, raw: unknown): { schema: Obj; suffix: string } | null {
  const { schema } = deref(doc, raw);
  const list = types(schema);
  if (list.includes("object") && isObj(schema.properties)) return { schema, suffix: "" };
  if (list.includes("array")) {
    const inner = deref(doc, schema.items).schema;
    if (isObj(inner.properties)) return { schema: inner, suffix: "[]" };
  }
  return null;
}

/** The fields of an object schema, nested objects flattened to dotted names. */
export function fieldsOf(doc: Obj, raw: unknown, prefix = "", depth = 0, seen: ReadonlySet<string> = new Set()): FieldInfo[] {
  const ref = refOf(raw);
  if (ref && seen.has(ref)) return [];
  const path = ref ? new Set([...seen, ref]) : seen;
  const object = objectOf(doc, raw);
  if (!object || depth > MAX_DEPTH) return [];
  const required = new Set(Array.isArray(object.schema.required) ? (object.schema.required as string[]) : []);
  const properties = object.schema.properties as Obj;
  const fields: FieldInfo[] = [];
  for (const [key, value] of Object.entries(properties)) {
    const name = prefix ? `${prefix}${object.suffix}.${key}` : key;
    const { schema } = deref(doc, value);
    fields.push({ name, type: typeLabel(doc, value), required: required.has(key), description: str(schema.description) });
    fields.push(...fieldsOf(doc, value, name, depth + 1, path));
  }
  return fields;
}

const STRING_EXAMPLES: Record<string, string> = {
  "date-time": "2025-01-28T14:30:00Z",
  date: "2025-01-28",
  email: "ada@example.com",
  uuid: "7d0f3f5e-4f7c-4b44-9d1e-2b1c2f2a9a10",
  uri: "https://example.com",
};

/** An example value for a schema: its own example if it has one, else one built from its type. */
export function exampleFor(doc: Obj, raw: unknown, key = "", depth = 0, seen: ReadonlySet<string> = new Set()): unknown {
  const ref = isObj(raw) && typeof raw.$ref === "string" ? raw.$ref : undefined;
  // A schema that contains itself (a tree) is shown one level deep.
  if (ref && seen.has(ref)) return {};
  const path = ref ? new Set([...seen, ref]) : seen;
  const { schema } = deref(doc, raw);
  if (schema.example !== undefined) return schema.example;
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if (schema.default !== undefined) return schema.default;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  const variants = Array.isArray(schema.oneOf) ? schema.oneOf : Array.isArray(schema.anyOf) ? schema.anyOf : null;
  if (variants && variants.length > 0 && depth < MAX_DEPTH) return exampleFor(doc, variants[0], key, depth + 1, path);
  const list = types(schema).filter((t) => t !== "null");
  const type = list[0] ?? (types(schema).includes("null") ? "null" : "object");
  switch (type) {
    case "object": {
      if (depth > MAX_DEPTH || !isObj(schema.properties)) return {};
      return Object.fromEntries(Object.entries(schema.properties).map(([k, v]) => [k, exampleFor(doc, v, k, depth + 1, path)]));
    }
    case "array":
      return depth > MAX_DEPTH ? [] : [exampleFor(doc, schema.items, key, depth + 1, path)];
    case "integer":
    case "number":
      return typeof schema.minimum === "number" && schema.minimum > 0 ? schema.minimum : 0;
    case "boolean":
      return true;
    case "null":
      return null;
    default: {
      const format = str(schema.format);
      if (STRING_EXAMPLES[format]) return STRING_EXAMPLES[format];
      if (/email/i.test(key)) return STRING_EXAMPLES.email;
      if (/password/i.test(key)) return "correct-horse-42";
      return key || "string";
    }
  }
}

function bodyOf(doc: Obj, content: unknown): BodyInfo | null {
  if (!isObj(content)) return null;
  const [contentType] = Object.keys(content);
  if (!contentType) return null;
  const media = content[contentType];
  const schema = isObj(media) ? media.schema : undefined;
  if (!schema) return { contentType, fields: [], type: "", example: undefined };
  const example = isObj(media) && media.example !== undefined ? media.example : exampleFor(doc, schema);
  return { contentType, fields: fieldsOf(doc, schema), type: typeLabel(doc, schema), example };
}

function authOf(operation: Obj, doc: Obj, responses: ResponseInfo[]): AuthRequirement {
  const security = Array.isArray(operation.security) ? operation.security : Array.isArray(doc.security) ? doc.security : null;
  if (security && security.some((req) => isObj(req) && Object.keys(req).length > 0)) return "apiKey";
  if (responses.some((r) => r.status === "403")) return "admin";
  if (responses.some((r) => r.status === "401" && /not signed in/i.test(r.description))) return "session";
  return "none";
}

/** Reads an OpenAPI document. Throws when `value` is not one. */
export function parseOpenApi(value: unknown): ApiDocument {
  if (!isObj(value) || typeof value.openapi !== "string" || !isObj(value.paths)) {
    throw new Error("Not an OpenAPI document");
  }
  const doc = value;
  const info = isObj(doc.info) ? doc.info : {};
  const declaredTags: TagInfo[] = Array.isArray(doc.tags)
    ? doc.tags.filter(isObj).map((t) => ({ name: str(t.name), description: str(t.description) }))
    : [];

  const endpoints: Endpoint[] = [];
  for (const [path, item] of Object.entries(doc.paths as Obj)) {
    if (!isObj(item)) continue;
    const shared = Array.isArray(item.parameters) ? item.parameters : [];
    for (const method of METHODS) {
      const operation = item[method];
      if (!isObj(operation)) continue;
      const parameters = [...shared, ...(Array.isArray(operation.parameters) ? operation.parameters : [])]
        .map((p) => (isObj(p) && typeof p.$ref === "string" ? resolveRef(doc, p.$ref) : p))
        .filter(isObj)
        .map((p) => ({
          name: str(p.name),
          in: str(p.in),
          type: typeLabel(doc, p.schema),
          required: p.required === true || p.in === "path",
          description: str(p.description) || str(deref(doc, p.schema).schema.description),
        }));
      const requestBody = isObj(operation.requestBody) ? bodyOf(doc, operation.requestBody.content) : null;
      const responses = isObj(operation.responses)
        ? Object.entries(operation.responses)
            .filter(([, r]) => isObj(r))
            .map(([status, r]) => {
              const response = (typeof (r as Obj).$ref === "string" ? resolveRef(doc, (r as Obj).$ref as string) : r) as Obj;
              return { status, description: str(response?.description), body: bodyOf(doc, response?.content) };
            })
            .sort((a, b) => a.status.localeCompare(b.status))
        : [];
      const upper = method.toUpperCase();
      const tag = Array.isArray(operation.tags) && typeof operation.tags[0] === "string" ? operation.tags[0] : "other";
      endpoints.push({
        id: `${upper} ${path}`,
        method: upper,
        path,
        tag,
        summary: str(operation.summary).split("\n")[0] || `${upper} ${path}`,
        description: [str(operation.summary).split("\n").slice(1).join(" "), str(operation.description)]
          .filter(Boolean)
          .join("\n\n")
          .replace(/\n(?!\n)/g, " "),
        auth: authOf(operation, doc, responses),
        parameters,
        requestBody,
        responses,
      });
    }
  }

  const tagOrder = (name: string) => {
    const i = declaredTags.findIndex((t) => t.name === name);
    return i === -1 ? declaredTags.length : i;
  };
  endpoints.sort((a, b) => tagOrder(a.tag) - tagOrder(b.tag) || a.path.localeCompare(b.path) || a.method.localeCompare(b.method));
  const used = [...new Set(endpoints.map((e) => e.tag))];
  const tags = used.map((name) => declaredTags.find((t) => t.name === name) ?? { name, description: "" });

  return { title: str(info.title), version: str(info.version), description: str(info.description), tags, endpoints };
}

/** The public REST API's prefix: what programs call with an API key. */
export const PUBLIC_API_PREFIX = "/api/v1/";

/**
 * Whether the endpoint belongs to the public API (`/api/v1/…`), the one programs use; the
 * others are the web app's own (session cookie), listed apart as internal.
 */
export function isPublicApi(endpoint: Pick<Endpoint, "path">): boolean {
  return endpoint.path.startsWith(PUBLIC_API_PREFIX);
}

/** The endpoints in two groups, each in the document's order: the public API, then the web app's own. */
export function splitEndpoints(endpoints: readonly Endpoint[]): { publicApi: Endpoint[]; internal: Endpoint[] } {
  return { publicApi: endpoints.filter(isPublicApi), internal: endpoints.filter((e) => !isPublicApi(e)) };
}

const isSignalsList = (e: Endpoint) => e.method === "GET" && /\/signals\/?$/.test(e.path);

/**
 * The endpoint the explorer opens with: on the public API, the one a program can try first
 * (its signals list, else its first endpoint); without a public API, the signals list or the
 * first endpoint.
 */
export function defaultEndpoint(endpoints: readonly Endpoint[]): Endpoint | undefined {
  const { publicApi } = splitEndpoints(endpoints);
  return publicApi.find(isSignalsList) ?? publicApi[0] ?? endpoints.find(isSignalsList) ?? endpoints[0];
}

/** The first 2xx response, which the Response tab's copy button copies. */
export function successResponse(endpoint: Endpoint): ResponseInfo | undefined {
  return endpoint.responses.find((r) => r.status.startsWith("2"));
}

function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** A curl command for the endpoint against `origin`, with example values. */
export function curlExample(endpoint: Endpoint, origin: string): string {
  const example = (p: ParameterInfo) => (p.type.startsWith("integer") || p.type.startsWith("number") ? "1" : p.name);
  let path = endpoint.path;
  for (const p of endpoint.parameters.filter((p) => p.in === "path")) {
    path = path.replace(`{${p.name}}`, encodeURIComponent(example(p)));
  }
  const query = endpoint.parameters
    .filter((p) => p.in === "query" && p.required)
    .map((p) => `${encodeURIComponent(p.name)}=${encodeURIComponent(example(p))}`)
    .join("&");
  const url = `${origin}${path}${query ? `?${query}` : ""}`;
  const lines = [endpoint.method === "GET" ? `curl ${shellQuote(url)}` : `curl -X ${endpoint.method} ${shellQuote(url)}`];
  if (endpoint.auth === "apiKey") lines.push(`-H "Authorization: Bearer $STRIKELINE_API_KEY"`);
  if (endpoint.auth === "session" || endpoint.auth === "admin") lines.push("-b cookies.txt");
  for (const p of endpoint.parameters.filter((p) => p.in === "header")) lines.push(`-H ${shellQuote(`${p.name}: ${example(p)}`)}`);
  if (endpoint.requestBody) {
    lines.push(`-H ${shellQuote(`Content-Type: ${endpoint.requestBody.contentType}`)}`);
    if (endpoint.requestBody.example !== undefined) lines.push(`-d ${shellQuote(JSON.stringify(endpoint.requestBody.example))}`);
  }
  return lines.join(" \\\n  ");
}
