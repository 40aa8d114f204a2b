import { randomBytes } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, describe, expect, it } from "vitest";
import { createPostgresDatabase, postgresBaseUrl, queryRows } from "./support/database.ts";
import { rawRequest, type Header } from "./support/raw-http.ts";
import { startServer, type AttackServer } from "./support/server.ts";
import { ARTICLE_SLUG } from "./support/targets.ts";

/**
 * Issue 8 (d): `kill -9` while contact messages, comments and newsletter subscriptions are being
 * written. Whatever the server acknowledged (a 2xx) before it died must be there after a restart
 * on the same data: an acknowledgement is a promise the write is durable.
 */
const CONCURRENCY = 12;
/** acknowledged writes to collect before the kill, so it lands mid-stream */
const ACKS_BEFORE_KILL = 60;

type Kind = "contact" | "contact-page" | "comment" | "newsletter";
const KINDS: Kind[] = ["contact", "contact-page", "comment", "newsletter"];

interface Write {
  kind: Kind;
  marker: string;
}

function requestFor(server: AttackServer, w: Write): { method: string; target: string; headers: Header[]; body: string } {
  const sameOrigin: Header[] = [["Origin", server.origin], ["Sec-Fetch-Site", "same-origin"]];
  const form: Header = ["Content-Type", "application/x-www-form-urlencoded"];
  const fields = (o: Record<string, string>) => new URLSearchParams(o).toString();
  switch (w.kind) {
    case "contact":
      return { method: "POST", target: "/contact-us.data", headers: [form, ...sameOrigin], body: fields({ name: "Crash", email: "crash@example.test", subject: "kill -9", message: `durable ${w.marker}` }) };
    case "contact-page":
      return { method: "POST", target: "/contact-us", headers: [form, ["Accept", "text/html"], ...sameOrigin], body: fields({ name: "Crash", email: "crash@example.test", message: `durable ${w.marker}` }) };
    case "comment":
      return {
        method: "POST",
        target: `/blog/${ARTICLE_SLUG}.data`,
        headers: [form, ...sameOrigin],
        body: fields({ intent: "comment", formKey: "root", name: "Crash", email: "crash@example.test", content: `durable ${w.marker}` }),
      };
    case "newsletter":
      return { method: "POST", target: "/newsletter", headers: [["Content-Type", "application/json"], ["Accept", "application/json"], ...sameOrigin], body: JSON.stringify({ email: `${w.marker}@example.test` }) };
  }
}

/** Fire writes until the server is killed; returns what was acknowledged and what was in flight at the kill. */
async function writeUntilKilled(server: AttackServer): Promise<{ acked: Write[]; inFlightAtKill: number; refused: string[] }> {
  const run = randomBytes(3).toString("hex");
  const acked: Write[] = [];
  const refused: string[] = [];
  let n = 0;
  let inFlight = 0;
  let killed = false;
  const writer = async () => {
    while (!killed) {
      const w: Write = { kind: KINDS[n % KINDS.length]!, marker: `k${run}x${n++}` };
      const req = requestFor(server, w);
      inFlight++;
      const res = await rawRequest({ port: server.port, ...req, timeoutMs: 20_000 });
      inFlight--;
      if (res.kind === "response" && res.status >= 200 && res.status < 300) acked.push(w);
      else if (res.kind === "response" && !killed) refused.push(`${w.kind} ${res.status} ${res.body.toString("utf8").slice(0, 120)}`);
    }
  };
  const writers = Array.from({ length: CONCURRENCY }, writer);
  const deadline = Date.now() + 90_000;
  while (acked.length < ACKS_BEFORE_KILL && Date.now() < deadline && refused.length < 20) await sleep(20);
  // a random moment a little later, while the writers keep going
  await sleep(100 + Math.floor(Math.random() * 400));
  const inFlightAtKill = inFlight;
  await server.kill9();
  killed = true;
  await Promise.all(writers);
  return { acked, inFlightAtKill, refused };
}

async function storedMarkers(where: { dataDir: string; databaseUrl?: string }): Promise<Set<string>> {
  const found = new Set<string>();
  const pick = (text: unknown) => {
    const m = /k[0-9a-f]{6}x\d+/.exec(String(text));
    if (m) found.add(m[0]);
  };
  for (const r of await queryRows<{ message: string }>(where, "select message from contact_messages")) pick(r.message);
  for (const r of await queryRows<{ content: string }>(where, "select content from blog_comments")) pick(r.content);
  for (const r of await queryRows<{ email: string }>(where, "select email from newsletter_subscribers")) pick(r.email);
  return found;
}

const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c().catch(() => undefined);
});

async function crashAndCheck(databaseUrl: string | undefined, port: number) {
  const first = await startServer({ preferredPort: port, databaseUrl });
  cleanups.push(() => first.stop());
  const { acked, inFlightAtKill, refused } = await writeUntilKilled(first);
  expect(refused, "writes refused before the kill").toEqual([]);
  expect(first.exited(), "the first server was killed").toBe("SIGKILL");
  expect(inFlightAtKill, "writes in flight when the server was killed").toBeGreaterThan(0);

  // the same data folder (PGlite) or database (PostgreSQL), after the crash
  const second = await startServer({ preferredPort: port, dataDir: first.dataDir, databaseUrl });
  cleanups.push(() => second.stop());
  // comments are visible to everyone: check them through the site too
  const article = await (await fetch(`${second.origin}/blog/${ARTICLE_SLUG}`)).text();
  const ackedComments = acked.filter((w) => w.kind === "comment");
  const missingOnPage = ackedComments.filter((w) => !article.includes(w.marker)).map((w) => w.marker);
  await second.stop();

  const stored = await storedMarkers({ dataDir: first.dataDir, databaseUrl });
  const lost = acked.filter((w) => !stored.has(w.marker)).map((w) => `${w.kind} ${w.marker}`);
  const byKind = KINDS.map((k) => `${k} ${acked.filter((w) => w.kind === k).length}`).join(", ");
  console.log(`[kill -9] ${databaseUrl ? "PostgreSQL" : "PGlite"}: ${acked.length} acknowledged (${byKind}), ${inFlightAtKill} in flight at the kill, ${lost.length} lost`);
  for (const k of KINDS) expect(acked.some((w) => w.kind === k), `some ${k} writes were acknowledged`).toBe(true);
  expect(lost, "acknowledged writes missing after the restart").toEqual([]);
  expect(missingOnPage, "acknowledged comments missing from the article after the restart").toEqual([]);
}

describe("kill -9 during writes", () => {
  it("loses no acknowledged write on PGlite", async () => {
    await crashAndCheck(undefined, 3323);
  }, 300_000);

  const pgBase = postgresBaseUrl();
  if (!pgBase) console.log("[notice] TEST_DATABASE_URL is not set: the PostgreSQL variant of the kill -9 test is skipped");
  it.skipIf(!pgBase)("loses no acknowledged write on PostgreSQL", async () => {
    const db = await createPostgresDatabase("vidfetch_attack_crash");
    cleanups.push(() => db.drop());
    await crashAndCheck(db.url, 3324);
  }, 300_000);
});
