import { execFileSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type AttackServer } from "./support/server.ts";
import { ARTICLE_SLUG } from "./support/targets.ts";

/**
 * Issue 27 §19, from outside: one client's burst of comment images must not fill the image
 * queue for everyone. Behind a proxy on loopback (TRUST_PROXY=1), each forwarded address is
 * one client; the attacker posts a dozen heavy images at once, and other visitors posting one
 * image each meanwhile are served, not told the server is busy.
 */
let server: AttackServer;
/** 24 megapixels of flat colour: a few KB to send, a full decode and scale to process */
let heavy: Buffer;

beforeAll(async () => {
  heavy = execFileSync("ffmpeg", ["-hide_banner", "-loglevel", "error", "-f", "lavfi", "-i", "color=c=navy:s=6000x4000", "-frames:v", "1", "-c:v", "png", "-f", "image2pipe", "pipe:1"]);
  server = await startServer({ preferredPort: 3335, env: { TRUST_PROXY: "1" } });
}, 200_000);

afterAll(async () => {
  await server?.stop();
});

async function postImage(client: string, n: number): Promise<number> {
  const form = new FormData();
  form.set("intent", "comment");
  form.set("formKey", "root");
  form.set("name", `Visitor ${n}`);
  form.set("email", `visitor${n}@example.com`);
  form.set("content", `A comment with a picture, number ${n}.`);
  form.set("image", new Blob([new Uint8Array(heavy)], { type: "image/png" }), "picture.png");
  const res = await fetch(`${server.origin}/blog/${ARTICLE_SLUG}`, {
    method: "POST",
    headers: { origin: server.origin, "sec-fetch-site": "same-origin", "x-forwarded-for": client },
    body: form,
    redirect: "manual",
  });
  await res.arrayBuffer();
  return res.status;
}

describe("the comment-image queue", () => {
  it("a burst from one client is refused beyond its share; other clients' images are processed", async () => {
    const burst = Array.from({ length: 12 }, (_, i) => postImage("203.0.113.66", i));
    const others: Promise<number>[] = [];
    for (let i = 0; i < 3; i++) {
      await new Promise((r) => setTimeout(r, 100));
      others.push(postImage(`198.51.100.${i + 1}`, 100 + i));
    }
    const attacker = await Promise.all(burst);
    const visitors = await Promise.all(others);
    expect(visitors.filter((s) => s === 503), `visitors ${visitors.join(",")}; attacker ${attacker.join(",")}`).toEqual([]);
    expect(visitors.every((s) => s < 400), visitors.join(",")).toBe(true);
    // the attacker's own burst is mostly refused (503 with Retry-After), at least one image is in
    expect(attacker.filter((s) => s === 503).length, attacker.join(",")).toBeGreaterThan(6);
    expect(attacker.some((s) => s < 400), attacker.join(",")).toBe(true);
  }, 120_000);
});
