import { execFileSync } from "node:child_process";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openTestPglite, type DatabaseHandle } from "#db/client.ts";
import { blogCommentImages, blogCommentReports, blogComments } from "#db/schema/blog.ts";
import { createComment, getCommentImage, likeComment, listComments, reportComment } from "./comments.server.ts";
import { createWorkQueue } from "./work-queue.server.ts";

let handle: DatabaseHandle;
beforeEach(async () => {
  handle = await openTestPglite();
});
afterEach(async () => {
  await handle.close();
});

const deps = { ffmpegPath: "ffmpeg", visitorId: "visitor-a", ip: "203.0.113.9" };
const base = { articleSlug: "some-article", name: "Ada", email: "ada@example.com", content: "Very helpful, thanks!" };
const png = () => execFileSync("ffmpeg", ["-hide_banner", "-loglevel", "error", "-f", "lavfi", "-i", "testsrc=size=8x8:rate=1", "-frames:v", "1", "-c:v", "png", "-f", "image2pipe", "pipe:1"]);

describe("comments", () => {
  it("stores an approved comment and lists it without the email", async () => {
    const res = await createComment(handle.db, base, deps);
    expect(res).toMatchObject({ ok: true, message: { title: "Comment submitted", description: "Your comment has been posted successfully" } });
    const list = await listComments(handle.db, "some-article", null);
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ name: "Ada", content: "Very helpful, thanks!", likes: 0, imageUrl: null });
    expect(JSON.stringify(list)).not.toContain("ada@example.com");
    const [row] = await handle.db.select().from(blogComments);
    expect(row).toMatchObject({ email: "ada@example.com", status: "approved" });
  });

  it("requires name, email and text after trimming", async () => {
    for (const missing of [{ name: "  " }, { email: "" }, { content: "\n\t " }]) {
      const res = await createComment(handle.db, { ...base, ...missing }, deps);
      expect(res).toEqual({ ok: false, message: { title: "Missing information", description: "Please fill out all required fields" } });
    }
    expect(await handle.db.$count(blogComments)).toBe(0);
  });

  it("rejects listed words (whole words) in the text or the name, and keeps nothing", async () => {
    const res = await createComment(handle.db, { ...base, content: "I hate ads" }, deps);
    expect(res).toEqual({ ok: false, message: { title: "Comment rejected", description: "Your comment contains inappropriate content (hate)" } });
    expect((await createComment(handle.db, { ...base, name: "xxx" }, deps)).ok).toBe(false);
    expect(await handle.db.$count(blogComments)).toBe(0);
    expect((await createComment(handle.db, { ...base, content: "Greetings from Essex, whatever the weather" }, deps)).ok).toBe(true);
  });

  it("stores a re-encoded image and serves it only through its comment", async () => {
    const res = await createComment(handle.db, { ...base, image: png(), imageSize: 100 }, deps);
    if (!res.ok) throw new Error(res.message.description);
    expect(res.comment.imageUrl).toMatch(/^\/blog\/comment-images\/[0-9a-f-]{36}$/);
    const id = res.comment.imageUrl!.split("/").pop()!;
    const img = await getCommentImage(handle.db, id);
    expect(img?.contentType).toBe("image/png");
    expect(img?.bytes.subarray(1, 4).toString()).toBe("PNG");
    expect(await getCommentImage(handle.db, "not-a-uuid")).toBeNull();
  });

  it("refuses a fake image and an oversized one with the spec's messages", async () => {
    const fake = await createComment(handle.db, { ...base, image: Buffer.from("<?php echo 'hi'; ?>"), imageSize: 20 }, deps);
    expect(fake).toEqual({ ok: false, field: "image", message: { title: "Invalid file type", description: "Please select an image file" } });
    const big = await createComment(handle.db, { ...base, image: Buffer.alloc(10), imageSize: 2 * 1024 * 1024 + 1 }, deps);
    expect(big).toEqual({ ok: false, field: "image", message: { title: "Image too large", description: "Please select an image under 2MB" } });
    expect(await handle.db.$count(blogComments)).toBe(0);
    expect(await handle.db.$count(blogCommentImages)).toBe(0);
  });

  it("asks to retry later, and stores nothing, when the image queue is full", async () => {
    const imageQueue = createWorkQueue({ concurrency: 1, maxWaiting: 0 });
    let release = () => {};
    const occupied = imageQueue.run(() => new Promise<void>((r) => (release = r)));
    const res = await createComment(handle.db, { ...base, image: png(), imageSize: 100 }, { ...deps, imageQueue });
    expect(res).toEqual({
      ok: false,
      field: "image",
      retryAfterSeconds: 10,
      message: { title: "Server busy", description: "The server is busy processing images. Please try again in a moment." },
    });
    expect(await handle.db.$count(blogComments)).toBe(0);
    release();
    await occupied;
    expect((await createComment(handle.db, { ...base, image: png(), imageSize: 100 }, { ...deps, imageQueue })).ok).toBe(true);
  });

  it("replies are one level deep, even when replying to a reply", async () => {
    const parent = await createComment(handle.db, base, deps);
    if (!parent.ok) throw new Error("parent");
    const reply = await createComment(handle.db, { ...base, name: "Bob", content: "Agreed", parentId: parent.comment.id }, deps);
    if (!reply.ok) throw new Error("reply");
    const nested = await createComment(handle.db, { ...base, name: "Cy", content: "Me too", parentId: reply.comment.id }, deps);
    expect(nested.ok).toBe(true);
    const list = await listComments(handle.db, "some-article", null);
    expect(list).toHaveLength(1);
    expect(list[0]!.replies.map((r) => r.name)).toEqual(["Bob", "Cy"]);
    // a parent from another article is refused
    const other = await createComment(handle.db, { ...base, articleSlug: "other", parentId: parent.comment.id }, deps);
    expect(other).toMatchObject({ ok: false, message: { title: "Error" } });
  });

  it("counts a like once per visitor and remembers who liked", async () => {
    const c = await createComment(handle.db, base, deps);
    if (!c.ok) throw new Error("comment");
    const like = (visitorId: string) => likeComment(handle.db, { commentId: c.comment.id, articleSlug: "some-article", visitorId });
    expect(await like("v1")).toEqual({ ok: true, likes: 1 });
    expect(await like("v1")).toEqual({ ok: true, likes: 1 });
    expect(await like("v2")).toEqual({ ok: true, likes: 2 });
    const [mine] = await listComments(handle.db, "some-article", "v1");
    expect(mine).toMatchObject({ likes: 2, likedByMe: true });
    const [theirs] = await listComments(handle.db, "some-article", "v3");
    expect(theirs?.likedByMe).toBe(false);
    expect((await likeComment(handle.db, { commentId: c.comment.id, articleSlug: "wrong-article", visitorId: "v4" })).ok).toBe(false);
  });

  it("stores a report once per visitor", async () => {
    const c = await createComment(handle.db, base, deps);
    if (!c.ok) throw new Error("comment");
    const report = () => reportComment(handle.db, { commentId: c.comment.id, articleSlug: "some-article", visitorId: "v1", reason: "spam", ip: "1.2.3.4" });
    expect(await report()).toBe(true);
    expect(await report()).toBe(true);
    const rows = await handle.db.select().from(blogCommentReports);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ reason: "spam" });
    expect(rows[0]!.ipHash).not.toContain("1.2.3.4");
  });

  it("keeps visitor text exactly as typed (rendered as text, never as HTML)", async () => {
    const xss = `<img src=x onerror=alert(1)> "quotes" & <script>alert('x')</script>`;
    await createComment(handle.db, { ...base, content: xss }, deps);
    const [c] = await listComments(handle.db, "some-article", null);
    expect(c?.content).toBe(xss);
  });
});
