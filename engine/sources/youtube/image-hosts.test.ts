import { describe, expect, it } from "vitest";
import { rewriteBrowserUrl } from "./image-hosts.ts";

const map = "i.ytimg.com=http://127.0.0.1:4010,*.ggpht.com=http://127.0.0.1:4010,*.googlevideo.com=http://127.0.0.1:4010";

describe("rewriteBrowserUrl", () => {
  it("points mapped image hosts at the mapped origin", () => {
    expect(rewriteBrowserUrl("https://i.ytimg.com/vi/abc/maxresdefault.jpg?x=1", map)).toBe("http://127.0.0.1:4010/vi/abc/maxresdefault.jpg?x=1");
    expect(rewriteBrowserUrl("https://yt3.ggpht.com/ytc/A=s88", map)).toBe("http://127.0.0.1:4010/ytc/A=s88");
  });
  it("points the mapped embed player at the mapped origin (the mock's preview page)", () => {
    expect(rewriteBrowserUrl("https://www.youtube-nocookie.com/embed/abc", "www.youtube-nocookie.com=http://127.0.0.1:4010")).toBe("http://127.0.0.1:4010/embed/abc");
    expect(rewriteBrowserUrl("https://www.youtube-nocookie.com/embed/abc", map)).toBe("https://www.youtube-nocookie.com/embed/abc");
  });
  it("leaves other hosts, unmapped image hosts and no map alone", () => {
    expect(rewriteBrowserUrl("https://rr1.googlevideo.com/videoplayback", map)).toBe("https://rr1.googlevideo.com/videoplayback");
    expect(rewriteBrowserUrl("https://i.ytimg.com/vi/abc/default.jpg", "yt3.ggpht.com=http://127.0.0.1:1")).toBe("https://i.ytimg.com/vi/abc/default.jpg");
    expect(rewriteBrowserUrl("https://i.ytimg.com/vi/abc/default.jpg", undefined)).toBe("https://i.ytimg.com/vi/abc/default.jpg");
    expect(rewriteBrowserUrl("", map)).toBe("");
  });
});
