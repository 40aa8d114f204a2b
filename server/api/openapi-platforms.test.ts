import { describe, expect, it } from "vitest";
import { platformsFor } from "#app/modules/platforms/platform-cards.server.ts";
import { findSitePage } from "#app/modules/site/pages.ts";
import { PLATFORMS, SITE_NAMES } from "#common/links.ts";
import { openApiDocument } from "./openapi.ts";

/** The platform table in common/links.ts is the one list: a new entry reaches every reader of it. */
describe("the platform table", () => {
  it("is the OpenAPI platform enum (plus generic links)", () => {
    const platform = openApiDocument("http://localhost").components.schemas.VideoDetails.properties.platform;
    expect([...platform.enum].sort()).toEqual([...PLATFORMS.map((p) => p.id), "generic"].sort());
  });

  it("gives every platform a card, in the table's order, with or without yt-dlp", () => {
    for (const ytdlp of [true, false]) expect(platformsFor({ ytdlp }).map((c) => c.name)).toEqual(PLATFORMS.map((p) => p.name));
  });

  it("names every platform whose links are recognised by rule", () => {
    const byRule = PLATFORMS.filter((p) => p.links.length > 0);
    expect(Object.entries(SITE_NAMES)).toEqual(byRule.map((p) => [p.id, p.name]));
    expect(byRule.every((p) => p.reader === "ytdlp")).toBe(true);
  });

  it("is found by the site search under every platform's id", () => {
    const keywords = findSitePage("/supported-sites")?.keywords ?? [];
    expect(PLATFORMS.map((p) => p.id).filter((id) => !keywords.includes(id))).toEqual([]);
  });
});
