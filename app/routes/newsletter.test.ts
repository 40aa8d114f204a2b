import { describe, expect, it } from "vitest";
import { createMemoryLimiter } from "#app/lib/attempt-limiter.server.ts";
import { settleBackgroundWork } from "#app/modules/account/background-work.server.ts";
import type { MailMessage } from "#app/modules/account/mailer.server.ts";
import type { Database } from "#db/client.ts";
import { newsletterSubscribers } from "#db/schema/index.ts";
import { formPost, routeContext, unwrap } from "#tests/support/route-context.ts";
import { testDatabases, withTestDatabase, type TestDatabase } from "#tests/support/test-db.ts";
import { action, loader } from "./newsletter.ts";

const SUCCESS = {
  ok: true,
  message: "Thanks! Please check your inbox and open the link in our email to confirm your subscription. Already subscribed? Then there is nothing more to do.",
};

/** The route's context with a mailer that keeps what it sends. */
function newsletterContext(db: Database, sent: MailMessage[]) {
  return {
    ...routeContext(db),
    publicConfig: { publicUrl: "http://localhost:3000", siteName: "VidFetch" },
    mailer: { send: async (m: MailMessage) => void sent.push(m) },
    accounts: { limiter: createMemoryLimiter() },
  };
}
const json = (body: unknown) =>
  new Request("http://localhost/newsletter", { method: "POST", body: JSON.stringify(body), headers: { "content-type": "application/json" } });

describe.each(testDatabases)("POST /newsletter on $name", (variant) => {
  const { skip, open } = withTestDatabase(variant);
  let handle: TestDatabase | undefined;
  let sent: MailMessage[] = [];
  const call = (request: Request) => action({ request, context: newsletterContext(handle!.db, sent), params: {} } as never).then(unwrap);

  it.skipIf(skip)("subscribes from JSON and from a form, one row per address, one confirmation mail", async () => {
    handle = await open();
    sent = [];
    expect(await call(json({ email: "Reader@Example.com", website: "" }))).toEqual({ status: 200, body: SUCCESS });
    expect(await call(formPost("http://localhost/newsletter", { email: " reader@example.com " }))).toEqual({ status: 200, body: SUCCESS });
    const rows = await handle.db.select().from(newsletterSubscribers);
    expect(rows.map((r) => [r.email, r.confirmedAt])).toEqual([["reader@example.com", null]]);
    await settleBackgroundWork();
    expect(sent.map((m) => [m.to, m.subject])).toEqual([["reader@example.com", "Confirm your VidFetch newsletter subscription"]]);
    // links from PUBLIC_URL, never from the request's host
    expect(sent[0]!.text).toContain("http://localhost:3000/newsletter/confirm?token=");
  });

  it.skipIf(skip)("answers a new address, a repeat, a confirmed address and a bot alike", async () => {
    handle = await open();
    sent = [];
    const answers = [
      await call(json({ email: "new@example.com" })),
      await call(json({ email: "new@example.com" })),
      await call(json({ email: "bot@example.com", website: "http://spam" })),
    ];
    await handle.db.update(newsletterSubscribers).set({ confirmedAt: new Date() });
    answers.push(await call(json({ email: "new@example.com" })));
    for (const answer of answers) expect(answer).toEqual({ status: 200, body: SUCCESS });
    await settleBackgroundWork();
    expect(sent.map((m) => m.to)).toEqual(["new@example.com"]);
  });

  it.skipIf(skip)("rejects an invalid address with 400", async () => {
    handle = await open();
    for (const body of [{ email: "nope" }, { email: "" }, {}, "not an object"]) {
      expect(await call(json(body))).toEqual({ status: 400, body: { ok: false, message: "Please enter a valid email address" } });
    }
    expect(await handle.db.select().from(newsletterSubscribers)).toHaveLength(0);
  });

  it.skipIf(skip)("answers bots that fill the honeypot like anyone else, storing nothing", async () => {
    handle = await open();
    sent = [];
    expect(await call(json({ email: "bot@example.com", website: "http://spam" }))).toEqual({ status: 200, body: SUCCESS });
    expect(await handle.db.select().from(newsletterSubscribers)).toHaveLength(0);
  });

  it.skipIf(skip)("a browser without JavaScript is sent back to its page, which shows the outcome", async () => {
    handle = await open();
    const htmlPost = (email: string, referer?: string) =>
      new Request("http://localhost/newsletter", {
        method: "POST",
        body: new URLSearchParams({ email, website: "" }),
        headers: { accept: "text/html,application/xhtml+xml", ...(referer ? { referer } : {}) },
      });
    const ok = (await action({ request: htmlPost("reader@example.com", "http://localhost/blog?tag=MP3"), context: newsletterContext(handle.db, sent), params: {} } as never)) as Response;
    expect(ok.status).toBe(303);
    expect(ok.headers.get("location")).toBe("/blog?tag=MP3&newsletter=subscribed#stay-updated");
    const bad = (await action({ request: htmlPost("nope", "https://elsewhere.example/x"), context: newsletterContext(handle.db, sent), params: {} } as never)) as Response;
    // another site's Referer is never followed
    expect(bad.headers.get("location")).toBe("/blog?newsletter=invalidEmail#stay-updated");
    expect((await handle.db.select().from(newsletterSubscribers)).map((r) => r.email)).toEqual(["reader@example.com"]);
  });

  it.skipIf(skip)("never redirects off the site, whatever the Referer's path", async () => {
    handle = await open();
    const htmlPost = (referer: string) =>
      new Request("http://localhost/newsletter", {
        method: "POST",
        body: new URLSearchParams({ email: "reader@example.com", website: "" }),
        headers: { accept: "text/html", referer },
      });
    const hostile = [
      "http://localhost//evil.example/x",
      "http://localhost/\\evil.example/x",
      "http://localhost/%2F%2Fevil.example",
      "http://localhost//evil.example/blog",
      "http://localhost/blog//evil.example",
      "http://localhost/api/v1/download?url=x",
      "https://evil.example/blog",
    ];
    for (const referer of hostile) {
      const res = (await action({ request: htmlPost(referer), context: newsletterContext(handle.db, sent), params: {} } as never)) as Response;
      const location = res.headers.get("location") ?? "";
      expect(location, referer).toBe("/blog?newsletter=subscribed#stay-updated");
    }
    const article = (await action({ request: htmlPost("http://localhost/blog/saving-lectures-offline"), context: newsletterContext(handle.db, sent), params: {} } as never)) as Response;
    expect(article.headers.get("location")).toBe("/blog/saving-lectures-offline?newsletter=subscribed#stay-updated");
  });

  it.skipIf(skip)("reports a database failure with 500", async () => {
    handle = await open();
    await handle.close();
    expect(await call(json({ email: "reader@example.com" }))).toEqual({
      status: 500,
      body: { ok: false, message: "There was a problem subscribing. Please try again." },
    });
  });
});

describe("GET /newsletter", () => {
  it("explains that subscribing needs a POST", async () => {
    const res = loader();
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("POST");
  });
});
