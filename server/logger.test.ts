import { Writable } from "node:stream";
import { DrizzleQueryError } from "drizzle-orm/errors";
import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { serializeError } from "./logger.ts";

function capture() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { logger: pino({ serializers: { err: serializeError } }, stream), text: () => lines.join("") };
}

describe("error serializer", () => {
  it("keeps the query's shape and SQLSTATE but never its parameters", () => {
    const cause = Object.assign(new Error("invalid byte sequence for encoding \"UTF8\": 0x00"), { code: "22021", severity: "ERROR" });
    const err = new DrizzleQueryError("insert into contact_messages (name, email, message) values ($1, $2, $3)", ["Ada", "ada@example.com", "my secret message"], cause);
    const { logger, text } = capture();
    logger.error({ err }, "could not store");
    const out = text();
    expect(out).toContain("insert into contact_messages");
    expect(out).toContain("22021");
    expect(out).not.toContain("ada@example.com");
    expect(out).not.toContain("my secret message");
  });

  it("drops PostgreSQL's detail, which quotes the conflicting row", () => {
    const err = Object.assign(new Error("duplicate key value violates unique constraint"), {
      code: "23505",
      detail: "Key (email)=(ada@example.com) already exists.",
    });
    const { logger, text } = capture();
    logger.error({ err }, "conflict");
    expect(text()).toContain("23505");
    expect(text()).not.toContain("ada@example.com");
  });

  it("serialises ordinary errors with message, stack and cause as before", () => {
    const { logger, text } = capture();
    logger.error({ err: new Error("outer", { cause: new Error("inner") }) }, "x");
    const line = JSON.parse(text()) as { err: { message: string; stack: string } };
    expect(line.err.message).toContain("outer");
    expect(line.err.message).toContain("inner");
    expect(line.err.stack).toContain("logger.test.ts");
  });
});
