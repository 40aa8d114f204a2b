import { describe, expect, it } from "vitest";
import { newsletterKey, signNewsletterToken } from "#app/modules/newsletter/newsletter-token.server.ts";
import * as subscribeRoute from "#app/routes/newsletter.ts";
import { action, loader } from "#app/routes/newsletter-unsubscribe.tsx";
import { newsletterSubscribers } from "#db/schema/index.ts";
import { testDatabases, withTestDatabase } from "#tests/support/test-db.ts";
import { resourceRoutesBuild, startHost } from "../server/host.ts";

/**
 * RFC 8058: the one-click POST comes from the mail provider (or a mail client), never from our
 * pages, so the host's cross-site check must let it through to the route, which trusts only the
 * signed token. Every other POST, subscribing included, still has to come from our pages.
 */
const SECRET = "host-secret-host-secret-host-secret-1234";

describe.each(testDatabases)("the one-click unsubscribe through the host on $name", (variant) => {
  const { skip, open } = withTestDatabase(variant);

  it.skipIf(skip)("passes a cross-site one-click POST and still refuses a cross-site subscription", async () => {
    const handle = await open();
    const [row] = await handle.db.insert(newsletterSubscribers).values({ email: "reader@example.com", confirmedAt: new Date() }).returning();
    const build = resourceRoutesBuild({
      unsubscribe: { path: "newsletter/unsubscribe", module: { loader, action } },
      newsletter: { path: "newsletter", module: { loader: subscribeRoute.loader, action: subscribeRoute.action } },
    });
    const { base } = await startHost({ build, db: handle.db, env: { DOWNLOAD_SIGNING_SECRET: SECRET } });
    const foreign = { origin: "https://mail.example", "content-type": "application/x-www-form-urlencoded" };

    const subscribing = await fetch(`${base}/newsletter`, { method: "POST", headers: foreign, body: "email=victim%40example.com" });
    expect(subscribing.status).toBe(403);

    const token = signNewsletterToken(newsletterKey(SECRET), "unsubscribe", row!.id);
    const res = await fetch(`${base}/newsletter/unsubscribe?token=${token}`, { method: "POST", headers: foreign, body: "List-Unsubscribe=One-Click" });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ state: "gone", done: true });
    expect(await handle.db.$count(newsletterSubscribers)).toBe(0);
  });
});
