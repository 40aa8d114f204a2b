import { describe, expect, it } from "vitest";
import type { ParsedLink } from "../../common/links.ts";
import { createSourceRegistry, defaultSources } from "./index.ts";
import type { SourceAdapter } from "./types.ts";

const fake = (platform: SourceAdapter["platform"], kind: ParsedLink["kind"]): SourceAdapter => ({
  platform,
  matches: (link) => link.kind === kind,
  resolve: async () => ({ ok: false, code: "video.not_found" }),
});

describe("source registry", () => {
  it("picks the first adapter that accepts the link", () => {
    const yt = fake("youtube", "youtube");
    const generic = fake("generic", "generic");
    const registry = createSourceRegistry([yt, generic]);
    expect(registry.pick({ kind: "youtube", id: "dQw4w9WgXcQ", url: "https://www.youtube.com/watch?v=dQw4w9WgXcQ" })).toBe(yt);
    expect(registry.pick({ kind: "generic", url: "https://cdn.example.com/a.mp4" })).toBe(generic);
  });

  it("reports link.unsupported when no adapter accepts the link", () => {
    const registry = createSourceRegistry([fake("youtube", "youtube")]);
    expect(() => registry.pick({ kind: "generic", url: "https://cdn.example.com/a.mp4" })).toThrow(
      expect.objectContaining({ code: "link.unsupported" }),
    );
  });

  it("registers the YouTube and generic adapters by default, YouTube first", () => {
    const registry = createSourceRegistry(defaultSources());
    expect(registry.adapters.map((a) => a.platform)).toEqual(["youtube", "generic"]);
    expect(registry.pick({ kind: "youtube", id: "dQw4w9WgXcQ", url: "https://www.youtube.com/watch?v=dQw4w9WgXcQ" }).platform).toBe("youtube");
    expect(registry.pick({ kind: "generic", url: "https://cdn.example.com/master.m3u8" }).platform).toBe("generic");
  });
});
