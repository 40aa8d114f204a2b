import { describe, expect, it } from "vitest";
import { readNewsletterBody } from "./read-newsletter-body.server.ts";

const post = (body: BodyInit, type?: string) =>
  new Request("http://localhost/newsletter", { method: "POST", body, headers: type ? { "content-type": type } : {} });

describe("readNewsletterBody", () => {
  it("reads JSON", async () => {
    expect(await readNewsletterBody(post(JSON.stringify({ email: "a@b.co", website: "" }), "application/json"))).toEqual({ email: "a@b.co", website: "" });
  });

  it("reads an urlencoded form", async () => {
    expect(await readNewsletterBody(post("email=a%40b.co&website=", "application/x-www-form-urlencoded"))).toEqual({ email: "a@b.co", website: "" });
  });

  it("reads a multipart form", async () => {
    const form = new FormData();
    form.set("email", "a@b.co");
    expect(await readNewsletterBody(new Request("http://localhost/newsletter", { method: "POST", body: form }))).toEqual({ email: "a@b.co" });
  });

  it.each([
    ["{not json", "application/json"],
    ["[1,2]", "application/json"],
    ["email=a@b.co", "text/plain"],
  ])("returns null for %j as %s", async (body, type) => {
    expect(await readNewsletterBody(post(body, type))).toBeNull();
  });
});
