import { describe, expect, it } from "vitest";
import type { UpstreamStream } from "../../types.ts";
import { captionsNeedToken, mergeAnswers, type PlayerCandidate } from "./pick-player.ts";

const stream = (id: string, kind: UpstreamStream["kind"], client: string): UpstreamStream => ({
  id,
  kind,
  url: `https://rr1---sn-x.googlevideo.com/videoplayback?itag=${id}&c=${client}`,
  transport: { type: "direct" },
  container: kind === "audio" ? "m4a" : "mp4",
  mimeType: kind === "audio" ? "audio/mp4" : "video/mp4",
  contentLength: 1000,
});

/** An answer with streams of the given itags, in order: "137v 140a 18p" (video, audio, progressive). */
function answer(client: string, itags = ""): PlayerCandidate {
  const kinds = { v: "video", a: "audio", p: "progressive" } as const;
  const streams = itags
    .split(" ")
    .filter(Boolean)
    .map((t) => stream(t.slice(0, -1), kinds[t.slice(-1) as keyof typeof kinds], client));
  return { client, player: {}, info: {} as never, streams };
}
const clientOf = (s: UpstreamStream) => new URL(s.url).searchParams.get("c");

describe("mergeAnswers", () => {
  it("fills one client's gap from the next: the first URL per itag wins", () => {
    const { streams, primary, merged } = mergeAnswers([answer("VISIONOS", "137v 136v"), answer("TV", "136v 140a")]);
    expect(streams.map((s) => [s.id, clientOf(s)])).toEqual([
      ["137", "VISIONOS"],
      ["136", "VISIONOS"],
      ["140", "TV"],
    ]);
    expect(primary?.client).toBe("VISIONOS");
    expect(merged).toEqual(["VISIONOS", "TV"]);
  });

  it("leaves token-gated formats out when the other clients give video and audio", () => {
    const { streams, merged } = mergeAnswers([answer("ANDROID", "18p 137v 140a"), answer("VISIONOS", "136v 140a")]);
    expect(streams.map((s) => [s.id, clientOf(s)])).toEqual([
      ["136", "VISIONOS"],
      ["140", "VISIONOS"],
    ]);
    expect(merged).toEqual(["VISIONOS"]);
  });

  it("takes token-gated formats last, as fill, when nothing else gives both halves", () => {
    const { streams, primary } = mergeAnswers([answer("ANDROID", "18p 136v 140a"), answer("VISIONOS", "137v")]);
    expect(streams.map((s) => [s.id, clientOf(s)])).toEqual([
      ["137", "VISIONOS"],
      ["18", "ANDROID"],
      ["136", "ANDROID"],
      ["140", "ANDROID"],
    ]);
    expect(primary?.client).toBe("VISIONOS");
  });

  it("takes caption tracks from the next answer when the first one's need a PO token", () => {
    const tracks = (url: string) => ({ captions: { caption_tracks: [{ base_url: url }] } }) as never;
    const gated = { ...answer("VISIONOS", "137v 140a"), info: tracks("https://www.youtube.com/api/timedtext?v=x&lang=en&exp=xpe") };
    const plain = { ...answer("ANDROID", "18p"), info: tracks("https://www.youtube.com/api/timedtext?v=x&lang=en") };
    const { primary, streams } = mergeAnswers([gated, plain]);
    expect(primary?.client).toBe("VISIONOS");
    expect(primary?.captionsInfo).toBe(plain.info);
    expect(streams.map((s) => s.id)).toEqual(["137", "140"]);
    expect(captionsNeedToken(gated.info)).toBe(true);
    expect(captionsNeedToken(plain.info)).toBe(false);
    expect(mergeAnswers([gated]).primary?.captionsInfo).toBeUndefined();
  });

  it("has no primary when no answer has a stream", () => {
    expect(mergeAnswers([answer("VISIONOS")]).primary).toBeUndefined();
    expect(mergeAnswers([]).streams).toEqual([]);
  });
});
