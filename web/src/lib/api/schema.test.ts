// @vitest-environment node
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import openapiTS, { astToString, COMMENT_HEADER } from "openapi-typescript";
import { describe, expect, it } from "vitest";

/**
 * schema.d.ts must be exactly what `npm run gen:api` makes from the server's
 * OpenAPI document, so a change to the API that the app's types miss fails here.
 */
const documentPath = fileURLToPath(new URL("../../../../docs/openapi.json", import.meta.url));
const schemaPath = fileURLToPath(new URL("./schema.d.ts", import.meta.url));
const hasDocument = existsSync(documentPath);

describe("API types", () => {
  it.skipIf(!hasDocument)(
    "schema.d.ts matches docs/openapi.json (run `npm run gen:api`)",
    async () => {
      const ast = await openapiTS(pathToFileURL(documentPath));
      const generated = COMMENT_HEADER + astToString(ast);
      const committed = readFileSync(schemaPath, "utf8");
      expect(committed.replace(/\r\n/g, "\n")).toBe(generated);
    },
    30_000,
  );
});
