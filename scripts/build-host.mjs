#!/usr/bin/env node
// Compiles the Express host (server/index.ts and what it imports from server/, engine/, db/,
// common/, app/modules/) into BUILD_DIR/host/index.js, one ES module plus a chunk for each
// dynamic import (the YouTube resolver, Stripe, the mock platform load when first needed).
// Packages stay in node_modules. scripts/start.mjs runs this when the host's sources change;
// running the compiled host instead of tsx saves the TypeScript loader's thread (~130 MB of
// RSS): docs/decisions/019-small-footprint.md.
import { readFile, rm } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import * as esbuild from "esbuild";
import { buildCHeapTrim } from "./build-c-heap-trim.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const outdir = path.join(path.resolve(process.env.BUILD_DIR ?? path.join(root, "build")), "host");

/**
 * A module that finds files next to itself (`import.meta.url`: the database migrations, the
 * ffmpeg installer) keeps finding them there: each source file's `import.meta.url` becomes its
 * own location in the project, not the bundle's.
 */
const keepModuleLocation = {
  name: "keep-module-location",
  setup(build) {
    build.onLoad({ filter: /\.tsx?$/ }, async (args) => {
      if (args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
      const source = await readFile(args.path, "utf8");
      const contents = source.includes("import.meta.url") ? source.replaceAll("import.meta.url", JSON.stringify(pathToFileURL(args.path).href)) : source;
      return { contents, loader: args.path.endsWith(".tsx") ? "tsx" : "ts" };
    });
  },
};

await rm(outdir, { recursive: true, force: true });
await esbuild.build({
  absWorkingDir: root,
  entryPoints: { index: path.join(root, "server/index.ts") },
  outdir,
  bundle: true,
  splitting: true,
  chunkNames: "chunks/[name]-[hash]",
  format: "esm",
  platform: "node",
  target: "node20",
  packages: "external",
  // stack traces name the TypeScript sources when Node runs with --enable-source-maps
  sourcemap: "linked",
  plugins: [keepModuleLocation],
  logLevel: "warning",
});

// glibc's malloc_trim for the server's idle moments (docs/decisions/034), when a C compiler is here
const notBuilt = buildCHeapTrim(path.join(outdir, "c-heap-trim.node"));
if (notBuilt) console.log(`The C heap trim was not built: ${notBuilt}. The server runs without it.`);
