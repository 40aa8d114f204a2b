/**
 * Builds /service-worker.js after the client bundle (a Vite plugin, so every `react-router build`
 * — npm start, the e2e server, CI — ships a worker that matches its assets):
 *   1. esbuild bundles worker/service-worker.ts with the Workbox modules it imports;
 *   2. workbox-build's injectManifest writes the precache list (every script and style of this
 *      build, icons, manifest, offline page) into it, with revisions for the unhashed files.
 * SHELL_REVISION is a hash of that list, so a new build replaces the kept shell pages.
 */
import { createHash } from "node:crypto";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import type { Plugin } from "vite";
import { getManifest, injectManifest } from "workbox-build";
import { SERVICE_WORKER_URL } from "./offline-contract.ts";

const here = path.dirname(fileURLToPath(import.meta.url));
const WORKER_SOURCE = path.join(here, "worker", "service-worker.ts");

/** What a first visit downloads for offline use, relative to the client build folder. */
export const PRECACHE_GLOBS = ["assets/**/*.{js,css,wasm,woff2}", "icons/*.png", "favicon.svg", "logo.svg", "site.webmanifest", "offline.html"];

const precacheOptions = (clientDir: string) => ({
  globDirectory: clientDir,
  globPatterns: PRECACHE_GLOBS,
  // hashed file names are their own revision
  dontCacheBustURLsMatching: /^assets\//,
  // the media tools' worker is the largest file (about 1 MB)
  maximumFileSizeToCacheInBytes: 8 * 1024 * 1024,
});

export async function buildServiceWorker(clientDir: string): Promise<{ file: string; precached: number; bytes: number }> {
  const { manifestEntries = [] } = await getManifest(precacheOptions(clientDir));
  const revision = createHash("sha256")
    .update(JSON.stringify(manifestEntries.map((e) => [e.url, e.revision]).sort()))
    .digest("hex")
    .slice(0, 16);
  const work = await mkdtemp(path.join(tmpdir(), "vidfetch-sw-"));
  try {
    const bundled = path.join(work, "service-worker.js");
    await build({
      entryPoints: [WORKER_SOURCE],
      outfile: bundled,
      bundle: true,
      format: "iife",
      target: "es2022",
      minify: true,
      legalComments: "none",
      define: { SHELL_REVISION: JSON.stringify(revision), "process.env.NODE_ENV": '"production"' },
      logLevel: "warning",
    });
    const swDest = path.join(clientDir, SERVICE_WORKER_URL.slice(1));
    const result = await injectManifest({ ...precacheOptions(clientDir), swSrc: bundled, swDest });
    for (const warning of result.warnings) console.warn(`[service worker] ${warning}`);
    return { file: swDest, precached: result.count, bytes: result.size };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/** The Vite plugin: runs once the client environment's files are written. */
export function serviceWorkerPlugin(): Plugin {
  let outDir = "";
  let isSsrBuild = false;
  let command: "build" | "serve" = "serve";
  return {
    name: "vidfetch:service-worker",
    apply: "build",
    configResolved(config) {
      command = config.command;
      outDir = path.resolve(config.root, config.build.outDir);
      isSsrBuild = Boolean(config.build.ssr);
    },
    async closeBundle() {
      const env = (this as { environment?: { name: string; config: { build: { outDir: string } } } }).environment;
      const clientBuild = env ? env.name === "client" : !isSsrBuild;
      if (command !== "build" || !clientBuild) return;
      const dir = env ? path.resolve(env.config.build.outDir) : outDir;
      if (!(await readdir(dir)).includes("assets")) return;
      const { precached, bytes } = await buildServiceWorker(dir);
      console.log(`[service worker] ${SERVICE_WORKER_URL}: ${precached} files precached (${(bytes / 1024).toFixed(0)} KB)`);
    },
  };
}
