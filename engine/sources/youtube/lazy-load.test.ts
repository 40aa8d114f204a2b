import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const run = promisify(execFile);

/**
 * Packages the server needs only later, each worth megabytes of heap (docs/decisions/019):
 * YouTube's client (the first YouTube link), Stripe (payment keys set), nodemailer (the first
 * mail), the AWS SDK (job files kept in a bucket).
 */
const LATER = ["youtubei.js", "stripe", "nodemailer", "@aws-sdk/client-s3"];

// A resolve hook (in Node's loader thread) that notes every import of those packages in a file.
const HOOK = `
import { appendFileSync } from "node:fs";
const later = ${JSON.stringify(LATER)};
export async function resolve(specifier, context, next) {
  if (later.some((p) => specifier === p || specifier.startsWith(p + "/"))) appendFileSync(process.env.YOUTUBEI_LOG, specifier + "\\n");
  return next(specifier, context);
}`;

/**
 * Imports what the production server imports at start (server/app.ts and server/services.ts,
 * which reach the engine and its source registry), then resolves one YouTube link through the
 * adapter with an outbound fetch that always fails.
 */
const SCRIPT = `
import { readFileSync, existsSync } from "node:fs";
const log = process.env.YOUTUBEI_LOG;
const loaded = () => (existsSync(log) ? readFileSync(log, "utf8").trim().split("\\n") : []);
await import(${JSON.stringify(pathToFileURL(path.join(root, "server/app.ts")).href)});
await import(${JSON.stringify(pathToFileURL(path.join(root, "server/services.ts")).href)});
const { defaultSources } = await import(${JSON.stringify(pathToFileURL(path.join(root, "engine/sources/index.ts")).href)});
const youtube = defaultSources().find((s) => s.platform === "youtube");
const atStart = loaded();
const fetch = async () => { throw new Error("no network in this test"); };
const config = { youtube: { clients: [], apiBaseUrl: "https://www.googleapis.com/youtube/v3" } };
const logger = { warn() {}, debug() {}, info() {}, error() {} };
const link = { kind: "youtube", id: "dQw4w9WgXcQ", url: "https://www.youtube.com/watch?v=dQw4w9WgXcQ" };
const result = await youtube.resolve(link, { fetch, config, logger }).catch((err) => ({ thrown: String(err) }));
process.stdout.write(JSON.stringify({ atStart, afterResolve: loaded(), result }));
`;

describe("packages needed only later load on first use, not at start", () => {
  let dir = "";
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), "vidfetch-lazy-youtube-"));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("the server's start-up imports leave them out; resolving a YouTube link brings youtubei.js in", async () => {
    const log = path.join(dir, "youtubei.log");
    const hook = `data:text/javascript,${encodeURIComponent(HOOK)}`;
    const register = `data:text/javascript,${encodeURIComponent(`import { register } from "node:module"; register(${JSON.stringify(hook)});`)}`;
    const { stdout } = await run(process.execPath, ["--import", "tsx", "--import", register, "--input-type=module", "-e", SCRIPT], {
      cwd: root,
      env: { ...process.env, YOUTUBEI_LOG: log, NODE_ENV: "production" },
      timeout: 60_000,
    });
    const out = JSON.parse(stdout) as { atStart: string[]; afterResolve: string[]; result: { ok?: boolean; thrown?: string } };
    expect(out.atStart).toEqual([]);
    expect(out.afterResolve).toContain("youtubei.js");
    // the failing fetch surfaces as the adapter's answer or its error, not as a missing module
    expect(JSON.stringify(out.result)).not.toMatch(/Cannot find module|ERR_MODULE_NOT_FOUND/);
    await expect(readFile(log, "utf8")).resolves.toContain("youtubei.js");
  });
});
