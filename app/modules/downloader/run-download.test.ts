import { describe, expect, it } from "vitest";
import { ApiError, type DownloadTicket } from "./api-client.ts";
import { followDownload, parseProgress, runDownload, type ProgressEvent, type ProgressSubscribe } from "./run-download.ts";

const ticket: DownloadTicket = { id: "dl1", downloadUrl: "/api/v1/dl/token", filename: "Sample (720p).mp4", expiresAt: "2026-11-21T20:00:00Z", bytes: 1000 };

/** A progress stream that replays the given events asynchronously, after the save. */
function scripted(events: ProgressEvent[], opts: { thenUnavailable?: boolean } = {}) {
  const log: string[] = [];
  const subscribe: ProgressSubscribe = (id, { onEvent, onUnavailable }) => {
    log.push(`subscribe ${id}`);
    let closed = false;
    void (async () => {
      for (const e of events) {
        await new Promise((r) => setTimeout(r, 1));
        if (closed) return;
        onEvent(e);
      }
      if (opts.thenUnavailable && !closed) onUnavailable();
    })();
    return () => {
      closed = true;
      log.push("unsubscribe");
    };
  };
  return { log, subscribe };
}

describe("runDownload", () => {
  it("asks for a link, subscribes before saving, and ends when the server reports the file done", async () => {
    const { log, subscribe } = scripted([
      { bytes: 0, total: 1000, state: "queued" },
      { bytes: 400, total: 1000, state: "streaming" },
      { bytes: 1000, total: 1000, state: "done" },
    ]);
    const seen: ProgressEvent[] = [];
    const outcome = await runDownload(
      { url: "https://youtu.be/vidfetchAll", format: "mp4-720", onProgress: (p) => seen.push(p) },
      {
        request: async (url, format) => {
          log.push(`request ${url} ${format}`);
          return ticket;
        },
        subscribe,
        save: (href, name) => log.push(`save ${href} ${name}`),
      },
    );
    expect(outcome).toEqual({ ticket, tracked: true });
    expect(log).toEqual(["request https://youtu.be/vidfetchAll mp4-720", "subscribe dl1", "save /api/v1/dl/token Sample (720p).mp4", "unsubscribe"]);
    expect(seen.map((p) => p.bytes)).toEqual([0, 400, 1000]);
  });

  it("asks for the link with the picked media options, and none of the progress handlers", async () => {
    const { subscribe } = scripted([{ bytes: 10, total: 10, state: "done" }]);
    const asked: unknown[] = [];
    const sponsorblock = { categories: ["intro" as const], action: "cut" as const };
    await runDownload(
      { url: "https://youtu.be/vidfetchAll", format: "mp3-128", tags: false, clip: { start: 5 }, normalize: true, sponsorblock, onProgress: () => {} },
      { request: async (_url, _format, opts) => (asked.push(opts), ticket), subscribe, save: () => {} },
    );
    expect(asked).toEqual([{ signal: undefined, tags: false, clip: { start: 5 }, normalize: true, sponsorblock }]);
  });

  it("rejects with a retryable error when the stream fails mid-file", async () => {
    const { subscribe } = scripted([
      { bytes: 200, total: 1000, state: "streaming" },
      { bytes: 200, total: 1000, state: "failed" },
    ]);
    const err = await runDownload({ url: "u", format: "mp4-720" }, { request: async () => ticket, subscribe, save: () => {} }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).code).toBe("download.failed");
    expect((err as ApiError).status).toBe(500);
  });

  it("reports a cancelled download as such, not as a failure to retry", async () => {
    const { subscribe } = scripted([{ bytes: 10, total: 1000, state: "aborted" }]);
    const err = await runDownload({ url: "u", format: "mp3-128" }, { request: async () => ticket, subscribe, save: () => {} }).catch((e: unknown) => e);
    expect((err as ApiError).code).toBe("download.cancelled");
  });

  it("lets the browser own the file when progress cannot be followed at all", async () => {
    const { subscribe } = scripted([], { thenUnavailable: true });
    const outcome = await runDownload({ url: "u", format: "thumbnail-hd" }, { request: async () => ticket, subscribe, save: () => {} });
    expect(outcome.tracked).toBe(false);
  });

  it("fails when the progress stream is lost before the end", async () => {
    const { subscribe } = scripted([{ bytes: 10, total: 1000, state: "streaming" }], { thenUnavailable: true });
    const err = await runDownload({ url: "u", format: "mp4-720" }, { request: async () => ticket, subscribe, save: () => {} }).catch((e: unknown) => e);
    expect((err as ApiError).code).toBe("download.failed");
  });

  it("fails a download that never starts moving", async () => {
    const { subscribe } = scripted([{ bytes: 0, total: 1000, state: "queued" }]);
    const err = await runDownload({ url: "u", format: "mp4-720" }, { request: async () => ticket, subscribe, save: () => {}, stallTimeoutMs: 30 }).catch((e: unknown) => e);
    expect((err as ApiError).code).toBe("download.stalled");
  });

  it("does not save anything when the API refuses the link", async () => {
    const saved: string[] = [];
    const err = await runDownload(
      { url: "u", format: "mp4-2160" },
      {
        request: async () => {
          throw new ApiError("format.premium", "This format is a premium feature. Upgrade to Premium to download it.", 403);
        },
        subscribe: () => () => {},
        save: (h) => saved.push(h),
      },
    ).catch((e: unknown) => e);
    expect((err as ApiError).status).toBe(403);
    expect(saved).toEqual([]);
  });
});

describe("a failed download's cause", () => {
  it("reads the engine's code and words from a failed event, and rejects with them instead of the generic failure", async () => {
    const event = parseProgress(JSON.stringify({ bytes: 0, total: 10, state: "failed", error: { code: "upstream.refused", message: "The platform refused to send this video to our server. Please try again later." } }));
    expect(event).toEqual({ bytes: 0, total: 10, state: "failed", code: "upstream.refused", message: "The platform refused to send this video to our server. Please try again later." });
    const { subscribe } = scripted([event!]);
    const err = await followDownload(ticket, {}, { subscribe, save: () => {} }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect([(err as ApiError).code, (err as ApiError).message]).toEqual(["upstream.refused", "The platform refused to send this video to our server. Please try again later."]);
    // an older server's failed event without a cause: the generic words
    const bare = await followDownload(ticket, {}, { subscribe: scripted([{ bytes: 0, total: 10, state: "failed" }]).subscribe, save: () => {} }).catch((e: unknown) => e);
    expect([(bare as ApiError).code, (bare as ApiError).message]).toEqual(["download.failed", "The download stopped before the file was complete. Please try again."]);
  });
});

describe("parseProgress", () => {
  it("reads the SSE payload and ignores anything else", () => {
    expect(parseProgress('{"bytes":5,"total":10,"state":"streaming"}')).toEqual({ bytes: 5, total: 10, state: "streaming", message: undefined });
    expect(parseProgress('{"bytes":5,"total":null,"state":"queued"}')?.total).toBeNull();
    expect(parseProgress('{"state":"failed","error":{"message":"Boom"}}')?.message).toBe("Boom");
    expect(parseProgress("keep-alive")).toBeNull();
    expect(parseProgress('{"bytes":1}')).toBeNull();
  });
});

describe("a ZIP's files in the progress events", () => {
  const event = {
    bytes: 2048,
    total: null,
    state: "streaming",
    files: {
      total: 4,
      done: 2,
      failed: 1,
      items: [
        { status: "done", title: "Sample clip in every quality" },
        { status: "failed", title: null, error: "This video is private." },
        { status: "running", title: "Sample clip with captions" },
        { status: "pending", title: null },
      ],
    },
  };

  it("reads each file's state, title and error", () => {
    expect(parseProgress(JSON.stringify(event))).toEqual({ bytes: 2048, total: null, state: "streaming", message: undefined, files: event.files });
  });

  it("leaves a single file's event without files, and reads odd items as waiting", () => {
    expect(parseProgress('{"bytes":5,"total":10,"state":"streaming"}')).not.toHaveProperty("files");
    const odd = parseProgress(JSON.stringify({ bytes: 0, state: "queued", files: { items: [{ status: "exploded", title: 3 }, null] } }));
    expect(odd?.files).toEqual({ total: 2, done: 0, failed: 0, items: [{ status: "pending", title: null }, { status: "pending", title: null }] });
  });

  it("followDownload hands a ZIP's files on and ends when the archive is done", async () => {
    const zipTicket: DownloadTicket = { ...ticket, id: "zip1", filename: "VidFetch sample playlist.zip", bytes: null };
    const done = { ...event, state: "done", files: { ...event.files, done: 3, items: event.files.items.map((i) => (i.status === "failed" ? i : { ...i, status: "done" })) } };
    const { log, subscribe } = scripted([parseProgress(JSON.stringify(event))!, parseProgress(JSON.stringify(done))!]);
    const seen: ProgressEvent[] = [];
    const outcome = await followDownload(zipTicket, { onProgress: (p) => seen.push(p) }, { subscribe, save: (href, name) => log.push(`save ${name}`) });
    expect(outcome).toEqual({ ticket: zipTicket, tracked: true });
    expect(log).toEqual(["subscribe zip1", "save VidFetch sample playlist.zip", "unsubscribe"]);
    expect(seen.map((p) => p.files?.items.map((i) => i.status))).toEqual([
      ["done", "failed", "running", "pending"],
      ["done", "failed", "done", "done"],
    ]);
  });

  it("a ZIP moving on to its next file is movement: the stall timer starts again", async () => {
    const step = (statuses: string[]) => ({ bytes: 100, total: null, state: "streaming", files: { total: 2, done: 0, failed: 0, items: statuses.map((status) => ({ status, title: null })) } }) as ProgressEvent;
    const events = [step(["running", "pending"]), step(["done", "running"]), { ...step(["done", "done"]), state: "done" }];
    // each event comes 30 ms after the last, with the same bytes; the stall limit is 45 ms
    const subscribe: ProgressSubscribe = (_id, { onEvent }) => {
      const timers = events.map((e, i) => setTimeout(() => onEvent(e), 30 * (i + 1)));
      return () => timers.forEach(clearTimeout);
    };
    const outcome = await followDownload(ticket, {}, { subscribe, save: () => {}, stallTimeoutMs: 45 });
    expect(outcome.tracked).toBe(true);
  });
});
