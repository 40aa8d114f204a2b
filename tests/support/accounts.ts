import pino from "pino";
import type { AccountServices } from "#app/modules/account/account-services.server.ts";
import { createMemoryLimiter } from "#app/lib/attempt-limiter.server.ts";
import { createAuth } from "#app/modules/account/auth.server.ts";
import { settleBackgroundWork } from "#app/modules/account/background-work.server.ts";
import type { MailMessage } from "#app/modules/account/mailer.server.ts";
import type { Database } from "#db/client.ts";
import { subscriptions } from "#db/schema/index.ts";

export const TEST_PUBLIC_URL = "http://localhost:3000";

/**
 * better-auth on a test database, with a fresh limiter (so tests do not share budgets) and a
 * mailer that keeps what it was asked to send in `outbox`.
 */
export function testAccounts(db: Database, opts: { now?: () => number } = {}): AccountServices & { outbox: MailMessage[] } {
  const outbox: MailMessage[] = [];
  return {
    auth: createAuth({
      db,
      secret: "test-auth-secret-test-auth-secret-0123456789",
      publicUrl: TEST_PUBLIC_URL,
      logger: pino({ level: "silent" }),
      mailer: { send: async (m) => void outbox.push(m) },
    }),
    limiter: createMemoryLimiter(opts.now),
    outbox,
  };
}

/** The Cookie header a browser would send back after these Set-Cookie lines (cleared ones dropped). */
export function cookieHeaderFrom(response: Response, previous = ""): string {
  const jar = new Map<string, string>();
  for (const pair of previous.split(/;\s*/).filter(Boolean)) {
    const i = pair.indexOf("=");
    jar.set(pair.slice(0, i), pair.slice(i + 1));
  }
  for (const line of response.headers.getSetCookie()) {
    const [pair = ""] = line.split(";");
    const i = pair.indexOf("=");
    const name = pair.slice(0, i);
    const value = pair.slice(i + 1);
    if (!value || /max-age=0/i.test(line)) jar.delete(name);
    else jar.set(name, value);
  }
  return [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
}

/** Make a user a paying subscriber the way a verified Stripe subscription would (an active row). */
export async function insertActiveSubscription(
  db: Database,
  userId: string,
  plan: "basic" | "pro" | "ultimate",
  period: { start: Date; end: Date; createdAt?: Date } = { start: new Date(), end: new Date(Date.now() + 30 * 86_400_000) },
): Promise<void> {
  await db.insert(subscriptions).values({
    id: `sub_${userId}`,
    userId,
    stripeCustomerId: `cus_${userId}`,
    priceId: `price_${plan}`,
    plan,
    status: "active",
    ...(period.createdAt ? { createdAt: period.createdAt } : {}),
    currentPeriodStart: period.start,
    currentPeriodEnd: period.end,
  });
}

/**
 * Open the confirmation link last mailed to `email` (after the signup's background work has
 * run), as the browser would: the answer signs the account in and redirects to its returnTo.
 */
export async function openConfirmationLink(accounts: { auth: AccountServices["auth"]; outbox: MailMessage[] }, email: string): Promise<Response> {
  await settleBackgroundWork();
  const mail = accounts.outbox.filter((m) => m.to === email && /\/api\/auth\/verify-email\?/.test(m.text)).at(-1);
  const url = mail ? /http:\/\/\S+\/api\/auth\/verify-email\?\S+/.exec(mail.text)?.[0] : undefined;
  if (!url) throw new Error(`no confirmation link was mailed to ${email}`);
  return accounts.auth.handler(new Request(url));
}

/** A form POST from our own pages (the Origin the cross-site guard expects), with a session cookie when given. */
export function formPostFromSite(path: string, fields: Record<string, string>, cookie = ""): Request {
  const headers: Record<string, string> = { "content-type": "application/x-www-form-urlencoded", origin: TEST_PUBLIC_URL };
  if (cookie) headers.cookie = cookie;
  return new Request(`${TEST_PUBLIC_URL}${path}`, { method: "POST", body: new URLSearchParams(fields), headers });
}
