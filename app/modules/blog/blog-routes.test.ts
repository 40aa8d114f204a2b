import { describe, expect, it } from "vitest";
import { blogCommentLikes, blogCommentReports, blogComments } from "#db/schema/blog.ts";
import { action as articleAction, loader as articleLoader } from "#app/routes/blog-article.tsx";
import { loader as listLoader } from "#app/routes/blog.tsx";
import { routeContext } from "#tests/support/route-context.ts";
import { testDatabases, withTestDatabase, type TestDatabase } from "#tests/support/test-db.ts";
import { getArticleBySlug, listArticles } from "./articles.server.ts";
import { createComment } from "./comments/comments.server.ts";
import { LIKE_LIMIT } from "./comments/like-request.server.ts";
import { getLocalArticles } from "./local-articles.server.ts";
import { VISITOR_COOKIE, visitorCookieValue } from "./visitor.server.ts";

/**
 * The blog's routes called as the server calls them, on PGlite and (with TEST_DATABASE_URL) on
 * PostgreSQL: hostile input (NUL bytes, odd bodies, missing or broken cookies) gets a clear
 * answer, never a database error.
 */
const SLUG = "how-to-download-youtube-videos-safely";
const VISITOR = "0b8f7c1e-2d3a-4b5c-8d9e-0f1a2b3c4d5e";

/** Status, body and headers of whatever a loader or action returned or threw. */
async function settle(run: () => Promise<unknown>): Promise<{ status: number; body: unknown; headers: Headers }> {
  let result: unknown;
  try {
    result = await run();
  } catch (thrown) {
    result = thrown;
  }
  if (result instanceof Response) return { status: result.status, body: result.status >= 300 && result.status < 400 ? null : await result.text(), headers: result.headers };
  if (result && typeof result === "object" && (result as { type?: string }).type === "DataWithResponseInit") {
    const r = result as { data: unknown; init: ResponseInit | null };
    return { status: r.init?.status ?? 200, body: r.data, headers: new Headers(r.init?.headers) };
  }
  if (result instanceof Error) throw result;
  return { status: 200, body: result, headers: new Headers() };
}

function context(handle: TestDatabase, clientIp: string) {
  return { ...routeContext(handle.db, { clientIp }), publicConfig: { publicUrl: "http://localhost" }, engine: { mediaTools: { ffmpeg: "ffmpeg" } } };
}

const list = (handle: TestDatabase, query: string) =>
  settle(() => listLoader({ request: new Request(`http://localhost/blog${query}`), context: context(handle, "203.0.113.1"), params: {} } as never));
const article = (handle: TestDatabase, slug: string, headers: HeadersInit = {}) =>
  settle(() => articleLoader({ request: new Request(`http://localhost/blog/${encodeURIComponent(slug)}`, { headers }), context: context(handle, "203.0.113.1"), params: { slug } } as never));
const post = (handle: TestDatabase, slug: string, init: { body?: BodyInit; headers?: HeadersInit; ip?: string }) =>
  settle(() =>
    articleAction({
      request: new Request(`http://localhost/blog/${encodeURIComponent(slug)}`, { method: "POST", body: init.body, headers: init.headers }),
      context: context(handle, init.ip ?? "203.0.113.1"),
      params: { slug },
    } as never),
  );
const form = (fields: Record<string, string>) => {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.set(k, v);
  return f;
};
const SECRET = routeContext(null).config.DOWNLOAD_SIGNING_SECRET;
const cookie = (id = VISITOR) => ({ cookie: `${VISITOR_COOKIE}=${visitorCookieValue(id, SECRET)}` });

describe.each(testDatabases)("blog routes on $name", (variant) => {
  const { name, skip, open } = withTestDatabase(variant);
  let handle: TestDatabase | undefined;
  // the like limiter lives for the process: each database variant uses its own addresses
  const ip = (n: number) => `198.51.100.${n + (name === "postgres" ? 100 : 0)}`;

  async function aComment(h: TestDatabase) {
    const c = await createComment(h.db, { articleSlug: SLUG, name: "Ada", email: "ada@example.com", content: "Useful" }, { ffmpegPath: "ffmpeg", visitorId: null, ip: "1.1.1.1" });
    if (!c.ok) throw new Error(c.message.description);
    return c.comment.id;
  }

  it.skipIf(skip)("ignores NUL and other control characters in the list's search and tag", async () => {
    handle = await open();
    const all = await list(handle, "");
    for (const query of ["?q=%00", "?tag=%00", "?q=%00&tag=%00%01", "?q=%1F%00%7F"]) {
      const res = await list(handle, query);
      expect(res.status, query).toBe(200);
      expect((res.body as { total: number }).total, query).toBe((all.body as { total: number }).total);
      expect(res.body).toMatchObject({ tag: null });
    }
    // a control character separates search words like a space
    const split = await list(handle, "?q=download%00safely");
    expect((split.body as { q: string; articles: { slug: string }[] }).q).toBe("download safely");
    expect((split.body as { articles: { slug: string }[] }).articles.map((a) => a.slug)).toContain(SLUG);
    // and the domain functions are safe on their own
    await expect(listArticles(handle.db, { q: "\0", tag: "\0" })).resolves.toMatchObject({ total: (all.body as { total: number }).total });
  });

  it.skipIf(skip)("answers a slug with a NUL byte with 404, for the page and for posts", async () => {
    handle = await open();
    expect(await getArticleBySlug(handle.db, "\0")).toEqual({ status: "unknown" });
    expect(await getArticleBySlug(handle.db, `${SLUG}\0`)).toEqual({ status: "unknown" });
    const page = await article(handle, "\0");
    expect(page).toMatchObject({ status: 404, body: { notFound: true } });
    expect((await article(handle, `${SLUG}\0`)).status).toBe(404);
    const res = await post(handle, "\0", { body: form({ intent: "comment", name: "A", email: "a@example.com", content: "x" }) });
    expect(res.status).toBe(404);
    // an unknown but well-formed slug still redirects to the list (spec)
    const unknown = await article(handle, "no-such-article");
    expect(unknown.status).toBe(302);
    expect(unknown.headers.get("location")).toBe("/blog");
  });

  it.skipIf(skip)("stores a comment with NUL and control characters without them, and a report reason too", async () => {
    handle = await open();
    const res = await post(handle, SLUG, {
      body: form({ intent: "comment", formKey: "root", name: "Ada\0 Lovelace", email: "ada@example.com\0", content: "Line one\0\nLine\u0007 two" }),
      headers: cookie(),
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ok: true, message: { title: "Comment submitted" } });
    const [row] = await handle.db.select().from(blogComments);
    // (a multipart body carries line breaks as CRLF)
    expect(row).toMatchObject({ name: "Ada Lovelace", email: "ada@example.com", content: "Line one\r\nLine two" });
    const report = await post(handle, SLUG, { body: form({ intent: "report", commentId: row!.id, reason: "spam\0" }), headers: cookie() });
    expect(report.status).toBe(200);
    expect((await handle.db.select().from(blogCommentReports))[0]?.reason).toBe("spam");
    // NUL in ids is just a wrong id
    const like = await post(handle, SLUG, { body: form({ intent: "like", commentId: `${row!.id}\0` }), headers: cookie(), ip: ip(1) });
    expect(like.status).toBe(404);
  });

  it.skipIf(skip)("refuses bodies that are not a form with 400 and a clear message", async () => {
    handle = await open();
    const unreadable = { ok: false, message: { title: "Error", description: "The comment form could not be read. Please reload the page and try again." } };
    const cases: Array<{ label: string; body?: BodyInit; headers?: HeadersInit }> = [
      { label: "JSON", body: JSON.stringify({ intent: "comment", name: "A" }), headers: { "content-type": "application/json" } },
      { label: "plain text", body: "intent=comment", headers: { "content-type": "text/plain" } },
      { label: "no body" },
      { label: "broken multipart boundary", body: "--nope\r\ncontent-disposition: form-data; name=\"x\"\r\n\r\n1\r\n--nope--", headers: { "content-type": "multipart/form-data; boundary=something-else" } },
      { label: "multipart without boundary", body: "x", headers: { "content-type": "multipart/form-data" } },
      { label: "truncated multipart", body: "--b\r\ncontent-disposition: form-data; name=\"intent\"\r\n\r\ncomm", headers: { "content-type": "multipart/form-data; boundary=b" } },
    ];
    for (const c of cases) {
      const res = await post(handle, SLUG, { body: c.body, headers: c.headers });
      expect(res.status, c.label).toBe(400);
      expect(res.body, c.label).toMatchObject(unreadable);
    }
    expect(await handle.db.$count(blogComments)).toBe(0);
  });

  it.skipIf(skip)("sets no cookie on the article page (one cacheable page for every new reader) and marks a returning visitor's own likes", async () => {
    handle = await open();
    const commentId = await aComment(handle);
    const likedBy = (res: { body: unknown }) => (res.body as { comments: { id: string; likedByMe: boolean }[] }).comments.find((c) => c.id === commentId)?.likedByMe;
    for (const headers of [{}, cookie(), { cookie: `${VISITOR_COOKIE}=%E0%A4%A` }] as HeadersInit[]) {
      const res = await article(handle, SLUG, headers);
      expect(res.status).toBe(200);
      expect(res.headers.get("set-cookie")).toBeNull();
    }
    expect(likedBy(await article(handle, SLUG, cookie()))).toBe(false);
    expect((await post(handle, SLUG, { body: form({ intent: "like", commentId }), headers: cookie(), ip: ip(41) })).status).toBe(200);
    expect(likedBy(await article(handle, SLUG, cookie()))).toBe(true);
    expect(likedBy(await article(handle, SLUG))).toBe(false);
  });

  it.skipIf(skip)("counts a like only from a visitor cookie the browser already had", async () => {
    handle = await open();
    const commentId = await aComment(handle);
    // no cookie (or a broken one): not counted, told so, and given a cookie for the next click
    // a made-up id the server never signed counts as no cookie too
    for (const headers of [{}, { cookie: `${VISITOR_COOKIE}=%E0%A4%A` }, { cookie: `${VISITOR_COOKIE}=${VISITOR}` }] as HeadersInit[]) {
      const res = await post(handle, SLUG, { body: form({ intent: "like", commentId }), headers, ip: ip(2) });
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ intent: "like", commentId, ok: false, message: { title: "Like not counted", description: "Please try again. If this keeps happening, allow cookies for this site." } });
      expect(res.headers.get("set-cookie")).toMatch(new RegExp(`^${VISITOR_COOKIE}=[0-9a-f-]{36}\\.[A-Za-z0-9_-]{22};`));
    }
    expect(await handle.db.$count(blogCommentLikes)).toBe(0);
    const [before] = await handle.db.select({ likes: blogComments.likes }).from(blogComments);
    expect(before?.likes).toBe(0);
    // with the cookie it had: counted once
    const liked = await post(handle, SLUG, { body: form({ intent: "like", commentId }), headers: cookie(), ip: ip(2) });
    expect(liked).toMatchObject({ status: 200, body: { intent: "like", commentId, ok: true, likes: 1 } });
    const twice = await post(handle, SLUG, { body: form({ intent: "like", commentId }), headers: cookie(), ip: ip(2) });
    expect(twice).toMatchObject({ status: 200, body: { ok: true, likes: 1 } });
  });

  it.skipIf(skip)("limits likes per address and article, with Retry-After", async () => {
    handle = await open();
    const commentId = await aComment(handle);
    const visitor = (i: number) => `0b8f7c1e-2d3a-4b5c-8d9e-${String(i).padStart(12, "0")}`;
    for (let i = 0; i < LIKE_LIMIT.limit; i++) {
      const res = await post(handle, SLUG, { body: form({ intent: "like", commentId }), headers: cookie(visitor(i)), ip: ip(3) });
      expect(res.status).toBe(200);
    }
    const limited = await post(handle, SLUG, { body: form({ intent: "like", commentId }), headers: cookie(visitor(99)), ip: ip(3) });
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ ok: false, message: { title: "Too many likes" } });
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    const [row] = await handle.db.select({ likes: blogComments.likes }).from(blogComments);
    expect(row?.likes).toBe(LIKE_LIMIT.limit);
    // another address is not affected
    const other = await post(handle, SLUG, { body: form({ intent: "like", commentId }), headers: cookie(visitor(99)), ip: ip(4) });
    expect(other).toMatchObject({ status: 200, body: { ok: true, likes: LIKE_LIMIT.limit + 1 } });
  });

  it.skipIf(skip)("lists every written article on the first page of /blog", async () => {
    handle = await open();
    const res = await list(handle, "");
    const body = res.body as { articles: { slug: string }[]; guides: { slug: string }[] };
    expect(body.articles).toHaveLength(6);
    const shown = [...body.articles, ...body.guides].map((a) => a.slug);
    const local = getLocalArticles().map((a) => a.slug);
    expect(local).toHaveLength(12);
    for (const slug of local) expect(shown, slug).toContain(slug);
    // each once
    expect(new Set(shown).size).toBe(shown.length);
    // a filtered list shows what matches, without the guides
    const filtered = await list(handle, "?tag=MP3");
    expect((filtered.body as { guides: unknown[] }).guides).toEqual([]);
  });
});
