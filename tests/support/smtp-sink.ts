import { randomBytes } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { SMTPServer } from "smtp-server";

/**
 * A local SMTP server for tests: accepts every message (no TLS, no login) and keeps its raw
 * RFC 5322 text, in memory and, when `dir` is given, as one `.eml` file per message so another
 * process (a Playwright test) can read the mail the site sent.
 */
export interface SmtpSink {
  url: string;
  port: number;
  messages: Array<{ to: string[]; raw: string }>;
  close(): Promise<void>;
}

export async function startSmtpSink(opts: { port?: number; dir?: string } = {}): Promise<SmtpSink> {
  const messages: SmtpSink["messages"] = [];
  if (opts.dir) mkdirSync(opts.dir, { recursive: true });
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        const raw = Buffer.concat(chunks).toString("utf8");
        const to = session.envelope.rcptTo.map((r) => r.address.toLowerCase());
        messages.push({ to, raw });
        if (opts.dir) writeFileSync(path.join(opts.dir, `${Date.now()}-${randomBytes(3).toString("hex")}.eml`), raw);
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port ?? 0, "127.0.0.1", () => resolve());
  });
  const address = server.server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return { url: `smtp://127.0.0.1:${port}`, port, messages, close: () => new Promise<void>((r) => server.close(() => r())) };
}

/** The text body of a raw message, with quoted-printable soft breaks and escapes undone. */
export function mailText(raw: string): string {
  const body = raw.slice(raw.search(/\r?\n\r?\n/) + 2);
  if (!/^Content-Transfer-Encoding:\s*quoted-printable/im.test(raw)) return body;
  return Buffer.from(
    body.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))),
    "latin1",
  ).toString("utf8");
}

/** Messages in a sink's folder addressed to `to` (header To:), oldest first. */
export function mailboxFor(dir: string, to: string): string[] {
  let files: string[];
  try {
    files = readdirSync(dir).sort();
  } catch {
    return [];
  }
  const want = to.toLowerCase();
  return files.map((f) => readFileSync(path.join(dir, f), "utf8")).filter((raw) => new RegExp(`^To:.*${want.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`, "im").test(raw));
}
