import { describe, expect, it } from "vitest";
import { handle } from "./sitemap.tsx";

describe("/sitemap route", () => {
  it("turns the header and footer ad slots off (spec)", () => {
    expect(handle).toEqual({ hideLayoutAds: true });
  });
});
