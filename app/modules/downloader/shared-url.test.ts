import { describe, expect, it } from "vitest";
import { readSharedUrl } from "./shared-url.ts";

describe("/?url= hand-over", () => {
  it("takes the url parameter as given", () => {
    expect(readSharedUrl(new URLSearchParams("url=https%3A%2F%2Fyoutu.be%2FvidfetchAll"))).toBe("https://youtu.be/vidfetchAll");
  });
  it("finds the link inside shared text", () => {
    expect(readSharedUrl(new URLSearchParams({ text: "Look at this https://youtu.be/vidfetchAll !" }))).toBe("https://youtu.be/vidfetchAll");
  });
  it("ignores empty and oversized values", () => {
    expect(readSharedUrl(new URLSearchParams("url=%20%20"))).toBeNull();
    expect(readSharedUrl(new URLSearchParams({ url: "x".repeat(5000) }))).toBeNull();
    expect(readSharedUrl(new URLSearchParams())).toBeNull();
  });
});
