import { describe, expect, it } from "vitest";
import { rewriteImageUrl } from "./image-hosts.ts";

const map = "i.ytimg.com=http://127.0.0.1:4010,*.ggpht.com=http://127.0.0.1:4010,*.googlevideo.com=http://127.0.0.1:4010";

describe("rewriteImageUrl", () => {
  it("points mapped image hosts at the mapped origin", () => {
    expect(rewriteImageUrl("https://i.ytimg.com/vi/abc/maxresdefault.jpg?x=1", map)).toBe("http://127.0.0.1:4010/vi/abc/maxresdefault.jpg?x=1");
    expect(rewriteImageUrl("https://yt3.ggpht.com/ytc/A=s88", map)).toBe("http://127.0.0.1:4010/ytc/A=s88");
  });
  it("leaves other hosts, unmapped image hosts and no map alone", () => {
    expect(rewriteImageUrl("https://rr1.googlevideo.com/videoplayback", map)).toBe("https://rr1.googlevideo.com/videoplayback");
    expect(rewriteImageUrl("https://i.ytimg.com/vi/abc/default.jpg", "yt3.ggpht.com=http://127.0.0.1:1")).toBe("https://i.ytimg.com/vi/abc/default.jpg");
    expect(rewriteImageUrl("https://i.ytimg.com/vi/abc/default.jpg", undefined)).toBe("https://i.ytimg.com/vi/abc/default.jpg");
    expect(rewriteImageUrl("", map)).toBe("");
  });
});
