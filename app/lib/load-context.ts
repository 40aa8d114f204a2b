import type { Logger } from "pino";
import type { AccountServices } from "#app/modules/account/account-services.server.ts";
import type { AttemptLimiter } from "#app/lib/attempt-limiter.server.ts";
import type { Mailer } from "#app/modules/account/mailer.server.ts";
import type { BillingServices } from "#app/modules/billing/billing-services.server.ts";
import type { ScheduledJobs } from "#app/modules/jobs/scheduled-jobs.server.ts";
import type { PlatformNoticeSource } from "#app/modules/platform-health/platform-notices.server.ts";
import type { Database } from "#db/client.ts";
import type { Engine } from "#engine/index.ts";
import type { YtdlpExtractors } from "#engine/sources/ytdlp/extractors.ts";
import type { PublicConfig } from "./public-config.ts";

export interface RouteSettings {
  /** sample links on the downloader pages */
  MOCKS: boolean;
  /** the key behind the visitor cookie and the hashed client addresses */
  DOWNLOAD_SIGNING_SECRET?: string | undefined;
  CONTACT_EMAIL?: string | undefined;
  /** where Ultimate members' contact messages go (else CONTACT_EMAIL) */
  SUPPORT_ULTIMATE_EMAIL?: string | undefined;
  /** the verified account with this email is the operator (/admin) */
  ADMIN_EMAIL?: string | undefined;
}

/**
 * What the Express host hands every loader and action (the router context). Data reaches
 * routes through here, never through module globals, so tests can pass their own.
 */
export interface AppServices<Settings extends RouteSettings = RouteSettings> {
  /** the settings (the host passes server/config.ts's AppConfig; app never imports server/, so routes see these few) */
  config: Settings;
  publicConfig: PublicConfig;
  db: Database;
  logger: Logger;
  engine: Engine;
  /** what the server's yt-dlp can read, listed after start (the supported-sites page); absent in route tests that do not need it */
  ytdlpExtractors?: YtdlpExtractors;
  /** better-auth and the login/signup limiter */
  accounts: AccountServices;
  /** Stripe, or null when this server has no payment keys (plans shown, buying refused) */
  billing: BillingServices | null;
  /** the blog's per-address limits (likes): in this process, or shared through Redis (REDIS_URL) */
  blogLimiter: AttemptLimiter;
  /** outgoing mail (SMTP or the outbox): contact messages and platform requests go to CONTACT_EMAIL */
  mailer: Mailer;
  /** the platforms whose downloads fail right now, for the pages (issue 32 §5); absent in tests that do not need it */
  platformNotices?: PlatformNoticeSource;
  /** scheduled downloads (the job queue) and the owner's signed file links; null where no queue runs (route tests) */
  jobs: {
    scheduled: ScheduledJobs;
    /** the owner's signed link to a finished job's file (absolute) */
    fileLink(job: { jobId: string; userId: string; expiresAt: Date }): string;
    verifyFileLink(token: string): { jobId: string; userId: string } | null;
    /** removes the stored files of a user's jobs (account deletion, before the rows go); how many were removed */
    deleteFilesOf(userId: string): Promise<number>;
  } | null;
}

declare module "react-router" {
  interface AppLoadContext extends AppServices {
    /** the client's address as Express sees it (respecting TRUST_PROXY) */
    clientIp: string;
    /** run `start` once this request's answer has been written (account mail and signups: background-work.server.ts) */
    afterAnswer?: (start: () => void) => void;
    /** drop the page cache's copies of a page another page changed (an admin hiding a comment) */
    forgetPage?: (pathname: string) => void;
  }
}
