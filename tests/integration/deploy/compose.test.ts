import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
// @ts-expect-error: a plain .mjs script for the image build, without type declarations
import { expectedDigest, fetchYtDlp, releaseUrl } from "../../../deploy/fetch-yt-dlp.mjs";

/**
 * The container files a self-hoster runs (compose.yaml, deploy/Dockerfile): every documented
 * variable reaches the app, mail written without SMTP lands on a volume, and the image has a
 * yt-dlp that was checked before it was installed.
 */
const ROOT = path.resolve(import.meta.dirname, "../../..");
const composeText = readFileSync(path.join(ROOT, "compose.yaml"), "utf8");
const compose = parse(composeText, { merge: true }) as {
  services: Record<string, { build?: { dockerfile?: string }; env_file?: unknown; environment?: Record<string, string> | string[]; volumes?: string[] }>;
  volumes?: Record<string, unknown>;
};

/** Every variable docs/env.md documents (the first column of its tables). */
function documentedVariables(): string[] {
  const names = new Set<string>();
  for (const line of readFileSync(path.join(ROOT, "docs/env.md"), "utf8").split("\n")) {
    const first = /^\|([^|]+)\|/.exec(line)?.[1];
    if (!first) continue;
    for (const m of first.matchAll(/`([A-Z][A-Z0-9_]+)`/g)) names.add(m[1]!);
  }
  return [...names];
}

const appServices = Object.entries(compose.services).filter(([, s]) => s.build?.dockerfile === "deploy/Dockerfile");

function envFiles(service: { env_file?: unknown }): string[] {
  const v = service.env_file;
  const list = Array.isArray(v) ? v : v === undefined ? [] : [v];
  return list.map((e) => (typeof e === "string" ? e : (e as { path: string }).path));
}

function environmentOf(service: { environment?: Record<string, string> | string[] }): Record<string, string> {
  const env = service.environment ?? {};
  if (!Array.isArray(env)) return Object.fromEntries(Object.entries(env).map(([k, v]) => [k, String(v)]));
  return Object.fromEntries(env.map((e) => [e.slice(0, e.indexOf("=")), e.slice(e.indexOf("=") + 1)]));
}

describe("compose.yaml", () => {
  const documented = documentedVariables();

  it("has two app services built from the Dockerfile, and the docs list the variables", () => {
    expect(appServices.map(([name]) => name).sort()).toEqual(["app1", "app2"]);
    // the parser reads the tables: the fixed names of DESIGN §4 are among them
    expect(documented).toEqual(expect.arrayContaining(["STRIPE_SECRET_KEY", "SMTP_URL", "MAIL_FROM", "CONTACT_EMAIL", "DATA_DIR", "REDIS_URL"]));
  });

  it.each(appServices.map(([name]) => name))("%s receives every variable of docs/env.md that .env sets", (name) => {
    const service = compose.services[name]!;
    // Compose's own rule: env_file first, then `environment` on top of it
    expect(envFiles(service)).toContain(".env");
    const fromDotEnv = Object.fromEntries(documented.map((v) => [v, `value-of-${v}`]));
    const effective = { ...fromDotEnv, ...environmentOf(service) };
    const missing = documented.filter((v) => !(v in effective));
    expect(missing).toEqual([]);
  });

  it.each(appServices.map(([name]) => name))("%s keeps DATA_DIR (the outbox) on a named volume", (name) => {
    const service = compose.services[name]!;
    const dataDir = environmentOf(service).DATA_DIR;
    expect(dataDir).toMatch(/^\//);
    const mounts = (service.volumes ?? []).map((v) => v.split(":"));
    const mount = mounts.find(([, target]) => target === dataDir);
    expect(mount, `a volume mounted at ${dataDir}`).toBeDefined();
    expect(Object.keys(compose.volumes ?? {})).toContain(mount![0]);
  });

  const dockerCompose = spawnSync("docker", ["compose", "version"], { encoding: "utf8" }).status === 0;
  it.skipIf(!dockerCompose)("docker compose config renders every variable into both instances", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "vidfetch-compose-"));
    writeFileSync(path.join(dir, ".env"), documented.map((v) => `${v}=value-of-${v}`).join("\n") + "\nPOSTGRES_PASSWORD=p\n");
    const r = spawnSync("docker", ["compose", "-f", path.join(ROOT, "compose.yaml"), "--project-directory", dir, "config", "--format", "json"], { encoding: "utf8" });
    expect(r.status, r.stderr).toBe(0);
    const rendered = JSON.parse(r.stdout) as { services: Record<string, { environment: Record<string, string> }> };
    for (const name of ["app1", "app2"]) {
      const env = rendered.services[name]!.environment;
      expect(documented.filter((v) => !(v in env))).toEqual([]);
    }
  });
});

describe("deploy/Dockerfile", () => {
  const dockerfile = readFileSync(path.join(ROOT, "deploy/Dockerfile"), "utf8");

  it("installs yt-dlp (with the Python that runs it) through the checked fetch, and runs it once", () => {
    expect(dockerfile).toMatch(/apt-get install[^\n]*\bpython3\b/);
    expect(dockerfile).toMatch(/RUN node \S*fetch-yt-dlp\.mjs \/usr\/local\/bin\/yt-dlp/);
    expect(dockerfile).toMatch(/\/usr\/local\/bin\/yt-dlp --version/);
    // the latest release's sums are fetched on every build, so a rebuild does not reuse a cached "latest"
    const sums = dockerfile.indexOf("ADD https://github.com/yt-dlp/yt-dlp/releases/latest/download/SHA2-256SUMS ");
    expect(sums).toBeGreaterThan(0);
    expect(sums).toBeLessThan(dockerfile.indexOf("RUN node deploy/fetch-yt-dlp.mjs"));
    // after the site's build: a new yt-dlp release rebuilds only its own layer
    expect(sums).toBeGreaterThan(dockerfile.indexOf("BUILD_ONLY=true"));
    expect(dockerfile).toMatch(/^ENV [^\n]*DATA_DIR=\/data/m);
  });
});

describe("deploy/fetch-yt-dlp.mjs", () => {
  const program = Buffer.from("#!/usr/bin/env python3\nprint('yt-dlp stand-in')\n");
  const digest = createHash("sha256").update(program).digest("hex");
  let sums = `${"0".repeat(64)}  yt-dlp.exe\n${digest}  yt-dlp\n`;
  const requested: string[] = [];
  let server: Server;
  let base: string;

  beforeAll(async () => {
    server = createServer((req, res) => {
      requested.push(req.url ?? "");
      if (req.url?.endsWith("/SHA2-256SUMS")) res.end(sums);
      else if (req.url?.endsWith("/yt-dlp")) res.end(program);
      else res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/releases`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("names the latest release or a pinned tag", () => {
    expect(releaseUrl("https://x/releases/", "latest")).toBe("https://x/releases/latest/download");
    expect(releaseUrl("https://x/releases", "2026.11.20")).toBe("https://x/releases/download/2026.11.20");
    expect(expectedDigest(sums, "yt-dlp")).toBe(digest);
    expect(expectedDigest(`${digest} *yt-dlp\n`, "yt-dlp")).toBe(digest);
    expect(expectedDigest(sums, "yt-dlp_linux")).toBeNull();
  });

  it("installs an executable whose SHA-256 the release lists", async () => {
    const destination = path.join(mkdtempSync(path.join(tmpdir(), "vidfetch-ytdlp-")), "yt-dlp");
    const r = await fetchYtDlp({ destination, version: "2026.11.20", base });
    expect(r.sha256).toBe(digest);
    expect(readFileSync(destination)).toEqual(program);
    expect(statSync(destination).mode & 0o111).toBe(0o111);
    expect(requested).toContain("/releases/download/2026.11.20/yt-dlp");
  });

  it("refuses a file that does not match the sums, and leaves nothing behind", async () => {
    sums = `${"f".repeat(64)}  yt-dlp\n`;
    const destination = path.join(mkdtempSync(path.join(tmpdir(), "vidfetch-ytdlp-")), "yt-dlp");
    await expect(fetchYtDlp({ destination, base })).rejects.toThrow(/SHA-256/);
    expect(existsSync(destination)).toBe(false);
    expect(existsSync(`${destination}.partial`)).toBe(false);
  });
});
