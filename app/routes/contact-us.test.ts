import { describe, expect, it } from "vitest";
import { contactMessages } from "#db/schema/index.ts";
import { formPost, routeContext, unwrap } from "#tests/support/route-context.ts";
import { cookieHeaderFrom, insertActiveSubscription, testAccounts } from "#tests/support/accounts.ts";
import { testDatabases, withTestDatabase, type TestDatabase } from "#tests/support/test-db.ts";
import { action } from "./contact-us.tsx";

const complete = { name: "Grace", email: "grace@example.com", subject: "Audio", message: "MP3 320 sounds great.", website: "" };
const call = (handle: TestDatabase, fields: Record<string, string>) =>
  action({ request: formPost("http://localhost/contact-us", fields), context: routeContext(handle.db), params: {} } as never).then(unwrap);

describe.each(testDatabases)("POST /contact-us on $name", (variant) => {
  const { skip, open } = withTestDatabase(variant);
  let handle: TestDatabase | undefined;

  it.skipIf(skip)("stores a valid message and answers with the spec's success toast", async () => {
    handle = await open();
    const res = await call(handle, complete);
    expect(res).toEqual({ status: 200, body: { ok: true, title: "Message sent", message: "We've received your message and will respond soon!" } });
    const rows = await handle.db.select().from(contactMessages);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ name: "Grace", email: "grace@example.com", subject: "Audio", message: "MP3 320 sounds great." });
    // a keyed hash, never the address itself
    expect(rows[0]?.ipHash).toMatch(/^[0-9a-f]{32}$/);
    expect(rows[0]?.ipHash).not.toContain("203.0.113.7");
  });

  it.skipIf(skip)("stores a signed-in member's plan, and marks a Pro member's message priority", async () => {
    handle = await open();
    const accounts = testAccounts(handle.db);
    const signedUp = await accounts.auth.api.signUpEmail({ body: { name: "Grace", email: "grace-pro@example.com", password: "correct horse battery" }, asResponse: true });
    const { user } = (await signedUp.clone().json()) as { user: { id: string } };
    await insertActiveSubscription(handle.db, user.id, "pro");
    const request = formPost("http://localhost/contact-us", complete);
    request.headers.set("cookie", cookieHeaderFrom(signedUp));
    const res = await unwrap(await action({ request, context: { ...routeContext(handle.db), accounts }, params: {} } as never));
    expect(res.status).toBe(200);
    // and a visitor's, without a plan or priority
    await call(handle, complete);
    const rows = await handle.db.select().from(contactMessages);
    expect(rows.map((r) => [r.plan, r.priority])).toEqual([
      ["pro", true],
      [null, false],
    ]);
  });

  it.skipIf(skip)("rejects missing fields with the spec's message, keeps what was typed and stores nothing", async () => {
    handle = await open();
    const res = await call(handle, { ...complete, name: "", message: "  " });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ ok: false, title: "Error", message: "Please fill out all required fields", fields: ["name", "message"] });
    expect((res.body as { values: Record<string, string> }).values).toMatchObject({ email: "grace@example.com", subject: "Audio" });
    expect(await handle.db.select().from(contactMessages)).toHaveLength(0);
  });

  it.skipIf(skip)("looks successful to a bot that fills the honeypot, but stores nothing", async () => {
    handle = await open();
    const res = await call(handle, { ...complete, website: "https://buy-followers.example" });
    expect(res.body).toMatchObject({ ok: true, title: "Message sent" });
    expect(await handle.db.select().from(contactMessages)).toHaveLength(0);
  });

  it.skipIf(skip)("answers a database failure with the spec's error, never a false success", async () => {
    handle = await open();
    await handle.close();
    const res = await call(handle, complete);
    expect(res.status).toBe(500);
    expect(res.body).toMatchObject({ ok: false, title: "Error", message: "There was a problem sending your message. Please try again." });
    expect((res.body as { values: Record<string, string> }).values.message).toBe("MP3 320 sounds great.");
  });
});
