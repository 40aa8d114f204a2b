import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { hasMediaExtension, isValidYouTubeUrl, LINK_MESSAGES, parseLink, parseYouTubeUrl } from "./links.ts";

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

  it.each(["cdn.example.com/video.mp4", "ftp://cdn.example.com/video.mp4", "https://user:pw@cdn.example.com/a.mp4", "file:///etc/passwd"])(
    "refuses %s",
    (link) => {
      expect(parseLink(link)).toMatchObject({ ok: false, code: "link.invalid" });
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

  const messages = new Set(Object.values(LINK_MESSAGES));
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
