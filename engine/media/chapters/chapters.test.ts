import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { chaptersFromDescription, chaptersFromNext, clipChapters, ffmetadata, timestampSeconds } from "./chapters.ts";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const fixtures = path.resolve(process.env.VIDFETCH_FIXTURES_DIR || path.resolve(repoRoot, "../shared/fixtures"), "youtube/bodies");
const nextFixture = path.join(fixtures, "next_web_M4gD1WSo5mA_2026-06.json");
const playerFixture = path.join(fixtures, "player_visionos_M4gD1WSo5mA_2026-06.json");

describe("timestampSeconds", () => {
  it("reads m:ss and h:mm:ss, refuses the rest", () => {
    expect(timestampSeconds("0:00")).toBe(0);
    expect(timestampSeconds("12:34")).toBe(754);
    expect(timestampSeconds("1:02:03")).toBe(3723);
    expect(timestampSeconds("1:60")).toBeNull();
    expect(timestampSeconds("1:75:00")).toBeNull();
    expect(timestampSeconds("abc")).toBeNull();
  });
});

describe("chaptersFromDescription", () => {
  it("reads lines that start with a timestamp, skipping the other lines", () => {
    const text = "My video.\n\n0:00 Intro\n1:15 - The build\n[2:30] Wiring\n\nFollow me on the web: example.test\n10:05 Outro";
    expect(chaptersFromDescription(text, 700)).toEqual([
      { title: "Intro", start: 0, end: 75 },
      { title: "The build", start: 75, end: 150 },
      { title: "Wiring", start: 150, end: 605 },
      { title: "Outro", start: 605, end: 700 },
    ]);
  });

  it("reads lines that end with a timestamp when none start with one", () => {
    expect(chaptersFromDescription("Intro 0:00\nMiddle part - 1:00:00\nEnd (1:30:10)", 6000)).toEqual([
      { title: "Intro", start: 0, end: 3600 },
      { title: "Middle part", start: 3600, end: 5410 },
      { title: "End", start: 5410, end: 6000 },
    ]);
  });

  it("is no chapters when the first is not at 0:00, there is only one, times go back or pass the end", () => {
    expect(chaptersFromDescription("0:30 A\n1:00 B", 120)).toBeNull();
    expect(chaptersFromDescription("0:00 Only", 120)).toBeNull();
    expect(chaptersFromDescription("0:00 A\n1:00 B\n0:50 C", 120)).toBeNull();
    expect(chaptersFromDescription("0:00 A\n3:00 B", 120)).toBeNull();
    expect(chaptersFromDescription("", 120)).toBeNull();
  });

  it("finds none in the recorded description (it has no timestamps)", { skip: !existsSync(playerFixture) }, () => {
    const player = JSON.parse(readFileSync(playerFixture, "utf8")) as { videoDetails: { shortDescription: string; lengthSeconds: string } };
    expect(player.videoDetails.shortDescription.length).toBeGreaterThan(100);
    expect(chaptersFromDescription(player.videoDetails.shortDescription, Number(player.videoDetails.lengthSeconds))).toBeNull();
  });
});

describe("chaptersFromNext", () => {
  const chapter = (title: string, ms: number) => ({ chapterRenderer: { title: { simpleText: title }, timeRangeStartMillis: ms } });
  const playerBar = (chapters: unknown[]) => ({
    playerOverlays: {
      playerOverlayRenderer: {
        decoratedPlayerBarRenderer: {
          decoratedPlayerBarRenderer: { playerBar: { multiMarkersPlayerBarRenderer: { markersMap: [{ key: "DESCRIPTION_CHAPTERS", value: { chapters } }] } } },
        },
      },
    },
  });

  it("reads the player bar's chapter renderers", () => {
    expect(chaptersFromNext(playerBar([chapter("Start", 0), chapter("Middle", 61_500)]), 120)).toEqual([
      { title: "Start", start: 0, end: 61.5 },
      { title: "Middle", start: 61.5, end: 120 },
    ]);
  });

  describe("on the recorded response", { skip: !existsSync(nextFixture) }, () => {
    type Markers = { contents: Array<{ macroMarkersListItemRenderer: { timeDescription: { simpleText: string }; title: { simpleText: string } } }> };
    type Panel = { engagementPanelSectionListRenderer?: { content?: { macroMarkersListRenderer?: Markers } } };
    const next = () => JSON.parse(readFileSync(nextFixture, "utf8")) as { engagementPanels: Panel[] };
    const markersPanel = (n: ReturnType<typeof next>): Markers =>
      n.engagementPanels.find((p) => p.engagementPanelSectionListRenderer?.content?.macroMarkersListRenderer)!.engagementPanelSectionListRenderer!.content!.macroMarkersListRenderer!;

    it("takes its Key moments (markers from 8:45 on) for no chapters", () => {
      const n = next();
      expect(markersPanel(n).contents.map((c) => c.macroMarkersListItemRenderer.timeDescription.simpleText)).toEqual(["8:45", "9:20", "11:02"]);
      expect(chaptersFromNext(n, 721)).toBeNull();
    });

    it("reads the same panel's markers as chapters once they start at 0:00", () => {
      const n = next();
      markersPanel(n).contents[0]!.macroMarkersListItemRenderer.timeDescription.simpleText = "0:00";
      expect(chaptersFromNext(n, 721)).toEqual([
        { title: "Choreography", start: 0, end: 560 },
        { title: "What Underlies the Fixation Requirement", start: 560, end: 662 },
        { title: "Conventional Justification of the Fixation Requirement in Copyright Law", start: 662, end: 721 },
      ]);
    });
  });

  it("is null for anything else", () => {
    expect(chaptersFromNext(undefined, 100)).toBeNull();
    expect(chaptersFromNext({ engagementPanels: "x" }, 100)).toBeNull();
  });
});

describe("clipChapters", () => {
  const chapters = [
    { title: "A", start: 0, end: 10 },
    { title: "B", start: 10, end: 20 },
    { title: "C", start: 20, end: 30 },
  ];
  it("keeps the chapters a clip overlaps, cut to it and shifted to start at 0", () => {
    expect(clipChapters(chapters, 5, 15)).toEqual([
      { title: "A", start: 0, end: 5 },
      { title: "B", start: 5, end: 10 },
    ]);
    expect(clipChapters(chapters, 20)).toEqual([{ title: "C", start: 0, end: 10 }]);
    expect(clipChapters(chapters)).toEqual(chapters);
  });
});

describe("ffmetadata", () => {
  it("writes one CHAPTER per chapter in milliseconds, escaping the title", () => {
    expect(ffmetadata([{ title: "a=b;c#d\\e\nf", start: 0, end: 1.5 }])).toBe(
      ";FFMETADATA1\n[CHAPTER]\nTIMEBASE=1/1000\nSTART=0\nEND=1500\ntitle=a\\=b\\;c\\#d\\\\e f\n",
    );
  });
});
