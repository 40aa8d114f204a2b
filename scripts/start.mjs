#!/usr/bin/env node
// `npm start`: build the site and the compiled host when either is missing or older than its
// sources, then serve production from BUILD_DIR (docs/decisions/019-small-footprint.md).
import { spawnSync } from "node:child_process";
import { existsSync, lstatSync, readdirSync, readlinkSync, statSync, symlinkSync, unlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { hostSources as hostSourcesOf, SITE_SOURCES } from "./build-sources.mjs";
import { ensureStartEnv } from "./start-env.mjs";
import { stopWhenOrphaned } from "./stop-when-orphaned.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
// only as the process's own script: a launcher that imports this file (scripts/e2e-server.mjs)
// has done work already and sets the environment first itself
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) ensureStartEnv();
process.chdir(root);
stopWhenOrphaned();
const buildDir = path.resolve(process.env.BUILD_DIR ?? "build");
const stamp = path.join(buildDir, ".build-stamp");
const sources = SITE_SOURCES;
// The host bundle (scripts/build-host.mjs) has its own stamp: a change to the engine rebuilds
// the host in a second, not the site.
const hostStamp = path.join(buildDir, "host", ".build-stamp");
const hostSources = hostSourcesOf(root);

function newestMtime(p) {
  if (!existsSync(p)) return 0;
  const st = statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = st.mtimeMs;
  for (const entry of readdirSync(p)) newest = Math.max(newest, newestMtime(path.join(p, entry)));
  return newest;
}

const builtAt = existsSync(stamp) ? statSync(stamp).mtimeMs : 0;
const sourcesAt = Math.max(...sources.map((s) => newestMtime(path.join(root, s))));
if (!builtAt || sourcesAt > builtAt || process.env.FORCE_BUILD === "true") {
  console.log(builtAt ? "Sources changed since the last build: rebuilding..." : "No build yet: building the site...");
  const started = Date.now();
  const result = spawnSync(process.execPath, [path.join(root, "node_modules/@react-router/dev/bin.js"), "build"], {
    stdio: "inherit",
    env: { ...process.env, NODE_ENV: "production" },
  });
  if (result.status !== 0) {
    console.error("The build failed; see the output above.");
    process.exit(result.status ?? 1);
  }
  // The server bundle is ESM; say so, in case the build folder lives outside this package.
  writeFileSync(path.join(buildDir, "package.json"), '{ "type": "module" }\n');
  // A build folder outside the project (parallel runs use /tmp) still needs the packages.
  const modules = path.join(buildDir, "node_modules");
  if (path.relative(root, buildDir).startsWith("..")) {
    const target = path.join(root, "node_modules");
    let link = lstatSync(modules, { throwIfNoEntry: false });
    // a link left by another checkout (perhaps since deleted) is pointed at this one's packages
    if (link?.isSymbolicLink() && readlinkSync(modules) !== target) {
      unlinkSync(modules);
      link = undefined;
    }
    if (!link) symlinkSync(target, modules, "dir");
  }
  writeFileSync(stamp, new Date().toISOString() + "\n");
  console.log(`Built in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
}

const hostBuiltAt = existsSync(hostStamp) ? statSync(hostStamp).mtimeMs : 0;
const hostSourcesAt = Math.max(...hostSources.map((s) => newestMtime(path.join(root, s))));
if (!hostBuiltAt || hostSourcesAt > hostBuiltAt || process.env.FORCE_BUILD === "true") {
  const started = Date.now();
  const result = spawnSync(process.execPath, [path.join(root, "scripts/build-host.mjs")], { stdio: "inherit", env: { ...process.env, BUILD_DIR: buildDir } });
  if (result.status !== 0) {
    console.error("The server build failed; see the output above.");
    process.exit(result.status ?? 1);
  }
  writeFileSync(hostStamp, new Date().toISOString() + "\n");
  console.log(`Built the server in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
}

// BUILD_ONLY=true: bring the build up to date and stop (the attack suites build this way)
if (process.env.BUILD_ONLY === "true") process.exit(0);

process.env.NODE_ENV ??= "production";
await import(pathToFileURL(path.join(buildDir, "host", "index.js")).href);
