import { asc, eq, sql } from "drizzle-orm";
import type { Logger } from "pino";
import type { BillingServices } from "#app/modules/billing/billing-services.server.ts";
import type { Database } from "#db/client.ts";
import { blogComments, contactMessages, downloadHistory, newsletterSubscribers, platformRequests, sessions, subscriptions, users } from "#db/schema/index.ts";
import { downloadJobs } from "#db/schema/jobs.ts";
import { apiKeyUsage, apiKeys } from "#db/schema/api-keys.ts";
import { downloadProfiles } from "#db/schema/profiles.ts";
import { whiteLabels } from "#db/schema/white-label.ts";
import type { AccountServices } from "./account-services.server.ts";
import { ACCOUNT_LIMIT_RULES } from "./account-limit-rules.ts";

/**
 * A user's own data: a copy to take away (GDPR access and portability) and the deletion the
 * terms promise. What deletion removes and what it keeps is what the privacy policy says.
 */

/** Everything we hold that is about this account, as JSON a person can read. */
export async function exportAccountData(db: Database, userId: string, now: Date = new Date()) {
  const [user] = await db.select().from(users).where(eq(users.id, userId));
  if (!user) return null;
  const byEmail = sql`lower(${user.email})`;
  const [subs, history, jobs, userSessions, comments, messages, requests, newsletter, keys, keyUse, profiles, label] = await Promise.all([
    db.select({ plan: subscriptions.plan, status: subscriptions.status, currentPeriodStart: subscriptions.currentPeriodStart, currentPeriodEnd: subscriptions.currentPeriodEnd, cancelAtPeriodEnd: subscriptions.cancelAtPeriodEnd, createdAt: subscriptions.createdAt }).from(subscriptions).where(eq(subscriptions.userId, userId)),
    db.select({ title: downloadHistory.title, format: downloadHistory.format, bytes: downloadHistory.bytes, status: downloadHistory.status, createdAt: downloadHistory.createdAt }).from(downloadHistory).where(eq(downloadHistory.userId, userId)),
    db
      .select({ id: downloadJobs.id, kind: downloadJobs.kind, name: downloadJobs.name, playlist: downloadJobs.source, items: downloadJobs.items, format: downloadJobs.format, runAt: downloadJobs.runAt, status: downloadJobs.status, createdAt: downloadJobs.createdAt, finishedAt: downloadJobs.finishedAt, filename: downloadJobs.filename, bytes: downloadJobs.fileBytes, error: downloadJobs.error })
      .from(downloadJobs)
      .where(eq(downloadJobs.userId, userId))
      .orderBy(asc(downloadJobs.createdAt)),
    db.select({ createdAt: sessions.createdAt, expiresAt: sessions.expiresAt, ipAddress: sessions.ipAddress, userAgent: sessions.userAgent }).from(sessions).where(eq(sessions.userId, userId)),
    db.select({ article: blogComments.articleSlug, name: blogComments.name, content: blogComments.content, status: blogComments.status, createdAt: blogComments.createdAt }).from(blogComments).where(eq(sql`lower(${blogComments.email})`, byEmail)),
    db.select({ subject: contactMessages.subject, message: contactMessages.message, createdAt: contactMessages.createdAt }).from(contactMessages).where(eq(sql`lower(${contactMessages.email})`, byEmail)),
    db.select({ platform: platformRequests.platformName, details: platformRequests.details, createdAt: platformRequests.createdAt }).from(platformRequests).where(eq(sql`lower(${platformRequests.email})`, byEmail)),
    db.select({ createdAt: newsletterSubscribers.createdAt, confirmedAt: newsletterSubscribers.confirmedAt }).from(newsletterSubscribers).where(eq(sql`lower(${newsletterSubscribers.email})`, byEmail)),
    // a key's name and first characters, never its hash
    db.select({ id: apiKeys.id, name: apiKeys.name, prefix: apiKeys.prefix, createdAt: apiKeys.createdAt, lastUsedAt: apiKeys.lastUsedAt, revokedAt: apiKeys.revokedAt }).from(apiKeys).where(eq(apiKeys.userId, userId)).orderBy(asc(apiKeys.createdAt)),
    db.select({ keyId: apiKeyUsage.keyId, day: apiKeyUsage.day, requests: apiKeyUsage.requests }).from(apiKeyUsage).innerJoin(apiKeys, eq(apiKeys.id, apiKeyUsage.keyId)).where(eq(apiKeys.userId, userId)).orderBy(asc(apiKeyUsage.day)),
    db.select({ name: downloadProfiles.name, format: downloadProfiles.format, language: downloadProfiles.language, filenameTemplate: downloadProfiles.filenameTemplate, createdAt: downloadProfiles.createdAt }).from(downloadProfiles).where(eq(downloadProfiles.userId, userId)).orderBy(asc(downloadProfiles.createdAt)),
    db.select({ senderName: whiteLabels.senderName, updatedAt: whiteLabels.updatedAt }).from(whiteLabels).where(eq(whiteLabels.userId, userId)),
  ]);
  return {
    exportedAt: now.toISOString(),
    account: { id: user.id, name: user.name, email: user.email, emailConfirmed: user.emailVerified, createdAt: user.createdAt.toISOString() },
    subscriptions: subs,
    downloadHistory: history,
    // the job id is the one the dashboard and the API show; the queue's and storage's keys stay out
    // a ZIP job's every link (a playlist's videos once it ran), and the playlist link it was given
    scheduledDownloads: jobs.map(({ id, items, playlist, ...job }) => ({ id, url: playlist ?? items[0]?.url ?? null, links: items.map((i) => i.url), ...job })),
    sessions: userSessions,
    downloadProfiles: profiles,
    whiteLabel: label[0] ?? null,
    apiKeys: keys.map((k) => ({ ...k, requestsPerDay: keyUse.filter((u) => u.keyId === k.id).map(({ day, requests }) => ({ day, requests })) })),
    blogComments: comments,
    contactMessages: messages,
    platformRequests: requests,
    // an unconfirmed address is held (until the confirm window ends) but gets no newsletter
    newsletter: newsletter[0]
      ? { subscribed: newsletter[0].confirmedAt !== null, enteredAt: newsletter[0].createdAt.toISOString(), confirmedAt: newsletter[0].confirmedAt?.toISOString() ?? null }
      : { subscribed: false },
  };
}

export type DeleteAccountResult =
  | { ok: true }
  | { ok: false; code: "account.wrong_password" | "account.rate_limited" | "account.subscription_cancel_failed"; retryAfterSeconds?: number };

const LIVE = ["active", "trialing", "past_due", "unpaid", "incomplete"];

/**
 * Deletes an account once its password is confirmed: the paid subscription is canceled at Stripe
 * first (a failure stops here, so nobody keeps paying for an account that is gone), then in one
 * transaction the comments written with the account's email are anonymised (their text stays in
 * the discussions; name, email, address hash and visitor id go) and the user row is deleted with
 * everything hanging off it: sessions (every device is signed out), the password, the billing
 * customer link, subscriptions, the download history and the scheduled downloads, whose stored
 * files are removed from job storage just before their rows go.
 */
export async function deleteAccount(
  deps: { db: Database; accounts: AccountServices; billing: BillingServices | null; logger: Logger; jobs?: { deleteFilesOf(userId: string): Promise<number> } | null },
  user: { id: string; email: string },
  password: string,
  /** runs once the password and the subscription are settled, before the rows go (the route signs out here) */
  beforeDelete: () => Promise<void> = async () => {},
): Promise<DeleteAccountResult> {
  // a stolen session must not be a way to guess the password: the login's rules, counted here per account
  for (const [key, rule] of [
    [`delete:user:${user.id}:hour`, ACCOUNT_LIMIT_RULES.loginPerEmail],
    [`delete:user:${user.id}`, ACCOUNT_LIMIT_RULES.loginPerIpAndEmail],
  ] as const) {
    const verdict = await deps.accounts.limiter.hit(key, rule);
    if (!verdict.allowed) return { ok: false, code: "account.rate_limited", retryAfterSeconds: verdict.retryAfterSeconds };
  }
  const context = await deps.accounts.auth.$context;
  const found = await context.internalAdapter.findUserByEmail(user.email, { includeAccounts: true });
  const hash = found?.user.id === user.id ? found.accounts.find((a) => a.providerId === "credential")?.password : undefined;
  if (!hash || !(await context.password.verify({ hash, password }))) return { ok: false, code: "account.wrong_password" };

  const live = (await deps.db.select({ id: subscriptions.id, status: subscriptions.status }).from(subscriptions).where(eq(subscriptions.userId, user.id))).filter((s) =>
    LIVE.includes(s.status),
  );
  for (const sub of live) {
    if (!deps.billing) return { ok: false, code: "account.subscription_cancel_failed" };
    try {
      await deps.billing.stripe.subscriptions.cancel(sub.id);
    } catch (err) {
      // already gone at Stripe is fine; anything else and the account stays
      if ((err as { code?: string }).code !== "resource_missing") {
        deps.logger.error({ err, subscription: sub.id }, "account deletion: could not cancel the subscription; the account is kept");
        return { ok: false, code: "account.subscription_cancel_failed" };
      }
    }
  }
  await beforeDelete();
  // a file that cannot be removed now is logged and removed by job storage's hourly sweep
  const removedFiles = (await deps.jobs?.deleteFilesOf(user.id).catch((err: unknown) => {
    deps.logger.error({ err }, "account deletion: could not remove the scheduled downloads' files; the storage sweep will");
    return 0;
  })) ?? 0;
  await deps.db.transaction(async (tx) => {
    await tx
      .update(blogComments)
      .set({ name: "Deleted user", email: "", ipHash: null, visitorId: null })
      .where(eq(sql`lower(${blogComments.email})`, user.email.toLowerCase()));
    await tx.delete(users).where(eq(users.id, user.id));
  });
  deps.logger.info({ canceledSubscriptions: live.length, removedJobFiles: removedFiles }, "account deleted");
  return { ok: true };
}
