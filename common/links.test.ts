import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  hasMediaExtension,
  INVALID_VIDEO_LINK_MESSAGE,
  invalidSiteLinkMessage,
  isValidYouTubeUrl,
  LINK_MESSAGES,
  parseLink,
  parsePlaylistLink,
  parseYouTubeUrl,
  SITE_NAMES,
  type SitePlatform,
} from "./links.ts";

const ID = "dQw4w9WgXcQ";

describe("parseYouTubeUrl: accepted forms", () => {
  const forms = [
    `https://www.youtube.com/watch?v=${ID}`,
    `http://www.youtube.com/watch?v=${ID}`,
    `www.youtube.com/watch?v=${ID}`,
    `youtube.com/watch?v=${ID}`,
    `//www.youtube.com/watch?v=${ID}`,
    `https://m.youtube.com/watch?v=${ID}`,
    `https://music.youtube.com/watch?v=${ID}&list=RDAMVM${ID}`,
    `https://www.youtube.com/watch?feature=share&v=${ID}`,
    `https://www.youtube.com/watch?v=${ID}&t=42s#comments`,
    `https://www.youtube.com/embed/${ID}`,
    `https://www.youtube.com/embed/${ID}?autoplay=1`,
    `https://www.youtube-nocookie.com/embed/${ID}`,
    `youtube-nocookie.com/embed/${ID}/`,
    `https://www.youtube.com/live/${ID}?si=abc`,
    `https://www.youtube.com/v/${ID}`,
    `https://www.youtube.com/v/${ID}&hl=en_US&fs=1`,
    `https://www.youtube.com/shorts/${ID}`,
    `youtube.com/shorts/${ID}?feature=share`,
    `https://youtu.be/${ID}`,
    `youtu.be/${ID}?t=10`,
    `HTTPS://YOUTU.BE/${ID}`,
    `https://www.youtube.com/user/SomeChannel#p/u/1/${ID}`,
    `https://www.youtube.com/u/x/${ID}`,
    `https://www.youtube.com/attribution_link?a=abc&u=/watch%3Fv%3D${ID}%26feature%3Dshare`,
    `https://m.youtube.com/#/watch?v=${ID}`,
    `  https://www.youtube.com/watch?v=${ID}  `,
  ];
  it.each(forms)("%s", (link) => {
    expect(parseYouTubeUrl(link)).toEqual({ ok: true, id: ID });
    expect(isValidYouTubeUrl(link)).toBe(true);
  });
});

describe("parseYouTubeUrl: the spec's messages", () => {
  it("empty input asks for a link", () => {
    for (const empty of ["", "   ", "\n\t"]) {
      expect(parseYouTubeUrl(empty)).toEqual({ ok: false, code: "link.empty", message: "Please enter a YouTube URL" });
    }
  });

  it.each([
    "hello",
    "https://vimeo.com/123456",
    `https://youtube.com.evil.example/watch?v=${ID}`,
    `https://evil.example/?u=youtube.com/watch?v=${ID}`,
    `ftp://www.youtube.com/watch?v=${ID}`,
    `javascript:alert(1)//youtube.com/watch?v=${ID}`,
    `https://notyoutu.be/${ID}`,
    `youtube.com/watch?v=${ID} and more`,
  ])("not a YouTube link: %s", (link) => {
    expect(parseYouTubeUrl(link)).toEqual({ ok: false, code: "link.invalid", message: "Please enter a valid YouTube URL" });
  });

  it.each([
    "https://www.youtube.com/",
    "https://www.youtube.com/feed/trending",
    "https://www.youtube.com/watch?v=short",
    `https://www.youtube.com/watch?v=${ID}x`,
    `https://www.youtube.com/watch?v=${ID.slice(0, 10)}!`,
    "https://youtu.be/",
    `https://youtu.be/${ID}1`,
    `https://www.youtube.com/embed/${ID.slice(0, 9)}`,
    "https://www.youtube.com/shorts/",
    `https://www.youtube.com/watch?v=bad&list=${ID}`,
  ])("YouTube host without an 11-character id: %s", (link) => {
    expect(parseYouTubeUrl(link)).toEqual({ ok: false, code: "link.no_id", message: "Could not extract video ID from URL" });
  });
});

describe("parseLink", () => {
  it("gives the YouTube id and a canonical watch link", () => {
    expect(parseLink(`youtu.be/${ID}`)).toEqual({
      ok: true,
      kind: "youtube",
      id: ID,
      url: `https://www.youtube.com/watch?v=${ID}`,
    });
  });

  it.each([
    "https://cdn.example.com/video.mp4",
    "https://cdn.example.com/live/master.m3u8?token=abc",
    "http://media.example.org/dash/manifest.mpd",
    "https://cdn.example.com/stream?id=42",
  ])("accepts a generic http(s) media link: %s", (link) => {
    expect(parseLink(link)).toEqual({ ok: true, kind: "generic", url: new URL(link).href });
  });

  it("drops the fragment of generic links", () => {
    expect(parseLink("https://cdn.example.com/a.mp4#t=3")).toEqual({ ok: true, kind: "generic", url: "https://cdn.example.com/a.mp4" });
  });

  it.each(["cdn.example.com/video.mp4", "ftp://cdn.example.com/video.mp4", "https://user:pw@cdn.example.com/a.mp4", "file:///etc/passwd", "hello there"])(
    "refuses %s with wording that does not pretend only YouTube works",
    (link) => {
      expect(parseLink(link)).toEqual({ ok: false, code: "link.invalid", message: "Please enter a valid video link" });
    },
  );

  it("keeps the spec's messages for YouTube hosts and empty input", () => {
    expect(parseLink("")).toMatchObject({ ok: false, code: "link.empty" });
    expect(parseLink("https://www.youtube.com/feed")).toMatchObject({ ok: false, code: "link.no_id" });
  });

  it("recognises media extensions", () => {
    expect(hasMediaExtension("https://a.example/x/master.m3u8?x=1")).toBe(true);
    expect(hasMediaExtension("https://a.example/page.html")).toBe(false);
    expect(hasMediaExtension("not a url")).toBe(false);
  });
});

describe("parseLink: other platforms (issue 12)", () => {
  it.each<[string, SitePlatform, string]>([
    ["https://www.facebook.com/watch/?v=1234567890", "facebook", "https://www.facebook.com/watch/?v=1234567890"],
    ["https://www.facebook.com/watch?v=1234567890&ref=share", "facebook", "https://www.facebook.com/watch?v=1234567890&ref=share"],
    ["facebook.com/SomePage/videos/987654321/", "facebook", "https://facebook.com/SomePage/videos/987654321/"],
    ["https://m.facebook.com/videos/987654321", "facebook", "https://m.facebook.com/videos/987654321"],
    ["https://www.facebook.com/reel/112233445566", "facebook", "https://www.facebook.com/reel/112233445566"],
    ["http://fb.watch/aBc-12XyZ/", "facebook", "https://fb.watch/aBc-12XyZ/"],
    ["https://www.facebook.com/share/v/1AbCdEf/", "facebook", "https://www.facebook.com/share/v/1AbCdEf/"],
    ["https://www.instagram.com/reel/C1a2B3c4D5e/", "instagram", "https://www.instagram.com/reel/C1a2B3c4D5e/"],
    ["instagram.com/p/C1a2B3c4D5e/?igsh=abc#x", "instagram", "https://instagram.com/p/C1a2B3c4D5e/?igsh=abc"],
    ["https://www.instagram.com/someone/reel/C1a2B3c4D5e", "instagram", "https://www.instagram.com/someone/reel/C1a2B3c4D5e"],
    ["https://www.tiktok.com/@user.name/video/7234567890123456789", "tiktok", "https://www.tiktok.com/@user.name/video/7234567890123456789"],
    ["https://vm.tiktok.com/ZMabc123/", "tiktok", "https://vm.tiktok.com/ZMabc123/"],
    ["https://x.com/someone/status/1790000000000000000", "twitter", "https://x.com/someone/status/1790000000000000000"],
    ["https://twitter.com/someone/status/1790000000000000000?s=20", "twitter", "https://twitter.com/someone/status/1790000000000000000?s=20"],
    ["https://vimeo.com/76979871", "vimeo", "https://vimeo.com/76979871"],
    ["https://player.vimeo.com/video/76979871", "vimeo", "https://player.vimeo.com/video/76979871"],
    ["https://www.dailymotion.com/video/x8abc12", "dailymotion", "https://www.dailymotion.com/video/x8abc12"],
    ["https://dai.ly/x8abc12", "dailymotion", "https://dai.ly/x8abc12"],
    ["https://clips.twitch.tv/FunnySlug-abc", "twitch", "https://clips.twitch.tv/FunnySlug-abc"],
    ["https://www.twitch.tv/videos/123456789", "twitch", "https://www.twitch.tv/videos/123456789"],
  ])("recognises %s", (link, site, url) => {
    expect(parseLink(link)).toEqual({ ok: true, kind: "site", site, url });
  });

  it.each<[string, SitePlatform]>([
    ["https://www.facebook.com/SomePage", "facebook"],
    ["https://www.facebook.com/watch/?v=notanumber", "facebook"],
    ["https://www.instagram.com/someone/", "instagram"],
    ["https://www.tiktok.com/@user.name", "tiktok"],
    ["https://x.com/home", "twitter"],
    ["https://vimeo.com/channels/staffpicks", "vimeo"],
  ])("names the platform when %s is not a video link", (link, site) => {
    expect(parseLink(link)).toEqual({ ok: false, code: "link.invalid", message: invalidSiteLinkMessage(site), site });
    expect(invalidSiteLinkMessage(site)).toBe(`Please enter a valid ${SITE_NAMES[site]} video link`);
  });

  it("leaves look-alike hosts to the generic media path", () => {
    expect(parseLink("https://notfacebook.com/watch?v=1")).toMatchObject({ ok: true, kind: "generic" });
    expect(parseLink("https://facebook.com.evil.example/reel/1")).toMatchObject({ ok: true, kind: "generic" });
  });
});

describe("properties", () => {
  const idChar = fc.constantFrom(..."ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-".split(""));
  const videoId = fc.array(idChar, { minLength: 11, maxLength: 11 }).map((c) => c.join(""));
  const scheme = fc.constantFrom("https://", "http://", "", "//", "HTTPS://");
  const mainHost = fc.constantFrom("youtube.com", "www.youtube.com", "m.youtube.com", "music.youtube.com", "WWW.YouTube.com");
  const query = fc.constantFrom("", "?t=10", "?feature=share", "?si=a1b2c3&t=3s");
  const extraParams = fc.constantFrom("", "&t=1", "&list=PL123&index=2", "&feature=youtu.be");

  const validLink = fc.oneof(
    fc.tuple(scheme, mainHost, videoId, extraParams).map(([s, h, id, e]) => ({ link: `${s}${h}/watch?v=${id}${e}`, id })),
    fc.tuple(scheme, mainHost, videoId).map(([s, h, id]) => ({ link: `${s}${h}/watch?app=desktop&v=${id}`, id })),
    fc
      .tuple(scheme, fc.constantFrom(...["youtube.com", "www.youtube.com", "m.youtube.com", "www.youtube-nocookie.com"]), fc.constantFrom("embed", "live", "v", "shorts"), videoId, query)
      .map(([s, h, p, id, q]) => ({ link: `${s}${h}/${p}/${id}${q}`, id })),
    fc.tuple(scheme, videoId, query).map(([s, id, q]) => ({ link: `${s}youtu.be/${id}${q}`, id })),
    fc.tuple(scheme, mainHost, videoId).map(([s, h, id]) => ({ link: `${s}${h}/user/name#p/u/1/${id}`, id })),
  );

  it("every generated valid form gives its id", () => {
    fc.assert(
      fc.property(validLink, ({ link, id }) => {
        expect(parseYouTubeUrl(link)).toEqual({ ok: true, id });
        expect(parseLink(link)).toMatchObject({ ok: true, kind: "youtube", id });
      }),
      { numRuns: 2000 },
    );
  });

  const messages = new Set([...Object.values(LINK_MESSAGES), INVALID_VIDEO_LINK_MESSAGE, ...(Object.keys(SITE_NAMES) as SitePlatform[]).map(invalidSiteLinkMessage)]);
  const junk = fc.oneof(
    fc.string(),
    fc.string({ unit: "binary", maxLength: 300 }),
    fc.webUrl({ withQueryParameters: true, withFragments: true }),
    fc.tuple(scheme, mainHost, fc.string()).map(([s, h, rest]) => `${s}${h}/${rest}`),
    fc.tuple(scheme, fc.string()).map(([s, rest]) => `${s}youtu.be/${rest}`),
    fc.tuple(mainHost, fc.string({ maxLength: 20 })).map(([h, v]) => `${h}/watch?v=${v}`),
  );

  it("junk never throws and always yields an id or one of the clear messages", () => {
    fc.assert(
      fc.property(junk, (input) => {
        const result = parseYouTubeUrl(input);
        if (result.ok) {
          expect(result.id).toMatch(/^[A-Za-z0-9_-]{11}$/);
        } else {
          expect(messages.has(result.message)).toBe(true);
          expect(result.message).toBe(LINK_MESSAGES[result.code]);
        }
        const link = parseLink(input);
        if (!link.ok) expect(messages.has(link.message)).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });

  it("non-string input from untyped callers is reported, not thrown", () => {
    expect(parseYouTubeUrl(undefined as unknown as string)).toMatchObject({ ok: false, code: "link.empty" });
    expect(parseLink(42 as unknown as string)).toMatchObject({ ok: false, code: "link.empty" });
  });
});

describe("parsePlaylistLink", () => {
  const LIST = "PLrAXtmErZgOeiKm4sgNOknGvNjby9efdf";
  const CANONICAL = `https://www.youtube.com/playlist?list=${LIST}`;

  it.each([
    `https://www.youtube.com/playlist?list=${LIST}`,
    `youtube.com/playlist?list=${LIST}&si=abc`,
    `https://m.youtube.com/playlist/?list=${LIST}`,
    `https://music.youtube.com/playlist?list=${LIST}`,
  ])("a playlist page names the playlist only: %s", (link) => {
    expect(parsePlaylistLink(link)).toEqual({ kind: "youtube", listId: LIST, url: CANONICAL });
  });

  it.each([
    [`https://www.youtube.com/watch?v=${ID}&list=${LIST}&index=3`, ID],
    [`https://youtu.be/${ID}?list=${LIST}`, ID],
    [`https://www.youtube.com/embed/${ID}?list=${LIST}`, ID],
  ])("a video inside a playlist names both: %s", (link, videoId) => {
    expect(parsePlaylistLink(link)).toEqual({ kind: "youtube", listId: LIST, url: CANONICAL, videoId });
    // and it stays that video for every video path
    expect(parseLink(link)).toMatchObject({ ok: true, kind: "youtube", id: videoId });
  });

  it.each([
    `https://www.youtube.com/watch?v=${ID}`,
    `https://www.youtube.com/watch?v=${ID}&list=RD${ID}`, // a mix has no end
    `https://music.youtube.com/watch?v=${ID}&list=RDAMVM${ID}`,
    "https://www.youtube.com/playlist?list=WL",
    "https://www.youtube.com/playlist?list=LL",
    "https://www.youtube.com/playlist?list=short",
    "https://www.youtube.com/playlist?list=PL<script>alert(1)</script>",
    `https://www.youtube.com/watch?v=bad&list=${LIST}`,
    `https://example.com/playlist?list=${LIST}`,
    "https://vimeo.com/123456789",
    "not a link",
    "",
  ])("no playlist: %s", (link) => {
    expect(parsePlaylistLink(link)).toBeNull();
  });

  it.each([
    ["https://vimeo.com/showcase/4242", "vimeo", "https://vimeo.com/showcase/4242"],
    ["vimeo.com/album/99", "vimeo", "https://vimeo.com/album/99"],
    ["https://www.dailymotion.com/playlist/x6hynp#top", "dailymotion", "https://www.dailymotion.com/playlist/x6hynp"],
    ["http://www.twitch.tv/collections/abcDEF123", "twitch", "https://www.twitch.tv/collections/abcDEF123"],
  ])("a platform's playlist form: %s", (link, site, url) => {
    expect(parsePlaylistLink(link)).toEqual({ kind: "site", site, url });
  });

  it("a platform's video inside a showcase is a video, not its playlist", () => {
    expect(parsePlaylistLink("https://vimeo.com/showcase/4242/video/123456784")).toBeNull();
  });
});
