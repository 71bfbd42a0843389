import { readdirSync, readFileSync } from "node:fs";
import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

/** Every folder under src/features is a feature. */
const FEATURES = readdirSync(new URL("./src/features", import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

/**
 * Code flows shared → features → app (bulletproof-react): shared code imports
 * no feature or app module, and a feature imports no other feature.
 */
const boundaries = [
  {
    files: ["src/components/**", "src/lib/**", "src/content/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        { patterns: [{ group: ["@/features/*", "@/app/*"], message: "Shared code must not import features or the app." }] },
      ],
    },
  },
  ...FEATURES.map((feature) => ({
    files: [`src/features/${feature}/**`],
    ignores: ["**/*.test.ts", "**/*.test.tsx"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["@/features/*", `!@/features/${feature}`, `!@/features/${feature}/**`, "@/app/*"],
              message: "Features do not import each other or the app; compose them in src/app.",
            },
          ],
        },
      ],
    },
  })),
];

/**
 * The names of the server's schemas (components.schemas in the generated schema.d.ts). Only
 * src/lib/api/models.ts names them, as aliases of the generated types; src/lib/api/models.test.ts
 * checks the same rule, this gives the editor's warning.
 */
const schemaText = readFileSync(new URL("./src/lib/api/schema.d.ts", import.meta.url), "utf8");
const schemasBlock = schemaText.slice(schemaText.indexOf("export interface components {"), schemaText.indexOf("\n    responses:"));
const SCHEMA_NAMES = [...schemasBlock.matchAll(/^ {8}(\w+): /gm)].map((match) => match[1]);

const noSchemaCopies = {
  files: ["src/**/*.{ts,tsx}"],
  ignores: ["src/lib/api/models.ts", "src/lib/api/schema.d.ts"],
  rules: {
    "no-restricted-syntax": [
      "error",
      {
        selector: `:matches(TSInterfaceDeclaration, TSTypeAliasDeclaration, TSEnumDeclaration, ClassDeclaration)[id.name=/^(?:${SCHEMA_NAMES.join("|")})$/]`,
        message: "The server's OpenAPI schema defines this type: import it from @/lib/api/models instead of declaring a copy.",
      },
    ],
  },
};

export default tseslint.config(
  { ignores: ["dist", "node_modules", "test-results", "src/lib/api/schema.d.ts"] },
  {
    files: ["**/*.{ts,tsx}"],
    extends: [js.configs.recommended, ...tseslint.configs.recommended],
    languageOptions: { ecmaVersion: 2022, globals: { ...globals.browser } },
    plugins: { "react-hooks": reactHooks },
    rules: {
      "react-hooks/rules-of-hooks": "error",
      "react-hooks/exhaustive-deps": "warn",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
  {
    files: ["e2e/**/*.{mjs,ts}", "*.config.{js,ts}"],
    languageOptions: { globals: { ...globals.node } },
  },
  { files: ["public/**/*.js"], languageOptions: { globals: { ...globals.browser } } },
  { files: ["eslint.config.js"], languageOptions: { globals: { ...globals.node } } },
  ...boundaries,
  noSchemaCopies,
);
