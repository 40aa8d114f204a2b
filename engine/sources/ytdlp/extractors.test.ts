import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { recordingLogger } from "#tests/support/route-context.ts";
import { extractorCacheFile, loadYtdlpExtractors, parseExtractorList } from "./extractors.ts";

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});
async function cacheDir() {
  const d = await mkdtemp(path.join(tmpdir(), "vidfetch-extractors-"));
  dirs.push(d);
  return path.join(d, "yt-dlp");
}

/** A stand-in for running yt-dlp that counts its runs. */
function fakeRun(output: string | Error) {
  const calls: string[] = [];
  return {
    calls,
    run: (binary: string) => {
      calls.push(binary);
      return output instanceof Error ? Promise.reject(output) : Promise.resolve(output);
    },
  };
}

const LISTING = "17live\n17live:clip\nyoutube\nyoutube:tab\nspotify (CURRENTLY BROKEN)\n\ngeneric\n";
const binary = { path: "/usr/local/bin/yt-dlp", version: "2026.11.01" };

describe("parseExtractorList", () => {
  it("reads one extractor a line and the broken mark", () => {
    expect(parseExtractorList(LISTING)).toEqual([
      { name: "17live", broken: false },
      { name: "17live:clip", broken: false },
      { name: "youtube", broken: false },
      { name: "youtube:tab", broken: false },
      { name: "spotify", broken: true },
      { name: "generic", broken: false },
    ]);
  });

  it("skips what is not a name (a warning on stdout) and repeats", () => {
    expect(parseExtractorList("WARNING: something odd happened\nvimeo\nvimeo\r\nyoutube:search:date\nTraceback (most recent call last):\nERROR:\n").map((e) => e.name)).toEqual([
      "vimeo",
      "youtube:search:date",
    ]);
  });

  it("keeps the names yt-dlp 2023.03 really lists with a space or a non-ASCII letter", () => {
    expect(parseExtractorList("Bilibili category extractor\nsouthpark.cc.com:español\n").map((e) => e.name)).toEqual(["Bilibili category extractor", "southpark.cc.com:español"]);
  });
});

describe("loadYtdlpExtractors", () => {
  it("without yt-dlp: absent at once, nothing run", async () => {
    const list = loadYtdlpExtractors(null, {
      logger: recordingLogger().logger,
    });
    expect(list.current()).toEqual({ state: "absent" });
    expect(await list.settled).toEqual({ state: "absent" });
  });

  it("answers 'reading' at once, then the list; kept on disk by version, so a restart runs nothing", async () => {
    const dir = await cacheDir();
    const first = fakeRun(LISTING);
    const list = loadYtdlpExtractors(binary, {
      cacheDir: dir,
      logger: recordingLogger().logger,
      run: first.run,
    });
    expect(list.current()).toEqual({ state: "reading", version: "2026.11.01" });
    const ready = await list.settled;
    expect(ready).toMatchObject({ state: "ready", version: "2026.11.01" });
    expect(list.current()).toBe(ready);
    expect(first.calls).toEqual(["/usr/local/bin/yt-dlp"]);
    expect(JSON.parse(await readFile(extractorCacheFile(dir, "2026.11.01"), "utf8"))).toMatchObject({
      version: "2026.11.01",
      extractors: expect.arrayContaining([{ name: "spotify", broken: true }]),
    });

    const again = fakeRun(LISTING);
    const restarted = loadYtdlpExtractors(binary, {
      cacheDir: dir,
      logger: recordingLogger().logger,
      run: again.run,
    });
    expect(await restarted.settled).toEqual(ready);
    expect(again.calls).toEqual([]);

    // a new yt-dlp is listed afresh
    const updated = fakeRun("vimeo\n");
    const newer = loadYtdlpExtractors({ ...binary, version: "2026.11.20" }, { cacheDir: dir, logger: recordingLogger().logger, run: updated.run });
    expect(await newer.settled).toEqual({
      state: "ready",
      version: "2026.11.20",
      extractors: [{ name: "vimeo", broken: false }],
    });
    expect(updated.calls).toHaveLength(1);
  });

  it("a damaged cache file is listed again and rewritten, with a warning", async () => {
    const dir = await cacheDir();
    await loadYtdlpExtractors(binary, {
      cacheDir: dir,
      logger: recordingLogger().logger,
      run: fakeRun(LISTING).run,
    }).settled;
    await writeFile(extractorCacheFile(dir, binary.version), "{not json");
    const { logger, lines } = recordingLogger();
    const rerun = fakeRun("vimeo\n");
    expect(
      await loadYtdlpExtractors(binary, {
        cacheDir: dir,
        logger,
        run: rerun.run,
      }).settled,
    ).toMatchObject({
      state: "ready",
      extractors: [{ name: "vimeo", broken: false }],
    });
    expect(rerun.calls).toHaveLength(1);
    expect(lines.map((l) => l.msg)).toEqual(["yt-dlp's kept extractor list is unreadable: listing again"]);
    expect(JSON.parse(await readFile(extractorCacheFile(dir, binary.version), "utf8")).extractors).toEqual([{ name: "vimeo", broken: false }]);
  });

  it("a failing or empty listing: 'failed' with a warning, nothing kept", async () => {
    const dir = await cacheDir();
    for (const output of [new Error("Command failed: yt-dlp --list-extractors"), "Traceback (most recent call last):\n"]) {
      const { logger, lines } = recordingLogger();
      const list = loadYtdlpExtractors(binary, {
        cacheDir: dir,
        logger,
        run: fakeRun(output).run,
      });
      expect(await list.settled).toEqual({
        state: "failed",
        version: "2026.11.01",
      });
      expect(lines).toEqual([
        expect.objectContaining({
          level: 40,
          msg: "yt-dlp --list-extractors failed: the supported-sites page cannot list what it reads",
        }),
      ]);
    }
    await expect(readFile(extractorCacheFile(dir, binary.version))).rejects.toThrow(/ENOENT/);
  });

  it("stop() ends a listing still running", async () => {
    let started: AbortSignal | undefined;
    const list = loadYtdlpExtractors(binary, {
      logger: recordingLogger().logger,
      run: (_binary, signal) =>
        new Promise((_resolve, reject) => {
          started = signal;
          signal.addEventListener("abort", () => reject(new Error("aborted")));
        }),
    });
    await new Promise((r) => setTimeout(r, 10));
    expect(list.current().state).toBe("reading");
    await list.stop();
    expect(started?.aborted).toBe(true);
    expect(list.current()).toEqual({ state: "failed", version: "2026.11.01" });
  });

  it("the version names the cache file, never a path", () => {
    expect(path.basename(extractorCacheFile("/data/yt-dlp", "../../etc/x"))).toBe("extractors-.._.._etc_x.json");
  });
});
