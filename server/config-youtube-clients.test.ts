import { describe, expect, test } from "vitest";
import { ConfigError, loadConfig } from "./config.ts";

describe("YOUTUBE_CLIENTS", () => {
  test("the default ladder names yt-dlp last (climbed only where this server has it: engine/sources/youtube)", () => {
    expect(loadConfig({}).YOUTUBE_CLIENTS).toEqual(["VISIONOS", "ANDROID", "ytdlp"]);
  });

  test("ytdlp is accepted in any case and anywhere in the list, and kept as ytdlp", () => {
    expect(loadConfig({ YOUTUBE_CLIENTS: "TV, YtDlp ,VISIONOS" }).YOUTUBE_CLIENTS).toEqual(["TV", "ytdlp", "VISIONOS"]);
    expect(loadConfig({ YOUTUBE_CLIENTS: "ytdlp" }).YOUTUBE_CLIENTS).toEqual(["ytdlp"]);
  });

  test("an explicit list is kept as given, without ytdlp when it does not name it; empty entries are dropped", () => {
    expect(loadConfig({ YOUTUBE_CLIENTS: "VISIONOS,TV,," }).YOUTUBE_CLIENTS).toEqual(["VISIONOS", "TV"]);
  });

  test.each(["visionos", "yt-dlp", "VISIONOS,yt_dlp", " , "])("%j is refused, naming the variable", (value) => {
    expect(() => loadConfig({ YOUTUBE_CLIENTS: value })).toThrow(ConfigError);
    expect(() => loadConfig({ YOUTUBE_CLIENTS: value })).toThrow(/YOUTUBE_CLIENTS/);
  });
});
