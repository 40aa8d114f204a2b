import { describe, expect, it } from "vitest";
import { parsePlaylistInfo } from "./playlist.ts";

const link = { kind: "site" as const, site: "dailymotion" as const, url: "https://www.dailymotion.com/playlist/x6hynp" };

describe("parsePlaylistInfo", () => {
  it("maps flat entries in order; an entry's page link wins over its API link", () => {
    const listing = parsePlaylistInfo(
      JSON.stringify({
        _type: "playlist",
        title: "News",
        entries: [
          { _type: "url", url: "https://api.example/x1", webpage_url: "https://www.dailymotion.com/video/x8aaaaa", title: "One", duration: 12.5, thumbnail: "https://s1.dmcdn.net/a.jpg" },
          { _type: "url", url: "https://www.dailymotion.com/video/x8bbbbb", title: null, duration: null },
          { _type: "url", url: "javascript:alert(1)", title: "Not a link" },
          "junk",
        ],
      }),
      link,
    );
    expect(listing).toEqual({
      title: "News",
      url: link.url,
      total: null,
      entries: [
        { url: "https://www.dailymotion.com/video/x8aaaaa", title: "One", durationSeconds: 12.5, thumbnail: "https://s1.dmcdn.net/a.jpg" },
        { url: "https://www.dailymotion.com/video/x8bbbbb", title: "", durationSeconds: null, thumbnail: null },
      ],
    });
  });

  it("a single video's document, or no JSON, is no playlist", () => {
    expect(() => parsePlaylistInfo(JSON.stringify({ _type: "video", id: "x8aaaaa", title: "One", formats: [] }), link)).toThrow(expect.objectContaining({ code: "video.not_found" }));
    expect(() => parsePlaylistInfo("<html>", link)).toThrow(expect.objectContaining({ code: "upstream.api_error" }));
  });
});
