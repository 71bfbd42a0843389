import { readdirSync } from "node:fs";
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
);
