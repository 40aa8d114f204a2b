import { describe, expect, it } from "vitest";
import { EMBED_LISTENING, embedNow, embedWithApi, publishPlayerClock, readEmbedMessage, usePlayerClock } from "./player-clock.ts";
import { renderToStaticMarkup } from "react-dom/server";

function Reader() {
  const clock = usePlayerClock();
  return <span>{clock ? String(clock.now()) : "none"}</span>;
}

describe("the page's player clock", () => {
  it("is the last one published, and a clock taken back only clears itself", () => {
    expect(renderToStaticMarkup(<Reader />)).toBe("<span>none</span>");
    const first = publishPlayerClock({ now: () => 1 });
    const second = publishPlayerClock({ now: () => 2 });
    expect(renderToStaticMarkup(<Reader />)).toBe("<span>2</span>");
    first();
    expect(renderToStaticMarkup(<Reader />)).toBe("<span>2</span>");
    second();
    expect(renderToStaticMarkup(<Reader />)).toBe("<span>none</span>");
  });
});

describe("YouTube's embed messages", () => {
  it("read the time and state of initialDelivery and infoDelivery, as JSON text or an object", () => {
    expect(readEmbedMessage(JSON.stringify({ event: "initialDelivery", info: { currentTime: 12.5, playerState: 2 } }), null)).toEqual({ currentTime: 12.5, playing: false });
    expect(readEmbedMessage({ event: "infoDelivery", info: { currentTime: 3, playerState: 1 } }, null)).toEqual({ currentTime: 3, playing: true });
    expect(readEmbedMessage(JSON.stringify({ event: "onReady" }), null)).toBe("ready");
  });

  it("carry on what an update leaves out", () => {
    const known = { currentTime: 40, playing: true };
    expect(readEmbedMessage({ event: "infoDelivery", info: { playerState: 2 } }, known)).toEqual({ currentTime: 40, playing: false });
    expect(readEmbedMessage({ event: "infoDelivery", info: { currentTime: 41 } }, known)).toEqual({ currentTime: 41, playing: true });
    expect(readEmbedMessage({ event: "infoDelivery", info: { videoBytesLoaded: 5 } }, null)).toBe("ready");
  });

  it("ignore what is not the player's: other events, other text, a time that is no time", () => {
    for (const data of ["not json", "{}", JSON.stringify({ event: "command", func: "playVideo" }), 42, null, { event: "infoDelivery", info: { currentTime: -1 } }]) {
      const read = readEmbedMessage(data, null);
      expect(read === null || read === "ready", String(data)).toBe(true);
    }
    expect(readEmbedMessage({ event: "infoDelivery", info: { currentTime: Number.NaN } }, { currentTime: 7, playing: false })).toEqual({ currentTime: 7, playing: false });
  });

  it("run a playing player's time on from its last report", () => {
    expect(embedNow({ currentTime: 10, playing: true }, 1000, 1750)).toBe(10.75);
    expect(embedNow({ currentTime: 10, playing: false }, 1000, 1750)).toBe(10);
  });

  it("turn the embed's API on for this page, and send what YouTube's script sends", () => {
    expect(embedWithApi("https://www.youtube-nocookie.com/embed/abc", "https://vidfetch.example")).toEqual({
      src: "https://www.youtube-nocookie.com/embed/abc?enablejsapi=1&origin=https%3A%2F%2Fvidfetch.example",
      origin: "https://www.youtube-nocookie.com",
    });
    expect(embedWithApi("not a url", "https://vidfetch.example")).toBeNull();
    expect(JSON.parse(EMBED_LISTENING)).toMatchObject({ event: "listening", channel: "widget" });
  });
});
