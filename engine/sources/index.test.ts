import pino from "pino";
import { describe, expect, it } from "vitest";
import type { ParsedLink } from "#common/links.ts";
import { createSourceRegistry, defaultSources } from "./index.ts";
import type { SourceAdapter, SourceContext } from "./types.ts";

const fake = (platform: SourceAdapter["platform"], kind: ParsedLink["kind"], code: "video.not_found" | "upstream.fetch_failed" = "video.not_found"): SourceAdapter => ({
  platform,
  matches: (link) => link.kind === kind,
  resolve: async () => ({ ok: false, code, detail: `${platform} says no` }),
});

const ctx = { logger: pino({ level: "silent" }) } as unknown as SourceContext;
const YT: ParsedLink = { kind: "youtube", id: "dQw4w9WgXcQ", url: "https://www.youtube.com/watch?v=dQw4w9WgXcQ" };
const FB: ParsedLink = { kind: "site", site: "facebook", url: "https://www.facebook.com/watch/?v=1234567890" };

describe("source registry", () => {
  it("picks the first adapter that accepts the link", async () => {
    const registry = createSourceRegistry([fake("youtube", "youtube"), fake("generic", "generic")]);
    expect(registry.pick(YT).platform).toBe("youtube");
    expect(await registry.pick(YT).resolve(YT, ctx)).toMatchObject({ detail: "youtube says no" });
    expect(await registry.pick({ kind: "generic", url: "https://cdn.example.com/a.mp4" }).resolve(YT, ctx)).toMatchObject({ detail: "generic says no" });
  });

  it("reports link.unsupported when no adapter accepts the link", () => {
    const registry = createSourceRegistry([fake("youtube", "youtube")]);
    expect(() => registry.pick({ kind: "generic", url: "https://cdn.example.com/a.mp4" })).toThrow(
      expect.objectContaining({ code: "link.unsupported" }),
    );
  });

  it("names the platform it could not reach instead of blaming our servers", async () => {
    const registry = createSourceRegistry([fake("youtube", "youtube", "upstream.fetch_failed"), fake("generic", "site", "upstream.fetch_failed"), fake("generic", "generic", "upstream.fetch_failed")]);
    expect(await registry.pick(FB).resolve(FB, ctx)).toMatchObject({ code: "upstream.fetch_failed", message: expect.stringMatching(/^Unable to connect to Facebook\./) });
    expect(await registry.pick(YT).resolve(YT, ctx)).toMatchObject({ message: expect.stringMatching(/^Unable to connect to YouTube\./) });
    const media: ParsedLink = { kind: "generic", url: "https://cdn.example.com/a.mp4" };
    expect(await registry.pick(media).resolve(media, ctx)).toMatchObject({ message: expect.stringMatching(/^Unable to connect to cdn\.example\.com\./) });
  });

  it("without yt-dlp: YouTube, an honest refusal for other platforms, then generic media", async () => {
    const registry = createSourceRegistry(defaultSources({ ytdlp: null }));
    expect(registry.adapters.map((a) => a.platform)).toEqual(["youtube", "generic", "generic"]);
    expect(registry.pick(YT).platform).toBe("youtube");
    const refusal = await registry.pick(FB).resolve(FB, ctx);
    expect(refusal).toEqual({
      ok: false,
      code: "link.platform_unavailable",
      detail: "no yt-dlp on this server",
      message: "This server cannot download Facebook videos: Facebook support is not installed here.",
    });
    const ig: ParsedLink = { kind: "site", site: "instagram", url: "https://www.instagram.com/reel/C1a2B3c4D5e/" };
    expect(await registry.pick(ig).resolve(ig, ctx)).toMatchObject({ message: expect.stringContaining("Instagram") });
  });

  it("with yt-dlp: platform links go to it, closed with the engine", async () => {
    const adapters = defaultSources({ ytdlp: { path: "/nonexistent/yt-dlp", version: "2023.03.04" } });
    const registry = createSourceRegistry(adapters);
    expect(registry.pick(FB).close).toBeTypeOf("function");
    await Promise.all(adapters.map((a) => a.close?.()));
  });
});
