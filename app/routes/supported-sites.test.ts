import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { platformRequests } from "#db/schema/index.ts";
import { formPost, routeContext, unwrap } from "#tests/support/route-context.ts";
import { testDatabases, type TestDatabase } from "#tests/support/test-db.ts";
import { action } from "./supported-sites.tsx";

const call = (handle: TestDatabase, fields: Record<string, string>) =>
  action({ request: formPost("http://localhost/supported-sites", fields), context: routeContext(handle.db), params: {} } as never).then(unwrap);

describe.each(testDatabases)("POST /supported-sites (Request Platform Support) on $name", ({ skip, open, prepare }) => {
  beforeAll(() => (skip ? undefined : prepare()));
  let handle: TestDatabase | undefined;
  afterEach(async () => {
    await handle?.dispose();
    handle = undefined;
  });

  it.skipIf(skip)("stores the request", async () => {
    handle = await open();
    const res = await call(handle, { platformName: "Rumble", email: "", details: "News clips", website: "" });
    expect(res).toMatchObject({ status: 200, body: { ok: true, title: "Request received" } });
    const rows = await handle.db.select().from(platformRequests);
    expect(rows.map((r) => [r.platformName, r.email, r.details])).toEqual([["Rumble", null, "News clips"]]);
  });

  it.skipIf(skip)("requires the platform name and stores nothing without it", async () => {
    handle = await open();
    const res = await call(handle, { platformName: " ", email: "me@example.com", details: "" });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ ok: false, fields: ["platformName"], values: { email: "me@example.com" } });
    expect(await handle.db.select().from(platformRequests)).toHaveLength(0);
  });

  it.skipIf(skip)("validates an email when one is given", async () => {
    handle = await open();
    const res = await call(handle, { platformName: "Rumble", email: "me at example" });
    expect(res).toMatchObject({ status: 400, body: { message: "Please enter a valid email address", fields: ["email"] } });
  });

  it.skipIf(skip)("reports a database failure", async () => {
    handle = await open();
    await handle.close();
    const res = await call(handle, { platformName: "Rumble" });
    expect(res).toMatchObject({ status: 500, body: { ok: false, message: "There was a problem sending your request. Please try again." } });
  });
});
