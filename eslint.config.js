import js from "@eslint/js";
import globals from "globals";
import tseslint from "typescript-eslint";

const serverOnly = ["#engine/*", "#db/*", "#server/*"].map((group) => ({
  group: [group, `**/${group.slice(1, -2)}/**`],
  allowTypeImports: true,
  message: "Browser code may not import server-only code. Move the call into a *.server.ts module (types are fine with `import type`).",
}));

export default tseslint.config(
  {
    ignores: ["node_modules/", "build/", "data/", ".react-router/", "test-results/", "playwright-report/", "coverage/", "public/"],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none" }],
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
      "no-empty": ["error", { allowEmptyCatch: false }],
    },
  },
  // DESIGN §3 boundaries. Browser code: app/ except *.server.ts(x) and the server entry.
  {
    files: ["app/**/*.{ts,tsx}"],
    ignores: ["app/**/*.server.{ts,tsx}", "app/entry.server.tsx", "app/**/*.test.{ts,tsx}"],
    rules: { "no-restricted-imports": ["error", { patterns: serverOnly }] },
  },
  // The engine never reaches into the app.
  {
    files: ["engine/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        { patterns: [{ group: ["#app/*", "**/app/**"], message: "engine/ must not import app/ (DESIGN §3)." }] },
      ],
    },
  },
  // common/ is shared by browser and server: no project imports outside common/.
  {
    files: ["common/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        { patterns: [{ group: ["#*", "../*"], message: "common/ is dependency-free shared code." }] },
      ],
    },
  },
);
