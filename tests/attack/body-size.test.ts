import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bodyText, describe as describeExchange, rawRequest, type Header, type RawRequest, type RawResult } from "./support/raw-http.ts";
import { settledRssMb, startServer, type AttackServer } from "./support/server.ts";
import { ARTICLE_SLUG } from "./support/targets.ts";

/**
 * Issue 8 (b), finding 1: every route that reads a body has a limit fitting its form, checked
 * while the body streams in (not after buffering it), answered 413 with a clear message,
 * promptly. Memory must not balloon and /healthz must stay responsive during a flood.
 */
const MB = 1024 * 1024;
const BIG = 50 * MB;
/** 413 must come this soon: the server stops at its limit instead of reading 50 MB. */
const PROMPT_MS = 5_000;
const CLEAR_MESSAGE = /too large|too big|size limit|limit/i;

let server: AttackServer;

beforeAll(async () => {
  server = await startServer({ preferredPort: 3321 });
}, 200_000);

afterAll(async () => {
  await server?.stop();
});

const COMMENT_PATH = `/blog/${ARTICLE_SLUG}`;
const BOUNDARY = "----vidfetchBodySize";

/** A urlencoded body whose one field is `size` bytes long. */
function bigForm(field: string, size: number, prefix = ""): Buffer {
  const head = Buffer.from(`${prefix}${field}=`);
  return Buffer.concat([head, Buffer.alloc(size - head.length, "a")]);
}

function bigJson(field: string, size: number): Buffer {
  const head = Buffer.from(`{"${field}":"`);
  const tail = Buffer.from('"}');
  return Buffer.concat([head, Buffer.alloc(size - head.length - tail.length, "a"), tail]);
}

/** `total` bytes in 256 KB pieces, produced lazily (a chunked upload of unknown length). */
async function* pieces(first: Buffer, total: number, last = Buffer.alloc(0)): AsyncGenerator<Buffer> {
  yield first;
  const piece = Buffer.alloc(256 * 1024, "a");
  let sent = first.length;
  while (sent < total) {
    const n = Math.min(piece.length, total - sent);
    yield n === piece.length ? piece : piece.subarray(0, n);
    sent += n;
  }
  yield last;
}

function multipartHead(fields: Record<string, string>, bigField: string): Buffer {
  let text = "";
  for (const [k, v] of Object.entries(fields)) text += `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`;
  text += `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${bigField}"\r\n\r\n`;
  return Buffer.from(text);
}

interface Case {
  name: string;
  /** built when the test runs: 50 MB bodies and one-shot generators */
  req: () => Omit<RawRequest, "port">;
}

const form: Header = ["Content-Type", "application/x-www-form-urlencoded"];
const json: Header = ["Content-Type", "application/json"];
const multipart: Header = ["Content-Type", `multipart/form-data; boundary=${BOUNDARY}`];
const html: Header = ["Accept", "text/html"];

const CASES: Case[] = [
  // 50 MB with Content-Length
  { name: "contact form, 50 MB urlencoded", req: () => ({ method: "POST", target: "/contact-us", headers: [form, html], body: bigForm("message", BIG, "name=a&email=a%40b.co&") }) },
  { name: "contact form (single fetch), 50 MB urlencoded", req: () => ({ method: "POST", target: "/contact-us.data", headers: [form], body: bigForm("message", BIG, "name=a&email=a%40b.co&") }) },
  { name: "platform request, 50 MB urlencoded", req: () => ({ method: "POST", target: "/supported-sites", headers: [form, html], body: bigForm("details", BIG, "platformName=x&") }) },
  { name: "newsletter, 50 MB urlencoded", req: () => ({ method: "POST", target: "/newsletter", headers: [form], body: bigForm("email", BIG) }) },
  { name: "newsletter, 50 MB JSON", req: () => ({ method: "POST", target: "/newsletter", headers: [json], body: bigJson("email", BIG) }) },
  { name: "comment, 50 MB multipart", req: () => ({ method: "POST", target: COMMENT_PATH, headers: [multipart], body: Buffer.concat([multipartHead({ intent: "comment", name: "a", email: "a@b.co" }, "content"), Buffer.alloc(BIG, "a")]) }) },
  { name: "API resolve, 50 MB JSON", req: () => ({ method: "POST", target: "/api/v1/resolve", headers: [json], body: bigJson("url", BIG) }) },
  // chunked, no Content-Length: the size is only known while reading
  { name: "contact form, chunked 50 MB", req: () => ({ method: "POST", target: "/contact-us", headers: [form, html], chunks: pieces(Buffer.from("name=a&email=a%40b.co&message="), BIG) }) },
  { name: "platform request, chunked 50 MB", req: () => ({ method: "POST", target: "/supported-sites.data", headers: [form], chunks: pieces(Buffer.from("platformName=x&details="), BIG) }) },
  { name: "newsletter, chunked 50 MB JSON", req: () => ({ method: "POST", target: "/newsletter", headers: [json], chunks: pieces(Buffer.from('{"email":"'), BIG, Buffer.from('"}')) }) },
  {
    name: "comment, chunked 50 MB multipart",
    req: () => ({ method: "POST", target: COMMENT_PATH, headers: [multipart], chunks: pieces(multipartHead({ intent: "comment", name: "a", email: "a@b.co" }, "content"), BIG, Buffer.from(`\r\n--${BOUNDARY}--\r\n`)) }),
  },
  { name: "comment like, chunked 50 MB urlencoded", req: () => ({ method: "POST", target: `${COMMENT_PATH}.data`, headers: [form], chunks: pieces(Buffer.from("intent=like&commentId="), BIG) }) },
  { name: "API downloads, chunked 50 MB JSON", req: () => ({ method: "POST", target: "/api/v1/downloads", headers: [json], chunks: pieces(Buffer.from('{"format":"mp4-720","url":"'), BIG, Buffer.from('"}')) }) },
];

function expect413(name: string, req: Omit<RawRequest, "port">, res: RawResult) {
  const seen = describeExchange({ method: req.method, target: req.target, headers: req.headers }, res);
  expect(res.kind === "response" ? res.status : res.kind, `${name}:\n  ${seen}`).toBe(413);
  expect(bodyText(res), `${name}: the 413 says what is wrong:\n  ${seen}`).toMatch(CLEAR_MESSAGE);
  if (res.kind === "response") expect(res.msToHeaders, `${name}: answered after ${res.msToHeaders} ms`).toBeLessThan(PROMPT_MS);
}

describe("bodies larger than a form needs", () => {
  for (const c of CASES) {
    it(`refuses ${c.name} with a prompt 413`, async () => {
      const req = c.req();
      const res = await rawRequest({ port: server.port, timeoutMs: 60_000, ...req });
      expect413(c.name, req, res);
    }, 90_000);
  }

  it.each([
    ["/contact-us", form],
    ["/supported-sites", form],
    ["/newsletter", json],
    [COMMENT_PATH, multipart],
    ["/api/v1/resolve", json],
  ] as const)("refuses %s when Content-Length announces 50 MB, before the body is sent", async (target, type) => {
    // only the first kilobyte arrives: a server that waits for the rest would hang here
    const req = { method: "POST", target, headers: [type, ["Content-Length", String(BIG)]] as Header[], chunks: undefined };
    const res = await rawRequest({ port: server.port, timeoutMs: 15_000, ...req, body: Buffer.alloc(1024, "a") });
    expect413(`${target} with Content-Length ${BIG}`, req, res);
  });

  it("keeps memory flat and /healthz responsive during ten concurrent 50 MB posts", async () => {
    const before = await settledRssMb(server, { maxMs: 5_000 });
    let peak = before;
    let slowestHealth = 0;
    let healthFailures = 0;
    let flooding = true;
    const watch = (async () => {
      while (flooding) {
        peak = Math.max(peak, server.rssMb());
        const t = Date.now();
        const res = await rawRequest({ port: server.port, method: "GET", target: "/healthz", timeoutMs: 15_000 });
        if (res.kind !== "response" || res.status !== 200) healthFailures++;
        slowestHealth = Math.max(slowestHealth, Date.now() - t);
        await sleep(200);
      }
    })();
    const targets = ["/contact-us", "/supported-sites", "/newsletter", "/contact-us.data", "/supported-sites.data"];
    const body = bigForm("message", BIG, "name=a&email=a%40b.co&platformName=x&");
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) => rawRequest({ port: server.port, method: "POST", target: targets[i % targets.length]!, headers: [form], body, timeoutMs: 90_000 })),
    );
    flooding = false;
    await watch;
    peak = Math.max(peak, server.rssMb());
    const statuses = results.map((r) => (r.kind === "response" ? r.status : r.kind));
    console.log(`[body-size] flood: RSS ${before.toFixed(0)} MB before, peak ${peak.toFixed(0)} MB; slowest /healthz ${slowestHealth} ms; answers ${statuses.join(", ")}`);
    expect(statuses, "every 50 MB post is refused with 413").toEqual(Array(10).fill(413));
    expect(peak - before, `RSS grew from ${before.toFixed(0)} MB to ${peak.toFixed(0)} MB`).toBeLessThan(100);
    expect(healthFailures, "/healthz failed during the flood").toBe(0);
    expect(slowestHealth, "slowest /healthz during the flood (ms)").toBeLessThan(2_000);
  }, 180_000);

  it("still accepts a form of ordinary size", async () => {
    const res = await rawRequest({
      port: server.port,
      method: "POST",
      target: "/contact-us.data",
      headers: [form, ["Origin", server.origin], ["Sec-Fetch-Site", "same-origin"]],
      body: new URLSearchParams({ name: "Ada", email: "ada@example.test", subject: "Hi", message: "m".repeat(4_900) }).toString(),
    });
    expect(res.kind === "response" && res.status).toBe(200);
  });
});
