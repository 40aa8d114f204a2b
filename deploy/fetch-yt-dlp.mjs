#!/usr/bin/env node
// Installs yt-dlp into a container image at build time (deploy/Dockerfile): the platform-
// independent release (a Python zipapp), checked against the release's own SHA2-256SUMS before it
// is written. Debian's package is years old and cannot follow the platforms' changes; an operator
// picks a newer release by rebuilding, or pins one with `--build-arg YTDLP_VERSION=<tag>`.
//
//   node deploy/fetch-yt-dlp.mjs <destination> [version]     version: a release tag or "latest"
//
// YTDLP_RELEASES_URL replaces https://github.com/yt-dlp/yt-dlp/releases (a mirror, or a test).
import { createHash } from "node:crypto";
import { chmodSync, renameSync, writeFileSync } from "node:fs";

const ASSET = "yt-dlp";

/** The release folder a version's files are downloaded from. */
export function releaseUrl(base, version) {
  const root = base.replace(/\/+$/, "");
  return !version || version === "latest" ? `${root}/latest/download` : `${root}/download/${encodeURIComponent(version)}`;
}

/** The expected SHA-256 of `asset` in a GNU-style sums file ("<hex>  <name>" or "<hex> *<name>"). */
export function expectedDigest(sums, asset) {
  for (const line of sums.split("\n")) {
    const m = /^([0-9a-f]{64})\s+\*?(\S+)\s*$/i.exec(line.trim());
    if (m && m[2] === asset) return m[1].toLowerCase();
  }
  return null;
}

async function download(url) {
  const res = await fetch(url, { redirect: "follow" });
  if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`);
  return Buffer.from(await res.arrayBuffer());
}

export async function fetchYtDlp({ destination, version = "latest", base = "https://github.com/yt-dlp/yt-dlp/releases" }) {
  const folder = releaseUrl(base, version);
  const sums = (await download(`${folder}/SHA2-256SUMS`)).toString("utf8");
  const expected = expectedDigest(sums, ASSET);
  if (!expected) throw new Error(`${folder}/SHA2-256SUMS lists no ${ASSET}`);
  const body = await download(`${folder}/${ASSET}`);
  const actual = createHash("sha256").update(body).digest("hex");
  if (actual !== expected) throw new Error(`${ASSET} from ${folder} has SHA-256 ${actual}, the release lists ${expected}: not installed`);
  // written beside the destination first, so a failed build never leaves half a file on PATH
  const partial = `${destination}.partial`;
  writeFileSync(partial, body);
  chmodSync(partial, 0o755);
  renameSync(partial, destination);
  return { destination, sha256: actual, bytes: body.length };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [destination, version] = process.argv.slice(2);
  if (!destination) {
    console.error("usage: node deploy/fetch-yt-dlp.mjs <destination> [version]");
    process.exit(2);
  }
  try {
    const r = await fetchYtDlp({ destination, version, base: process.env.YTDLP_RELEASES_URL || undefined });
    console.log(`yt-dlp ${version ?? "latest"} installed at ${r.destination} (${r.bytes} bytes, sha256 ${r.sha256})`);
  } catch (err) {
    console.error(`Could not install yt-dlp: ${err.message}`);
    process.exit(1);
  }
}
