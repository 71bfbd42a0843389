// @vitest-environment node
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

/**
 * API types come from the server's OpenAPI document only (schema.d.ts), named once in
 * models.ts. This guard fails when any other module declares a type, interface, class or
 * enum named like one of the schema's components: a hand-written copy drifts from the server.
 */
const SRC = fileURLToPath(new URL("../..", import.meta.url));
const SCHEMA = join(SRC, "lib", "api", "schema.d.ts");
const MODELS = "lib/api/models.ts";

/** The names of `components["schemas"]` in the generated schema.d.ts. */
function schemaNames(schemaText: string): Set<string> {
  const file = ts.createSourceFile("schema.d.ts", schemaText, ts.ScriptTarget.Latest, true);
  const names = new Set<string>();
  for (const statement of file.statements) {
    if (!ts.isInterfaceDeclaration(statement) || statement.name.text !== "components") continue;
    const schemas = statement.members.find(
      (m): m is ts.PropertySignature => ts.isPropertySignature(m) && m.name.getText(file) === "schemas",
    );
    if (schemas?.type && ts.isTypeLiteralNode(schemas.type)) {
      for (const member of schemas.type.members) {
        if (member.name) names.add(member.name.getText(file).replace(/^["']|["']$/g, ""));
      }
    }
  }
  return names;
}

/** `components["schemas"]["X"]` or `Schemas["X"]` (models.ts's shorthand for the former). */
function isSchemaAlias(type: ts.TypeNode, name: string): boolean {
  if (!ts.isIndexedAccessTypeNode(type)) return false;
  const index = type.indexType;
  if (!ts.isLiteralTypeNode(index) || !ts.isStringLiteral(index.literal) || index.literal.text !== name) return false;
  const object = type.objectType;
  if (ts.isTypeReferenceNode(object)) return object.typeName.getText() === "Schemas";
  return (
    ts.isIndexedAccessTypeNode(object) &&
    ts.isTypeReferenceNode(object.objectType) &&
    object.objectType.typeName.getText() === "components" &&
    ts.isLiteralTypeNode(object.indexType) &&
    ts.isStringLiteral(object.indexType.literal) &&
    object.indexType.literal.text === "schemas"
  );
}

type Redeclaration = { file: string; line: number; name: string };

/**
 * Declarations in `text` named like a schema component. Only models.ts may name them, and
 * only as an alias of the generated type (`type Signal = Schemas["Signal"]`).
 */
function findRedeclarations(fileName: string, text: string, names: ReadonlySet<string>): Redeclaration[] {
  const file = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const isModels = fileName.split(sep).join("/").endsWith(MODELS);
  const found: Redeclaration[] = [];
  const visit = (node: ts.Node) => {
    if (
      (ts.isInterfaceDeclaration(node) || ts.isTypeAliasDeclaration(node) || ts.isClassDeclaration(node) || ts.isEnumDeclaration(node)) &&
      node.name &&
      names.has(node.name.text)
    ) {
      const allowed = isModels && ts.isTypeAliasDeclaration(node) && isSchemaAlias(node.type, node.name.text);
      if (!allowed) {
        const { line } = file.getLineAndCharacterOfPosition(node.getStart(file));
        found.push({ file: fileName, line: line + 1, name: node.name.text });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

/** Every app source file: .ts and .tsx under src, without tests and the generated schema. */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    const isSource = /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) && path !== SCHEMA;
    return isSource ? [path] : [];
  });
}

const names = schemaNames(readFileSync(SCHEMA, "utf8"));

describe("API types come from schema.d.ts", () => {
  it("reads the schema's component names", () => {
    expect(names.size).toBeGreaterThan(40);
    for (const name of ["Signal", "ManualPosition", "DashboardStats", "OverallBacktest", "Problem"]) {
      expect(names).toContain(name);
    }
  });

  it("finds a feature that declares a schema type itself", () => {
    const sample = [
      "export interface Signal { id: string; symbol: string }",
      "type DashboardStats = { activeSignals: number };",
      'export type StockPrice = components["schemas"]["StockPrice"];',
      "type SignalRow = { id: string };",
      "function f() { interface ManualPosition { id: string } return 1; }",
    ].join("\n");
    const found = findRedeclarations("src/features/signals/components/sample.tsx", sample, names);
    expect(found.map((d) => `${d.name}:${d.line}`)).toEqual(["Signal:1", "DashboardStats:2", "StockPrice:3", "ManualPosition:5"]);
  });

  it("lets models.ts alias the generated types, and nothing else", () => {
    const sample = [
      'type Schemas = components["schemas"];',
      'export type Signal = Schemas["Signal"];',
      'export type Problem = components["schemas"]["Problem"];',
      'export type StockPrice = Schemas["Signal"];',
      "export type DashboardStats = { activeSignals: number };",
    ].join("\n");
    const found = findRedeclarations(join("src", "lib", "api", "models.ts"), sample, names);
    expect(found.map((d) => d.name)).toEqual(["StockPrice", "DashboardStats"]);
  });

  it("no module re-declares a schema type", () => {
    const files = sourceFiles(SRC);
    expect(files.length).toBeGreaterThan(100);
    const found = files.flatMap((path) => findRedeclarations(path, readFileSync(path, "utf8"), names));
    const report = found.map((d) => `${relative(SRC, d.file)}:${d.line} declares ${d.name}; import it from @/lib/api/models`);
    expect(report).toEqual([]);
  });
});
