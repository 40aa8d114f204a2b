/**
 * One yt-dlp metadata run: `yt-dlp -J --no-download` for one link, the link passed as an
 * argument (no shell), through our forwarding proxy, in a scratch-free environment. The process
 * is killed on timeout and on teardown (SIGTERM, then SIGKILL after a grace period), like ffmpeg.
 */
import { spawn } from "node:child_process";
import { EngineError } from "../../errors.ts";
import { ytdlpEnv } from "./locate.ts";
import { jailEnv } from "./network-jail.ts";

export interface RunOptions {
  binary: string;
  url: string;
  proxyUrl: string;
  timeoutMs: number;
  /** aborted = kill now (engine closing) */
  signal?: AbortSignal;
  /** aborted = nobody waits for this run any more (its clients left): kill now */
  cancel?: AbortSignal;
  killGraceMs?: number;
  /** list the link's playlist flat (its entries' links and titles, no video read) up to this many entries */
  playlistEnd?: number;
  /** YOUTUBE_POT_PROVIDER_URL: handed to bgutil's yt-dlp plugin, when the operator installed it */
  potProviderUrl?: string;
}

/** A metadata document is a few hundred KB; a hundred MB is not metadata. */
const MAX_STDOUT_BYTES = 64 * 1024 * 1024;
const MAX_STDERR_BYTES = 64 * 1024;

export interface RunOutput {
  stdout: string;
  stderr: string;
}

/** The arguments of a metadata run; exported for the tests that check no option can be injected. */
export function ytdlpArgs(url: string, proxyUrl: string, timeoutMs: number): string[] {
  return runArgs(url, proxyUrl, timeoutMs, ["--no-download", "--no-playlist"]);
}

/**
 * The arguments of a flat playlist listing (`--flat-playlist -J`): each entry's link, title and
 * duration as the playlist page gives them, the videos themselves not read; at most `end` entries.
 */
export function ytdlpPlaylistArgs(url: string, proxyUrl: string, timeoutMs: number, end: number): string[] {
  return runArgs(url, proxyUrl, timeoutMs, ["--flat-playlist", "--yes-playlist", "--playlist-end", String(Math.max(1, Math.floor(end)))]);
}

/**
 * bgutil's yt-dlp plugin (its HTTP provider, `youtubepot-bgutilhttp`) asks the token provider
 * our ladder asks; without the plugin yt-dlp ignores these arguments.
 */
export function potProviderArgs(potProviderUrl: string | undefined): string[] {
  return potProviderUrl ? ["--extractor-args", `youtubepot-bgutilhttp:base_url=${potProviderUrl.replace(/\/+$/, "")}`] : [];
}

/** every run: no user or system config can change what runs, no cache, one JSON answer, through our proxy */
function runArgs(url: string, proxyUrl: string, timeoutMs: number, mode: string[]): string[] {
  return [
    "--ignore-config",
    "--no-cache-dir",
    "--dump-single-json",
    ...mode,
    "--no-progress",
    "--proxy",
    proxyUrl,
    "--socket-timeout",
    String(Math.max(1, Math.ceil(timeoutMs / 3000))),
    "--",
    url,
  ];
}

export function runYtdlp(opts: RunOptions): Promise<RunOutput> {
  const killGraceMs = opts.killGraceMs ?? 2000;
  return new Promise((resolve, reject) => {
    if (opts.signal?.aborted) {
      reject(new EngineError("download.busy", { detail: "the engine is closing" }));
      return;
    }
    if (opts.cancel?.aborted) {
      reject(new EngineError("download.failed", { detail: "nobody waits for this resolve any more" }));
      return;
    }
    const args = [
      ...potProviderArgs(opts.potProviderUrl),
      ...(opts.playlistEnd === undefined ? ytdlpArgs(opts.url, opts.proxyUrl, opts.timeoutMs) : ytdlpPlaylistArgs(opts.url, opts.proxyUrl, opts.timeoutMs, opts.playlistEnd)),
    ];
    const child = spawn(opts.binary, args, {
      // it may connect to the proxy and nowhere else, whatever the scheme (network-jail.ts)
      // the PO-token plugin calls its provider directly, not through the proxy
      env: { ...ytdlpEnv(), ...jailEnv(opts.proxyUrl, { alsoConnect: opts.potProviderUrl ? [opts.potProviderUrl] : [] }) },
      stdio: ["ignore", "pipe", "pipe"],
      // its own process group: a wrapper script's children are killed with it
      detached: true,
    });
    const out: Buffer[] = [];
    let outBytes = 0;
    let err = "";
    let failure: EngineError | null = null;
    let killTimer: NodeJS.Timeout | null = null;

    const kill = (reason: EngineError) => {
      failure ??= reason;
      if (child.exitCode !== null || child.signalCode !== null) return;
      signalGroup("SIGTERM");
      killTimer ??= setTimeout(() => signalGroup("SIGKILL"), killGraceMs);
    };
    const signalGroup = (sig: NodeJS.Signals) => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, sig);
      } catch {
        // the group is gone already: nothing left to stop
        child.kill(sig);
      }
    };
    const timer = setTimeout(() => kill(new EngineError("upstream.timeout", { detail: `yt-dlp took longer than ${opts.timeoutMs} ms` })), opts.timeoutMs);
    const onAbort = () => kill(new EngineError("download.busy", { detail: "the engine is closing" }));
    opts.signal?.addEventListener("abort", onAbort, { once: true });
    const onCancel = () => kill(new EngineError("download.failed", { detail: "nobody waits for this resolve any more" }));
    opts.cancel?.addEventListener("abort", onCancel, { once: true });

    child.stdout.on("data", (chunk: Buffer) => {
      outBytes += chunk.length;
      if (outBytes > MAX_STDOUT_BYTES) kill(new EngineError("upstream.too_large", { detail: "yt-dlp printed more than 64 MB" }));
      else out.push(chunk);
    });
    child.stderr.on("data", (chunk: Buffer) => {
      if (err.length < MAX_STDERR_BYTES) err += chunk.toString("utf8");
    });
    child.on("error", (e) => kill(new EngineError("internal", { detail: `yt-dlp could not start: ${e.message}`, cause: e })));
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      if (killTimer) clearTimeout(killTimer);
      opts.signal?.removeEventListener("abort", onAbort);
      opts.cancel?.removeEventListener("abort", onCancel);
      const stderr = err.slice(0, MAX_STDERR_BYTES);
      if (failure) return reject(failure);
      const stdout = Buffer.concat(out).toString("utf8");
      if (code !== 0) {
        return reject(Object.assign(new EngineError("upstream.fetch_failed", { detail: `yt-dlp exited with ${code ?? signal}` }), { stderr }));
      }
      resolve({ stdout, stderr });
    });
  });
}

/** The stderr of a failed run, when there was one (for classifying the failure). */
export function stderrOf(err: unknown): string {
  const s = (err as { stderr?: unknown } | null)?.stderr;
  return typeof s === "string" ? s : "";
}
