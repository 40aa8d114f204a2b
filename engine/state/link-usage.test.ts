import { describe, expect, it } from "vitest";
import { createLinkUsage, requestKind } from "./link-usage.ts";

const used = expect.objectContaining({
  code: "download.link_used",
  status: 410,
  message: "This download link has already been used. Start the download again from the page.",
});

describe("requestKind", () => {
  it("treats no Range and bytes=0- as a fresh download, any other Range as a resume", () => {
    expect(requestKind(undefined)).toBe("full");
    expect(requestKind("bytes=0-")).toBe("full");
    expect(requestKind(" BYTES=0- ")).toBe("full");
    expect(requestKind("bytes=1000-")).toBe("resume");
    expect(requestKind("bytes=0-999")).toBe("resume");
    expect(requestKind("bytes=-500")).toBe("resume");
  });
});

describe("link usage", () => {
  const exp = 10_000_000;

  it("lets a link download in full once, then refuses replays with download.link_used", () => {
    const u = createLinkUsage({ now: () => 0 });
    u.admit("dl_1", "full", exp);
    u.setSize("dl_1", 1000);
    u.addBytes("dl_1", 1000);
    u.complete("dl_1");
    for (let i = 0; i < 3; i++) expect(() => u.admit("dl_1", "full", exp)).toThrow(used);
    // another link is not affected
    expect(() => u.admit("dl_2", "full", exp)).not.toThrow();
  });

  it("keeps a link whose full download failed or was cancelled usable", () => {
    const u = createLinkUsage({ now: () => 0 });
    u.admit("dl_1", "full", exp);
    u.setSize("dl_1", 1000);
    u.addBytes("dl_1", 400); // the connection broke: no complete()
    expect(() => u.admit("dl_1", "full", exp)).not.toThrow();
  });

  it("allows resumes within twice the file's size, also after the full download", () => {
    const u = createLinkUsage({ now: () => 0 });
    u.admit("dl_1", "full", exp);
    u.setSize("dl_1", 1000);
    u.addBytes("dl_1", 600); // broke at 60 %
    u.admit("dl_1", "resume", exp);
    u.addBytes("dl_1", 400);
    u.admit("dl_1", "resume", exp);
    u.addBytes("dl_1", 999);
    expect(() => u.admit("dl_1", "resume", exp)).not.toThrow();
    u.addBytes("dl_1", 1);
    expect(() => u.admit("dl_1", "resume", exp)).toThrow(used);
  });

  it("forgets links once they expired (they are refused as expired by then)", () => {
    let t = 0;
    const u = createLinkUsage({ now: () => t });
    u.admit("dl_old", "full", 1000);
    u.complete("dl_old");
    t = 2000;
    u.admit("dl_new", "full", 5000);
    expect(u.size()).toBe(1);
  });
});
