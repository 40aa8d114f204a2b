import { describe, expect, it } from "vitest";
import { newsletterKey, signNewsletterToken } from "#app/modules/newsletter/newsletter-token.server.ts";
import { action, loader } from "#app/routes/newsletter-unsubscribe.tsx";
import { newsletterSubscribers } from "#db/schema/index.ts";
import { testDatabases, withTestDatabase } from "#tests/support/test-db.ts";
import { resourceRoutesBuild, startHost } from "../server/host.ts";

/**
 * RFC 8058: the one-click POST comes from the mail provider's server, with no cookie, no form
 * token and no Origin. The host's checks (method, body, cross-site) must let it through to the
 * route, which trusts only the signed token. A browser on another site posting the same link is
 * refused like any cross-site form post.
 */
const SECRET = "host-secret-host-secret-host-secret-1234";

describe.each(testDatabases)("the one-click unsubscribe through the host on $name", (variant) => {
  const { skip, open } = withTestDatabase(variant);

  it.skipIf(skip)("passes a mail provider's one-click POST and refuses another site's page posting it", async () => {
    const handle = await open();
    const [row] = await handle.db.insert(newsletterSubscribers).values({ email: "reader@example.com", confirmedAt: new Date() }).returning();
    const build = resourceRoutesBuild({ unsubscribe: { path: "newsletter/unsubscribe", module: { loader, action } } });
    const { base } = await startHost({ build, db: handle.db, env: { DOWNLOAD_SIGNING_SECRET: SECRET } });
    const url = `${base}/newsletter/unsubscribe?token=${signNewsletterToken(newsletterKey(SECRET), "unsubscribe", row!.id)}`;
    const oneClick = { method: "POST", body: "List-Unsubscribe=One-Click" };
    const form = { "content-type": "application/x-www-form-urlencoded" };

    const fromAnotherSite = await fetch(url, { ...oneClick, headers: { ...form, origin: "https://elsewhere.example" } });
    expect(fromAnotherSite.status).toBe(403);
    expect(await handle.db.$count(newsletterSubscribers)).toBe(1);

    for (const type of [form, { "content-type": "multipart/form-data; boundary=x" }]) {
      const body = type["content-type"].startsWith("multipart") ? '--x\r\nContent-Disposition: form-data; name="List-Unsubscribe"\r\n\r\nOne-Click\r\n--x--\r\n' : oneClick.body;
      const res = await fetch(url, { method: "POST", body, headers: type });
      expect(res.status, type["content-type"]).toBe(200);
      expect(await res.json()).toMatchObject({ state: "gone", done: true });
    }
    expect(await handle.db.$count(newsletterSubscribers)).toBe(0);
  });
});
