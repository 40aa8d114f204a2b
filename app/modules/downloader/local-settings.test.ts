import { describe, expect, it } from "vitest";
import {
  SETTINGS_KEY,
  clearQueue,
  dequeue,
  enqueue,
  parseQueueEntry,
  queueEntry,
  readSettings,
  sourceUrlFor,
  updateSettings,
  writeSettings,
} from "./local-settings.ts";

function memoryStorage(initial: Record<string, string> = {}) {
  const data = new Map(Object.entries(initial));
  return {
    data,
    getItem: (k: string) => data.get(k) ?? null,
    setItem: (k: string, v: string) => void data.set(k, v),
  };
}

describe("offline queue entries", () => {
  it("are videoId:formatId strings (spec §3)", () => {
    expect(queueEntry("vidfetchAll", "mp4-720")).toBe("vidfetchAll:mp4-720");
    expect(parseQueueEntry("vidfetchAll:mp4-720")).toEqual({ videoId: "vidfetchAll", formatId: "mp4-720", key: "mp4-720" });
  });

  it("carry a subtitle download's language, so a queued German SRT stays German", () => {
    expect(queueEntry("vidfetchSub", "srt", "de")).toBe("vidfetchSub:srt@de");
    expect(queueEntry("vidfetchSub", "srt", "")).toBe("vidfetchSub:srt");
    expect(parseQueueEntry("vidfetchSub:srt@de")).toEqual({ videoId: "vidfetchSub", formatId: "srt", language: "de", key: "srt@de" });
    expect(parseQueueEntry("vidfetchSub:srt@")).toBeNull();
    expect(parseQueueEntry("vidfetchSub:@de")).toBeNull();
    expect(parseQueueEntry("vidfetchSub:srt@de@fr")).toBeNull();
  });

  it("keep a download's media options, and read back the same options (old entries have none)", () => {
    const media = {
      tags: false,
      clip: { start: 62.5, end: 92, exact: true as const },
      audioLanguage: "pt-BR",
      normalize: true,
      sponsorblock: { categories: ["sponsor" as const, "interaction" as const], action: "chapters" as const },
    };
    const entry = queueEntry("a:b", "mp3-128", undefined, media);
    expect(entry).toBe("a:b:mp3-128?tags=0&start=62.5&end=92&exact=1&audio=pt-BR&normalize=1&sb=sponsor%2Cinteraction&sba=chapters");
    expect(parseQueueEntry(entry)).toEqual({ videoId: "a:b", formatId: "mp3-128", key: entry.slice(4), media });
    const clip = queueEntry("vidfetchAll", "mp4-720", undefined, { clip: { end: 30 }, normalize: undefined, sponsorblock: { categories: [], action: "cut" } });
    expect(clip).toBe("vidfetchAll:mp4-720?end=30");
    expect(parseQueueEntry(clip)?.media).toEqual({ clip: { end: 30 } });
    expect(queueEntry("vidfetchSub", "srt", "de", {})).toBe("vidfetchSub:srt@de");
    expect(parseQueueEntry("vidfetchSub:srt@de?tags=0")).toEqual({ videoId: "vidfetchSub", formatId: "srt", language: "de", key: "srt@de?tags=0", media: { tags: false } });
    for (const bad of ["v:mp3-128?start=soon", "v:mp3-128?sb=sponsor,ads", "v:mp3-128?sb=intro&sba=skip", "v:mp3-128?tags=1", "v:mp3-128?audio="]) expect(parseQueueEntry(bad)).toBeNull();
  });

  it("keep subtitles in the video and a split by chapter, in the API's query names", () => {
    const burn = queueEntry("vidfetchCap", "mp4-720", undefined, { subtitles: { language: "pt-BR", mode: "burn" }, chapters: "split" });
    expect(burn).toBe("vidfetchCap:mp4-720?subtitles=pt-BR&subtitlesMode=burn&chapters=split");
    expect(parseQueueEntry(burn)?.media).toEqual({ subtitles: { language: "pt-BR", mode: "burn" }, chapters: "split" });
    // a selectable track is the query's default mode
    const soft = queueEntry("vidfetchCap", "webm", undefined, { subtitles: { language: "de", mode: "soft" } });
    expect(soft).toBe("vidfetchCap:webm?subtitles=de");
    expect(parseQueueEntry(soft)?.media).toEqual({ subtitles: { language: "de", mode: "soft" } });
    for (const bad of ["v:mp4-720?subtitles=", "v:mp4-720?subtitles=../x", "v:mp4-720?subtitles=de&subtitlesMode=hard", "v:mp4-720?subtitlesMode=burn", "v:mp3-128?chapters=join"]) {
      expect(parseQueueEntry(bad)).toBeNull();
    }
  });

  it("label the same format with other options apart, and keep them apart in the queue", () => {
    const s0 = readSettings(memoryStorage());
    const one = enqueue(s0, { videoId: "vidfetchAll", formatId: "mp3-128", label: "MP3 128 Standard" }).settings;
    const two = enqueue(one, { videoId: "vidfetchAll", formatId: "mp3-128", media: { normalize: true }, label: "MP3 128 Standard (loudness evened out)" });
    expect(two.added).toBe(true);
    expect(two.settings.downloadQueue).toEqual(["vidfetchAll:mp3-128", "vidfetchAll:mp3-128?normalize=1"]);
    expect(two.settings.queueLabels).toEqual({ "mp3-128": "MP3 128 Standard", "mp3-128?normalize=1": "MP3 128 Standard (loudness evened out)" });
    expect(enqueue(two.settings, { videoId: "vidfetchAll", formatId: "mp3-128", media: { normalize: true } }).added).toBe(false);
    expect(dequeue(two.settings, "vidfetchAll:mp3-128").queueLabels).toEqual({ "mp3-128?normalize=1": "MP3 128 Standard (loudness evened out)" });
    const store = memoryStorage();
    writeSettings(two.settings, store);
    expect(readSettings(store).downloadQueue).toEqual(two.settings.downloadQueue);
  });

  it("split at the last colon and refuse malformed entries", () => {
    expect(parseQueueEntry("a:b:mp3-128")).toEqual({ videoId: "a:b", formatId: "mp3-128", key: "mp3-128" });
    expect(parseQueueEntry("nocolon")).toBeNull();
    expect(parseQueueEntry(":mp4-720")).toBeNull();
    expect(parseQueueEntry("abc:")).toBeNull();
  });
});

describe("local settings", () => {
  it("start from the defaults", () => {
    expect(readSettings(memoryStorage())).toEqual({ lastOnline: null, offlineMode: false, autoProcessQueue: false, downloadQueue: [], queueSources: {}, queueLabels: {} });
  });

  it("survive a round trip through storage", () => {
    const store = memoryStorage();
    const s = enqueue(readSettings(store), { videoId: "vidfetchAll", formatId: "mp4-720", label: "MP4 720p HD" }).settings;
    writeSettings({ ...s, offlineMode: true, autoProcessQueue: true, lastOnline: "2026-11-21T10:00:00.000Z" }, store);
    expect(JSON.parse(store.data.get(SETTINGS_KEY)!)).toMatchObject({ downloadQueue: ["vidfetchAll:mp4-720"], offlineMode: true });
    expect(readSettings(store)).toEqual({
      lastOnline: "2026-11-21T10:00:00.000Z",
      offlineMode: true,
      autoProcessQueue: true,
      downloadQueue: ["vidfetchAll:mp4-720"],
      queueSources: {},
      // after a reload the queue still names the format as the page did
      queueLabels: { "mp4-720": "MP4 720p HD" },
    });
  });

  it("repair corrupt or foreign values instead of failing", () => {
    expect(readSettings(memoryStorage({ [SETTINGS_KEY]: "{not json" })).downloadQueue).toEqual([]);
    const odd = memoryStorage({ [SETTINGS_KEY]: JSON.stringify({ downloadQueue: ["ok:mp3-128", 42, "bad"], offlineMode: "yes", queueSources: { x: 1, y: "https://a/b.mp4" } }) });
    const s = readSettings(odd);
    expect(s.downloadQueue).toEqual(["ok:mp3-128"]);
    expect(s.offlineMode).toBe(false);
    expect(s.queueSources).toEqual({ y: "https://a/b.mp4" });
  });

  it("update writes the changed copy", () => {
    const store = memoryStorage();
    updateSettings((s) => ({ ...s, autoProcessQueue: true }), store);
    expect(readSettings(store).autoProcessQueue).toBe(true);
  });
});

describe("queue operations", () => {
  const empty = readSettings(memoryStorage());

  it("do not queue the same download twice", () => {
    const once = enqueue(empty, { videoId: "vidfetchAll", formatId: "mp3-128" });
    expect(once.added).toBe(true);
    const twice = enqueue(once.settings, { videoId: "vidfetchAll", formatId: "mp3-128" });
    expect(twice.added).toBe(false);
    expect(twice.settings.downloadQueue).toEqual(["vidfetchAll:mp3-128"]);
  });

  it("remember the link of non-YouTube media and forget it with the last entry", () => {
    let s = enqueue(empty, { videoId: "generic-1", formatId: "mp4-360", sourceUrl: "https://media.example.test/files/sample-360p.mp4" }).settings;
    s = enqueue(s, { videoId: "generic-1", formatId: "mp3-128", sourceUrl: "https://media.example.test/files/sample-360p.mp4" }).settings;
    expect(sourceUrlFor(s, "generic-1")).toBe("https://media.example.test/files/sample-360p.mp4");
    s = dequeue(s, "generic-1:mp4-360");
    expect(sourceUrlFor(s, "generic-1")).toBe("https://media.example.test/files/sample-360p.mp4");
    s = dequeue(s, "generic-1:mp3-128");
    expect(s.queueSources).toEqual({});
    expect(sourceUrlFor(s, "generic-1")).toBeNull();
  });

  it("rebuild the watch link of a YouTube id", () => {
    expect(sourceUrlFor(empty, "vidfetchAll")).toBe("https://www.youtube.com/watch?v=vidfetchAll");
  });

  it("clear everything", () => {
    const s = enqueue(empty, { videoId: "x", formatId: "webm", sourceUrl: "https://a/b.mp4" }).settings;
    expect(clearQueue(s)).toMatchObject({ downloadQueue: [], queueSources: {}, queueLabels: {} });
  });

  it("keep a format's label while an entry of that format waits", () => {
    let s = enqueue(empty, { videoId: "a", formatId: "mp3-128", label: "MP3 128 Standard" }).settings;
    s = enqueue(s, { videoId: "b", formatId: "mp3-128", label: "MP3 128 Standard" }).settings;
    s = dequeue(s, "a:mp3-128");
    expect(s.queueLabels).toEqual({ "mp3-128": "MP3 128 Standard" });
    s = dequeue(s, "b:mp3-128");
    expect(s.queueLabels).toEqual({});
  });

  it("queue the same subtitles in two languages as two entries, each with its own label", () => {
    let r = enqueue(empty, { videoId: "vidfetchSub", formatId: "srt", language: "de", label: "SRT Subtitles (German)" });
    r = enqueue(r.settings, { videoId: "vidfetchSub", formatId: "srt", label: "SRT Subtitles" });
    expect(r.added).toBe(true);
    expect(enqueue(r.settings, { videoId: "vidfetchSub", formatId: "srt", language: "de" }).added).toBe(false);
    let s = r.settings;
    expect(s.downloadQueue).toEqual(["vidfetchSub:srt@de", "vidfetchSub:srt"]);
    expect(s.queueLabels).toEqual({ "srt@de": "SRT Subtitles (German)", srt: "SRT Subtitles" });
    expect(readSettings(memoryStorage({ [SETTINGS_KEY]: JSON.stringify(s) })).downloadQueue).toEqual(["vidfetchSub:srt@de", "vidfetchSub:srt"]);
    s = dequeue(s, "vidfetchSub:srt");
    expect(s.queueLabels).toEqual({ "srt@de": "SRT Subtitles (German)" });
  });
});
