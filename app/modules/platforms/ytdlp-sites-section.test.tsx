import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { YtdlpSitesSection, type YtdlpSitesView } from "./ytdlp-sites-section.tsx";

const render = (view: YtdlpSitesView) => renderToString(<YtdlpSitesSection view={view} />).replaceAll("<!-- -->", "");
const text = (html: string) => html.replace(/<[^>]+>/g, " ").replace(/\s+/g, " ");

const ready: YtdlpSitesView = {
  state: "ready",
  version: "2026.11.01",
  extractorCount: 1787,
  sites: [
    { name: "17live", broken: false },
    { name: "spotify", broken: true },
    { name: "vimeo", broken: false },
  ],
  search: null,
};

describe("YtdlpSitesSection", () => {
  it("says how many sites this server's yt-dlp knows, offers a search that works without JavaScript, and folds the whole list", () => {
    const html = render(ready);
    expect(text(html)).toContain("This server runs yt-dlp 2026.11.01, which knows 3 sites (1787 extractors).");
    const form = /<form[^>]*>/.exec(html)?.[0] ?? "";
    expect(form).toContain('method="get"');
    expect(form).toContain('action="#ytdlp-sites"');
    expect(/<input[^>]*>/.exec(html)?.[0]).toMatch(/name="site"/);
    expect(html).toMatch(/<details[^>]*><summary[^>]*>All 3 sites<\/summary>/);
    expect(text(html)).toContain("All 3 sites 17live spotify (currently broken) vimeo");
    expect(html).not.toContain('data-testid="ytdlp-search-results"');
  });

  it("a search shows its matches above the list and keeps the query in the field", () => {
    const html = render({
      ...ready,
      search: {
        query: "vim",
        matches: [
          { name: "vimeo", broken: false },
          { name: "vimeo:album", broken: false },
        ],
        total: 2,
      },
    });
    expect(text(html)).toContain("2 extractors have “vim” in their names: vimeo vimeo:album");
    expect(html).toContain('value="vim"');
    const none = render({
      ...ready,
      search: { query: "rumble", matches: [], total: 0 },
    });
    expect(text(none)).toContain("No extractor of yt-dlp 2026.11.01 has “rumble” in its name.");
    const cut = render({
      ...ready,
      search: {
        query: "s",
        matches: [{ name: "spotify", broken: true }],
        total: 140,
      },
    });
    expect(text(cut)).toContain("140 extractors have “s” in their names; the first 1: spotify (currently broken)");
  });

  it("without yt-dlp, while reading, and when the list could not be read: a sentence, no list", () => {
    expect(text(render({ state: "absent" }))).toContain("yt-dlp is not installed on this server");
    expect(text(render({ state: "reading", version: "2023.03.04" }))).toContain(
      "This server runs yt-dlp 2023.03.04. Its list of sites is still being read: reload this page in a moment.",
    );
    expect(text(render({ state: "failed", version: "2023.03.04" }))).toContain("its list of sites could not be read");
    for (const view of [{ state: "absent" }, { state: "reading", version: "x" }] as const) expect(render(view)).not.toContain("<details");
  });
});
