import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "./support/database.ts";
import { describe as describeExchange, rawRequest, type Header, type RawResult } from "./support/raw-http.ts";
import { startServer, type AttackServer } from "./support/server.ts";
import { ARTICLE_SLUG, isOwnPagePath } from "./support/targets.ts";

/**
 * Issue 8 (e), findings 6 and 7: a form on another site must not change anything here (403),
 * an `<img>` on another site must not start a download, `curl -LOJ` and our own pages keep
 * working, and the newsletter's no-JavaScript return path never leaves the site.
 */
const DOWNLOAD_LIMIT = 5;
const RUN = randomBytes(3).toString("hex");
const COMMENT_PATH = `/blog/${ARTICLE_SLUG}`;
const form: Header = ["Content-Type", "application/x-www-form-urlencoded"];
const json: Header = ["Content-Type", "application/json"];

let server: AttackServer;
let commentId: string;
/** the visitor's cookie, as their browser would send it along with a forged request */
let visitorCookie: Header;

beforeAll(async () => {
  // a small download allowance: refused cross-site attempts must not spend it
  server = await startServer({ preferredPort: 3325, env: { DOWNLOADS_PER_IP_PER_HOUR: String(DOWNLOAD_LIMIT) } });
  const made = await post(COMMENT_PATH + ".data", [form, ...sameOrigin()], fields({ intent: "comment", formKey: "root", name: "Target", email: "t@example.test", content: `target ${RUN}` }));
  expect(status(made)).toBe(200);
  const res = await fetch(`${server.origin}${COMMENT_PATH}`);
  const article = await res.text();
  commentId = new RegExp(`name="commentId" value="([0-9a-f-]{36})"`).exec(article)![1]!;
  // the article page sets no cookie (it is cached for every new reader); the first form post gives the id
  expect(res.headers.getSetCookie()).toEqual([]);
  const cookie = made.kind === "response" ? /vf_visitor=[^;,\s]+/.exec(made.headers["set-cookie"] ?? "")?.[0] : undefined;
  expect(cookie, "the first form post gives a first-time visitor their id").toBeTruthy();
  visitorCookie = ["Cookie", cookie!];
}, 200_000);

afterAll(async () => {
  await server?.stop();
});

const fields = (o: Record<string, string>) => new URLSearchParams(o).toString();
const status = (r: RawResult) => (r.kind === "response" ? r.status : r.kind);
const sameOrigin = (): Header[] => [["Origin", server.origin], ["Sec-Fetch-Site", "same-origin"], ["Sec-Fetch-Mode", "navigate"], ["Referer", `${server.origin}/`]];

function post(target: string, headers: Header[], body: string) {
  return rawRequest({ port: server.port, method: "POST", target, headers, body });
}

/** Every state-changing request the site takes, with a body that would succeed from our own page. */
function stateChanging(marker: string): Array<{ name: string; target: string; headers: Header[]; body: string }> {
  return [
    { name: "contact form", target: "/contact-us", headers: [form, ["Accept", "text/html"]], body: fields({ name: "Eve", email: "eve@example.test", message: `csrf ${marker}` }) },
    { name: "contact form (fetcher)", target: "/contact-us.data", headers: [form], body: fields({ name: "Eve", email: "eve@example.test", message: `csrf ${marker}` }) },
    { name: "platform request", target: "/supported-sites", headers: [form, ["Accept", "text/html"]], body: fields({ platformName: `csrf ${marker}` }) },
    { name: "platform request (fetcher)", target: "/supported-sites.data", headers: [form], body: fields({ platformName: `csrf ${marker}` }) },
    { name: "newsletter (form)", target: "/newsletter", headers: [form, ["Accept", "text/html"]], body: fields({ email: `form-${marker}@example.test` }) },
    { name: "newsletter (JSON)", target: "/newsletter", headers: [json, ["Accept", "application/json"]], body: JSON.stringify({ email: `json-${marker}@example.test` }) },
    { name: "comment", target: COMMENT_PATH, headers: [form, ["Accept", "text/html"]], body: fields({ intent: "comment", formKey: "root", name: "Eve", email: "eve@example.test", content: `csrf ${marker}` }) },
    { name: "comment (fetcher)", target: `${COMMENT_PATH}.data`, headers: [form], body: fields({ intent: "comment", formKey: "root", name: "Eve", email: "eve@example.test", content: `csrf ${marker}b` }) },
    { name: "like", target: `${COMMENT_PATH}.data`, headers: [form], body: fields({ intent: "like", commentId }) },
    { name: "report", target: `${COMMENT_PATH}.data`, headers: [form], body: fields({ intent: "report", commentId, reason: `csrf ${marker}` }) },
    { name: "API: create a download", target: "/api/v1/downloads", headers: [json], body: JSON.stringify({ url: "https://youtu.be/vidfetch720", format: "mp4-360" }) },
  ];
}

/** How a browser marks a request another site made it send. */
const CROSS_SITE: Array<[string, Header[]]> = [
  ["Origin evil + Sec-Fetch-Site cross-site", [["Origin", "https://evil.example"], ["Sec-Fetch-Site", "cross-site"], ["Sec-Fetch-Mode", "navigate"]]],
  ["Origin null (sandboxed frame)", [["Origin", "null"], ["Sec-Fetch-Site", "cross-site"]]],
  ["Sec-Fetch-Site cross-site, no Origin", [["Sec-Fetch-Site", "cross-site"]]],
  ["Origin evil, no Sec-Fetch headers", [["Origin", "https://evil.example"]]],
  ["Origin that only starts like ours", [["Origin", "ORIGIN.evil.example"]]],
  ["Origin with another scheme", [["Origin", "https://127.0.0.1:PORT"]]],
  ["Referer evil, no Origin or Sec-Fetch", [["Referer", "https://evil.example/page"]]],
];

function crossSiteHeaders(h: Header[]): Header[] {
  return h.map(([k, v]) => [k, v.replace("ORIGIN", server.origin).replace("PORT", String(server.port))] as Header);
}

describe("the newsletter's no-JavaScript return path", () => {
  it("never redirects outside the site, whatever the Referer says", async () => {
    const o = server.origin;
    const referers = [
      `${o}//evil.example/x`,
      `${o}/\\evil.example`,
      `${o}/\\/evil.example/`,
      `${o}////evil.example`,
      `${o}/%2F%2Fevil.example`,
      `${o}/%5Cevil.example`,
      `${o}/%2F/evil.example`,
      `${o}/..//evil.example`,
      `${o}/blog/..//evil.example`,
      `${o}/./\\evil.example`,
      `${o}/\t/evil.example`,
      `${o}/%09/evil.example`,
      `${o}/%0d%0aLocation:%20https://evil.example`,
      `${o}@evil.example/`,
      `${o}.evil.example/blog`,
      `http://evil.example#@127.0.0.1:${server.port}/blog`,
      "https://evil.example/",
      "https://evil.example/blog",
      "//evil.example/blog",
      "/\\evil.example",
      "javascript:alert(1)",
      "data:text/html,hi",
      `${o}/blog?next=//evil.example`,
      `${o}/not-a-page-of-ours`,
      `${o}/api/v1/download?url=x&format=mp4-360`,
      `${o}/newsletter`,
    ];
    const wrong: string[] = [];
    for (const referer of referers) {
      for (const email of ["ok-redirect@example.test", "not-an-email"]) {
        const headers: Header[] = [form, ["Accept", "text/html"], ["Origin", o], ["Sec-Fetch-Site", "same-origin"], ["Referer", referer]];
        const res = await post("/newsletter", headers, fields({ email }));
        const location = res.kind === "response" ? (res.headers.location ?? "") : "";
        const path = location ? new URL(location, o) : null;
        const safe =
          res.kind === "response" &&
          res.status === 303 &&
          /^\/(?![/\\])/.test(location) &&
          !/[\\\r\n\t]/.test(location) &&
          path?.origin === o &&
          isOwnPagePath(path.pathname);
        if (!safe) wrong.push(`Referer ${JSON.stringify(referer)}:\n    ${describeExchange({ method: "POST", target: "/newsletter", headers }, res)} Location: ${JSON.stringify(location)}`);
      }
    }
    expect(wrong, `unsafe return paths:\n  ${wrong.join("\n  ")}`).toEqual([]);
  });

  it("returns to the page the form was on when that is one of ours", async () => {
    const o = server.origin;
    // the pages that show the newsletter box
    for (const page of ["/blog", COMMENT_PATH]) {
      const res = await post("/newsletter", [form, ["Accept", "text/html"], ["Origin", o], ["Sec-Fetch-Site", "same-origin"], ["Referer", `${o}${page}`]], fields({ email: "back@example.test" }));
      expect(status(res)).toBe(303);
      const location = res.kind === "response" ? res.headers.location! : "";
      expect(new URL(location, o).pathname).toBe(page);
      expect(location).toContain("newsletter=subscribed");
    }
  });
});

describe("cross-site request forgery", () => {
  const markers: string[] = [];

  it("refuses every state-changing request another site makes the browser send (403)", async () => {
    const wrong: string[] = [];
    for (const [variant, headers] of CROSS_SITE) {
      const marker = `x${RUN}${markers.length}`;
      markers.push(marker);
      for (const r of stateChanging(marker)) {
        const res = await post(r.target, [...r.headers, visitorCookie, ...crossSiteHeaders(headers)], r.body);
        if (status(res) !== 403) wrong.push(`${r.name} · ${variant}:\n    ${describeExchange({ method: "POST", target: r.target, headers: [...r.headers, ...crossSiteHeaders(headers)] }, res)}`);
      }
    }
    expect(wrong, `cross-site requests not refused:\n  ${wrong.join("\n  ")}`).toEqual([]);
  });

  it("accepts the same requests from our own pages", async () => {
    const marker = `s${RUN}`;
    const wrong: string[] = [];
    for (const r of stateChanging(marker)) {
      const res = await post(r.target, [...r.headers, visitorCookie, ...sameOrigin()], r.body);
      const ok = res.kind === "response" && (res.status === 200 || (r.name === "newsletter (form)" && res.status === 303));
      if (!ok) wrong.push(`${r.name}:\n    ${describeExchange({ method: "POST", target: r.target, headers: r.headers }, res)}`);
    }
    expect(wrong, `same-origin requests refused:\n  ${wrong.join("\n  ")}`).toEqual([]);
  });

  it("refuses a download another site starts (an <img>, a cross-site fetch) without spending the allowance", async () => {
    const target = "/api/v1/download?url=https%3A%2F%2Fyoutu.be%2Fvidfetch720&format=mp4-360";
    const attempts: Array<[string, Header[]]> = [
      ["<img> on another site", [["Sec-Fetch-Site", "cross-site"], ["Sec-Fetch-Mode", "no-cors"], ["Sec-Fetch-Dest", "image"], ["Referer", "https://evil.example/"]]],
      ["Sec-Fetch-Site cross-site", [["Sec-Fetch-Site", "cross-site"]]],
      ["link from another site", [["Sec-Fetch-Site", "cross-site"], ["Sec-Fetch-Mode", "navigate"], ["Sec-Fetch-Dest", "document"]]],
      ["cross-origin fetch", [["Origin", "https://evil.example"], ["Sec-Fetch-Site", "cross-site"], ["Sec-Fetch-Mode", "cors"]]],
      ["same-site sibling", [["Sec-Fetch-Site", "same-site"], ["Sec-Fetch-Dest", "image"], ["Sec-Fetch-Mode", "no-cors"]]],
      ["Referer from another site only", [["Referer", "https://evil.example/"]]],
      ["<img> again", [["Sec-Fetch-Site", "cross-site"], ["Sec-Fetch-Dest", "image"]]],
      ["<img> once more", [["Sec-Fetch-Site", "cross-site"], ["Sec-Fetch-Dest", "image"]]],
    ];
    expect(attempts.length).toBeGreaterThan(DOWNLOAD_LIMIT);
    const wrong: string[] = [];
    for (const [name, headers] of attempts) {
      const res = await rawRequest({ port: server.port, method: "GET", target, headers });
      if (status(res) !== 403 || (res.kind === "response" && res.headers.location)) wrong.push(`${name}:\n    ${describeExchange({ method: "GET", target, headers }, res)}`);
    }
    expect(wrong, `cross-site downloads not refused:\n  ${wrong.join("\n  ")}`).toEqual([]);

    // curl -LOJ: no Origin, no Sec-Fetch headers; the redirect leads to the file
    const curl = await rawRequest({ port: server.port, method: "GET", target, headers: [["User-Agent", "curl/8.5.0"], ["Accept", "*/*"]] });
    expect(status(curl), describeExchange({ method: "GET", target }, curl)).toBe(302);
    const location = curl.kind === "response" ? curl.headers.location! : "";
    const file = await fetch(new URL(location, server.origin), { headers: { "user-agent": "curl/8.5.0" } });
    expect(file.status).toBe(200);
    expect(file.headers.get("content-disposition")).toMatch(/^attachment;/);
    await file.body?.cancel();

    // our own page's fetch
    const ours = await rawRequest({
      port: server.port,
      method: "GET",
      target,
      headers: [["Sec-Fetch-Site", "same-origin"], ["Sec-Fetch-Mode", "cors"], ["Sec-Fetch-Dest", "empty"], ["Referer", `${server.origin}/`]],
    });
    expect(status(ours), describeExchange({ method: "GET", target }, ours)).toBe(302);
  });

  it("refuses a download started by an image on our own pages (no page of ours loads a download as an image)", async () => {
    const target = "/api/v1/download?url=https%3A%2F%2Fyoutu.be%2Fvidfetch720&format=mp4-360";
    const headers: Header[] = [["Sec-Fetch-Site", "same-origin"], ["Sec-Fetch-Mode", "no-cors"], ["Sec-Fetch-Dest", "image"]];
    const res = await rawRequest({ port: server.port, method: "GET", target, headers });
    expect(status(res), describeExchange({ method: "GET", target, headers }, res)).toBe(403);
  });

  it("changed nothing for the refused requests, and stored the accepted ones", async () => {
    // PGlite is read from its folder, which needs the server stopped; this is the suite's last test
    await server.stop();
    const where = { dataDir: server.dataDir, databaseUrl: server.databaseUrl };
    const texts = [
      ...(await queryRows<{ t: string }>(where, "select message as t from contact_messages")),
      ...(await queryRows<{ t: string }>(where, "select platform_name as t from platform_requests")),
      ...(await queryRows<{ t: string }>(where, "select email as t from newsletter_subscribers")),
      ...(await queryRows<{ t: string }>(where, "select content as t from blog_comments")),
      ...(await queryRows<{ t: string }>(where, "select reason as t from blog_comment_reports")),
    ].map((r) => r.t);
    const leaked = texts.filter((t) => markers.some((m) => t.includes(m)));
    expect(leaked, "rows written by refused cross-site requests").toEqual([]);
    const likes = await queryRows<{ likes: number; n: string }>(where, `select likes, (select count(*) from blog_comment_likes where comment_id = '${commentId}') as n from blog_comments where id = '${commentId}'`);
    // exactly the one same-origin like
    expect(likes[0]).toEqual({ likes: 1, n: expect.anything() });
    expect(Number(likes[0]!.n)).toBe(1);
    const accepted = `s${RUN}`;
    for (const kind of ["contact", "platform", "newsletter", "comment", "report"]) {
      expect(texts.some((t) => t.includes(accepted)), `a same-origin ${kind} row`).toBe(true);
    }
  });
});
