import js from "@eslint/js";
import globals from "globals";
import tseslint from "typescript-eslint";

// Patterns are regexes: in a gitignore-style `group`, a leading "#" starts a comment, so "#engine/*" matched nothing.
const serverOnly = ["engine", "db", "server", "jobs"].map((folder) => ({
  regex: `^(#${folder}/|(\\.\\./)+${folder}/)`,
  allowTypeImports: true,
  message: "Browser code may not import server-only code. Move the call into a *.server.ts module (types are fine with `import type`).",
}));

const engineOutside = [
  { regex: "^(#app/|(\\.\\./)+app/)", message: "engine/ must not import app/ (DESIGN §3)." },
  { regex: "^(#server/|#db/|(\\.\\./)+(server|db)/)", message: "engine/ must not import server/ or db/: the host passes what the engine needs (EngineDeps)." },
];

// The engine's order: index → serve → {stream, state, sources, formats} → {captions, media, details}
// → outbound → types, errors, config. `from` is a folder of engine/ or a file at its root; each
// name in `banned` (a folder, or a root file without .ts) may not be imported from there.
const ABOVE_MEDIA = ["index", "serve", "stream", "state", "sources"];
function engineLayer(from, banned) {
  const names = banned.join("|");
  const rule = (up) => ({
    regex: `^(#engine/|${up})(${names})(/|\\.ts$)`,
    message: `engine/${from} sits below ${banned.join(", ")} in the engine's import order (docs/architecture.md, "Boundaries").`,
  });
  const block = (files, up) => ({ files, rules: { "no-restricted-imports": ["error", { patterns: [...engineOutside, rule(up)] }] } });
  if (from.endsWith(".ts")) return [block([`engine/${from}`], "\\./")];
  // a folder's files sit one or two levels below engine/ (sources/youtube/…)
  return [block([`engine/${from}/*.ts`], "\\.\\./"), block([`engine/${from}/*/**/*.ts`], "\\.\\./\\.\\./")];
}

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
  // The engine never reaches into the app, the host or the database: the host hands it what it needs.
  { files: ["engine/**/*.ts"], rules: { "no-restricted-imports": ["error", { patterns: engineOutside }] } },
  // Inside the engine, imports run one way (docs/architecture.md, "Boundaries").
  ...engineLayer("outbound", ["index", "serve", "stream", "state", "sources", "formats", "entitlements", "refusals", "captions", "media", "details"]),
  ...engineLayer("captions", [...ABOVE_MEDIA, "details"]),
  ...engineLayer("media", [...ABOVE_MEDIA, "captions", "details"]),
  ...engineLayer("details", ABOVE_MEDIA),
  ...engineLayer("stream", ["index", "serve", "state", "sources"]),
  ...engineLayer("state", ["index", "serve", "stream", "sources"]),
  ...engineLayer("sources", ["index", "serve", "stream", "state"]),
  ...engineLayer("serve", ["index"]),
  ...engineLayer("formats.ts", ["index", "serve", "stream", "state", "sources", "details"]),
  ...engineLayer("{types,errors,config}.ts", ["index", "serve", "stream", "state", "sources", "formats", "entitlements", "refusals", "captions", "media", "details", "outbound"]),
  // Jobs call the engine's public API as a request does (index, errors, types, formats), the database, common/ and the app's
  // server-side use-cases; never the host, the engine's insides or browser code.
  {
    files: ["jobs/**/*.ts"],
    ignores: ["jobs/**/*.test.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            { regex: "^(#server/|(\\.\\./)+server/)", message: "jobs/ must not import server/: the host passes what a job needs (jobDefinitions' deps)." },
            {
              regex: "^(#engine/|(\\.\\./)+engine/)(?!(index|errors|types|formats)\\.ts$)",
              allowTypeImports: true,
              message: "jobs/ calls the engine through its public API (#engine/index.ts, and its errors, types and formats), as a request does.",
            },
            { regex: "^(#app/|(\\.\\./)+app/)(?!modules/.*\\.server\\.ts$)", allowTypeImports: true, message: "jobs/ may import only the app's *.server.ts modules." },
          ],
        },
      ],
    },
  },
  // common/ is shared by browser and server: no project imports outside common/.
  {
    files: ["common/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        { patterns: [{ regex: "^(#|\\.\\./)", message: "common/ is dependency-free shared code." }] },
      ],
    },
  },
);
