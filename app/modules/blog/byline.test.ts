import { describe, expect, it } from "vitest";
import { authorSchema, EDITORIAL_BYLINE } from "./byline.ts";

describe("the article byline in structured data", () => {
  it("names the site's editors as an organisation, not a person", () => {
    expect(authorSchema(EDITORIAL_BYLINE, "VidFetch")).toEqual({ "@type": "Organization", name: "VidFetch editorial team" });
    expect(authorSchema("A Guest Writer", "VidFetch")).toEqual({ "@type": "Person", name: "A Guest Writer" });
  });
});
