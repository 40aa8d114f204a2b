import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { mailboxFor, mailText } from "#tests/support/smtp-sink.ts";
import type { AttackServer } from "./server.ts";

/**
 * Account journeys against a running attack server, the way a browser without JavaScript makes
 * them: form posts, redirects not followed, mail read from the server's outbox (DATA_DIR/outbox).
 */
export interface FormAnswer {
  status: number;
  location: string | null;
  setCookies: string[];
  text: string;
  ms: number;
}

export async function send(server: AttackServer, target: string, init: { method?: string; form?: Record<string, string>; cookie?: string; forwardedFor?: string; body?: string; contentType?: string } = {}): Promise<FormAnswer> {
  const headers: Record<string, string> = { accept: "text/html" };
  if (init.cookie) headers.cookie = init.cookie;
  if (init.forwardedFor) headers["x-forwarded-for"] = init.forwardedFor;
  let body: string | undefined = init.body;
  if (init.form) {
    body = new URLSearchParams(init.form).toString();
    headers["content-type"] = "application/x-www-form-urlencoded";
    headers.origin = server.origin;
  } else if (init.contentType) {
    headers["content-type"] = init.contentType;
    headers.origin = server.origin;
  }
  const started = performance.now();
  const res = await fetch(`${server.origin}${target}`, { method: init.method ?? (body === undefined ? "GET" : "POST"), headers, body, redirect: "manual" });
  const text = await res.text();
  return { status: res.status, location: res.headers.get("location"), setCookies: res.headers.getSetCookie(), text, ms: performance.now() - started };
}

/** The Cookie header for these Set-Cookie lines (cleared ones dropped). */
export function cookieOf(setCookies: string[]): string {
  return setCookies
    .map((line) => line.split(";")[0] ?? "")
    .filter((pair) => pair.slice(pair.indexOf("=") + 1) !== "")
    .join("; ");
}

export function outboxDir(server: AttackServer): string {
  return path.join(server.dataDir, "outbox");
}

/** The mails the server wrote for `to`, oldest first, as text. */
export function mailsTo(server: AttackServer, to: string): string[] {
  return mailboxFor(outboxDir(server), to).map(mailText);
}

/** Wait until `to` has at least `count` mails (mail goes out after the form's answer). */
export async function waitForMails(server: AttackServer, to: string, count: number, timeoutMs = 20_000): Promise<string[]> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const mails = mailsTo(server, to);
    if (mails.length >= count || Date.now() > until) return mails;
    await sleep(100);
  }
}

/** Sign up through the form and open the mailed link: the session cookie of a confirmed account. */
export async function signUpConfirmed(server: AttackServer, account: { name: string; email: string; password: string }, forwardedFor?: string): Promise<string> {
  const before = mailsTo(server, account.email).length;
  const answer = await send(server, "/signup", { form: { ...account, returnTo: "/dashboard" }, forwardedFor });
  if (answer.status !== 200) throw new Error(`signup answered ${answer.status}: ${answer.text.slice(0, 300)}`);
  const mails = await waitForMails(server, account.email, before + 1);
  const link = /http:\/\/\S+\/api\/auth\/verify-email\?\S+/.exec(mails.at(-1) ?? "")?.[0];
  if (!link) throw new Error(`no confirmation link was mailed to ${account.email}`);
  const opened = await send(server, new URL(link).pathname + new URL(link).search);
  const cookie = cookieOf(opened.setCookies);
  if (!/session_token=/.test(cookie)) throw new Error(`the confirmation link answered ${opened.status} without a session`);
  return cookie;
}
