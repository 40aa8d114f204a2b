#!/usr/bin/env node
// The production server exactly as scripts/start.mjs runs it, minus the build step: the attack
// suites build once (support/build.ts) and must not rebuild a folder another suite is serving.
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
process.chdir(root);
process.env.NODE_ENV ??= "production";

// A test run that is killed must not leave its servers behind: leave with the parent.
const parent = Number(process.env.ATTACK_PARENT_PID);
if (parent) {
  setInterval(() => {
    try {
      process.kill(parent, 0);
    } catch {
      process.kill(process.pid, "SIGKILL");
    }
  }, 1000).unref();
}
const buildDir = path.resolve(process.env.BUILD_DIR ?? "build");
await import(pathToFileURL(path.join(buildDir, "host", "index.js")).href);
