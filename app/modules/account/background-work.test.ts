import { expect, test } from "vitest";
import { runAfterAnswer, runInBackground, settleBackgroundWork } from "./background-work.server.ts";

test("a failure after the answer is logged, not thrown; settling waits for the work", async () => {
  const errors: string[] = [];
  let done = false;
  runInBackground(new Promise((resolve) => setTimeout(() => resolve((done = true)), 20)), { error: () => {} }, "slow");
  runInBackground(Promise.reject(new Error("smtp down")), { error: (_obj, msg) => void errors.push(msg) }, "reset mail");
  await settleBackgroundWork();
  expect(done).toBe(true);
  expect(errors).toEqual(["reset mail failed"]);
});

test("work handed to runAfterAnswer starts only once the host says the answer is out", async () => {
  let answered: (() => void) | undefined;
  let started = false;
  runAfterAnswer(async () => void (started = true), { afterAnswer: (start) => void (answered = start), logger: { error: () => {} }, what: "reset mail" });
  await new Promise((resolve) => setTimeout(resolve, 20));
  expect(started).toBe(false);
  answered!();
  await settleBackgroundWork(1_000);
  expect(started).toBe(true);
});

test("a shutdown waits a bounded time for work that never ends", async () => {
  runInBackground(new Promise(() => {}), { error: () => {} }, "stuck mail");
  const started = Date.now();
  await settleBackgroundWork(50);
  expect(Date.now() - started).toBeLessThan(1_000);
});
