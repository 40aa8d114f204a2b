import type { LimitRule } from "#app/lib/attempt-limiter.server.ts";

/** Budgets per window. Generous for a person who mistypes, tight for a password-guessing script. */
export const ACCOUNT_LIMIT_RULES = {
  loginPerIp: { limit: 30, windowMs: 15 * 60_000 },
  /**
   * Wrong passwords for one account from one address (issue 27 §15): the guesser is slowed down,
   * the owner at another address is not.
   */
  loginPerIpAndEmail: { limit: 10, windowMs: 15 * 60_000 },
  /**
   * Against guessing spread over many addresses: loose enough that locking the owner out takes
   * a hundred addresses an hour (and then only for the rest of that hour).
   */
  loginPerEmail: { limit: 100, windowMs: 60 * 60_000 },
  signupPerIp: { limit: 10, windowMs: 60 * 60_000 },
  signupPerEmail: { limit: 5, windowMs: 60 * 60_000 },
  resetPerIp: { limit: 10, windowMs: 60 * 60_000 },
  resetPerEmail: { limit: 3, windowMs: 60 * 60_000 },
  /** email changes mail a link to the new address: a few per account and hour */
  emailChangePerUser: { limit: 5, windowMs: 60 * 60_000 },
  /**
   * Every mail the site sends to one address, whatever sent it (reset, verification, an email
   * change, a signup for a taken address): the last word against mail flooding (issue 27 §9).
   */
  mailPerAddress: { limit: 6, windowMs: 60 * 60_000 },
} as const satisfies Record<string, LimitRule>;
