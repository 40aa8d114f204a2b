/**
 * Finding yt-dlp (issue 12): YTDLP_PATH when set, else `yt-dlp` on PATH, else none. Like ffmpeg,
 * the binary is asked for its version once, and the server logs it at start. yt-dlp is optional:
 * without it, links of platforms other than YouTube get an honest "this server cannot" answer.
 */
import { execFile } from "node:child_process";
import { EngineError } from "../../errors.ts";
import { JAIL_ACTIVE_LINE, jailEnv } from "./network-jail.ts";

export interface YtdlpBinary {
  path: string;
  /** e.g. "2023.03.04" */
  version: string;
}

/** A python start plus yt-dlp's imports: slow machines need a few seconds. */
const VERSION_TIMEOUT_MS = 10_000;

/** YTDLP_PATH values that switch yt-dlp off even when one is installed. */
const DISABLED = new Set(["none", "off", "false", "0"]);

/** What `--version` said: the version, and whether the network jail was loaded (network-jail.ts). */
function versionOf(binary: string): Promise<{ version: string; confined: boolean } | null> {
  return new Promise((resolve) => {
    execFile(binary, ["--ignore-config", "--version"], { timeout: VERSION_TIMEOUT_MS, env: { ...ytdlpEnv(), ...jailEnv(undefined, { report: true }) } }, (err, stdout, stderr) => {
      const version = String(stdout).trim().split("\n")[0] ?? "";
      // a missing binary, a crash or something that is not yt-dlp: not usable
      if (err || !/^\d{4}\.\d{2}\.\d{2}/.test(version)) resolve(null);
      else resolve({ version, confined: String(stderr).split("\n").includes(JAIL_ACTIVE_LINE) });
    });
  });
}

/**
 * The environment yt-dlp runs with: enough to start Python, nothing of ours (database URLs,
 * payment keys) and no proxy variables (our own proxy is passed explicitly).
 */
export function ytdlpEnv(): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH ?? "/usr/local/bin:/usr/bin:/bin",
    HOME: process.env.HOME ?? "/tmp",
    LANG: "C.UTF-8",
    LC_ALL: "C.UTF-8",
    PYTHONIOENCODING: "utf-8",
    PYTHONDONTWRITEBYTECODE: "1",
  };
}

const located = new Map<string, Promise<YtdlpBinary | null>>();

/**
 * The yt-dlp to use, or null. An explicit path that does not work stops the server (the operator
 * asked for it); a missing `yt-dlp` on PATH only means "no yt-dlp". Results are kept per path, so
 * engines built side by side (tests) start Python once.
 */
export function locateYtdlp(configured: string | undefined): Promise<YtdlpBinary | null> {
  if (configured !== undefined && (configured.trim() === "" || DISABLED.has(configured.trim().toLowerCase()))) return Promise.resolve(null);
  const key = configured ?? "";
  let hit = located.get(key);
  if (!hit) {
    hit = (async () => {
      const binary = configured ?? "yt-dlp";
      const found = await versionOf(binary);
      // a yt-dlp that could connect anywhere it likes (a frozen build ignores the jail) is not run
      if (found?.confined) return { path: binary, version: found.version };
      if (configured !== undefined) {
        // only the operator sees this (the server stops at start), so the message says what to do
        const text = found
          ? `YTDLP_PATH=${configured} cannot be confined to the server's proxy (it did not load the network jail through PYTHONPATH; a frozen single-file build does not): use the release's Python zipapp \`yt-dlp\`, pip's or the distribution's package, or set YTDLP_PATH=off`
          : `YTDLP_PATH=${configured} is not a working yt-dlp (it gave no version for --version): fix the path, or set YTDLP_PATH=off to run without yt-dlp`;
        throw new EngineError("internal", { detail: text, message: text });
      }
      return null;
    })();
    located.set(key, hit);
    hit.catch(() => located.delete(key));
  }
  return hit;
}
