import { spawn, type ChildProcess } from "node:child_process";
import type { Writable } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import { createSpawnGate } from "./spawn-gate.ts";
import { createStreamingActivity } from "./streaming-activity.ts";
import { createWarmPool, type WarmPool } from "./warm-processes.ts";

let pool: WarmPool | null = null;
afterEach(() => {
  pool?.close();
  pool = null;
});

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(check()).toBe(true);
}

function output(child: ChildProcess): Promise<string> {
  return new Promise((resolve) => {
    let text = "";
    child.stdout!.setEncoding("utf8").on("data", (c: string) => (text += c));
    child.once("close", () => resolve(text));
  });
}

/** `spawn`, keeping every child it starts */
function recordingSpawn() {
  const spawned: ChildProcess[] = [];
  const recording = ((...args: Parameters<typeof spawn>) => {
    const child = spawn(...args);
    spawned.push(child);
    return child;
  }) as typeof spawn;
  return { spawned, recording };
}

describe("warm processes", () => {
  it("hands out a started process that reads its input like a new one", async () => {
    pool = createWarmPool({ size: 2, gate: createSpawnGate() });
    pool.fill("cat", []);
    await until(() => pool!.idle("cat", []) === 2);
    const child = pool.take("cat", [])!;
    expect(child).not.toBeNull();
    expect(pool.idle("cat", [])).toBe(1);
    const out = output(child);
    child.stdin!.end("hello");
    await expect(out).resolves.toBe("hello");
  });

  it("has nothing for another command line, and nothing before it was filled", async () => {
    pool = createWarmPool({ size: 1, gate: createSpawnGate() });
    expect(pool.take("cat", [])).toBeNull();
    pool.fill("cat", []);
    await until(() => pool!.idle("cat", []) === 1);
    expect(pool.take("cat", ["-u"])).toBeNull();
  });

  it("skips a process that died while idle", async () => {
    const { spawned, recording } = recordingSpawn();
    pool = createWarmPool({ size: 1, gate: createSpawnGate(), spawn: recording });
    pool.fill("cat", []);
    await until(() => pool!.idle("cat", []) === 1);
    spawned[0]!.kill("SIGKILL");
    await new Promise((r) => spawned[0]!.once("exit", r));
    expect(pool.take("cat", [])).toBeNull();
  });

  it("refills later, once for several calls, and close() ends the idle ones", async () => {
    pool = createWarmPool({ size: 1, gate: createSpawnGate(), refillDelayMs: 30 });
    pool.fillLater("cat", []);
    pool.fillLater("cat", []);
    expect(pool.idle("cat", [])).toBe(0);
    await until(() => pool!.idle("cat", []) === 1);
    pool.close();
    expect(pool.idle("cat", [])).toBe(0);
    expect(pool.take("cat", [])).toBeNull();
  });

  it("refills once no download streams, not while one does", async () => {
    const activity = createStreamingActivity();
    pool = createWarmPool({ size: 1, gate: createSpawnGate(), settleMs: 10, refillDelayMs: 60_000, activity });
    const end = activity.begin();
    pool.fillLater("cat", []);
    await new Promise((r) => setTimeout(r, 150));
    expect(pool.idle("cat", [])).toBe(0);
    end();
    await until(() => pool!.idle("cat", []) === 1);
  });

  it("refills after refillDelayMs even while downloads keep streaming", async () => {
    const activity = createStreamingActivity();
    pool = createWarmPool({ size: 1, gate: createSpawnGate(), settleMs: 10, refillDelayMs: 80, activity });
    activity.begin();
    pool.fillLater("cat", []);
    expect(pool.idle("cat", [])).toBe(0);
    await until(() => pool!.idle("cat", []) === 1);
  });

  it("a refill waiting for a quiet moment is dropped by close()", async () => {
    const activity = createStreamingActivity();
    pool = createWarmPool({ size: 1, gate: createSpawnGate(), settleMs: 10, refillDelayMs: 60_000, activity });
    const end = activity.begin();
    pool.fillLater("cat", []);
    await new Promise((r) => setTimeout(r, 50));
    pool.close();
    end();
    await new Promise((r) => setTimeout(r, 100));
    expect(pool.idle("cat", [])).toBe(0);
  });

  it("ends a process left idle too long, and starts again on the next fill", async () => {
    const { spawned, recording } = recordingSpawn();
    pool = createWarmPool({ size: 1, gate: createSpawnGate(), spawn: recording, idleMs: 80 });
    pool.fill("cat", []);
    await until(() => pool!.idle("cat", []) === 1);
    await until(() => spawned[0]!.exitCode !== null || spawned[0]!.signalCode !== null);
    expect(spawned[0]!.signalCode).toBe("SIGKILL");
    expect(pool.idle("cat", [])).toBe(0);
    expect(pool.take("cat", [])).toBeNull();
    pool.fill("cat", []);
    await until(() => pool!.idle("cat", []) === 1);
    // one taken before its time is the caller's: the expiry no longer applies to it
    const taken = pool.take("cat", [])!;
    await new Promise((r) => setTimeout(r, 150));
    expect(taken.exitCode).toBeNull();
    expect(taken.signalCode).toBeNull();
    const out = output(taken);
    taken.stdin!.end("still here");
    await expect(out).resolves.toBe("still here");
  });

  it("a command that cannot start leaves nothing to take", async () => {
    pool = createWarmPool({ size: 1, gate: createSpawnGate() });
    pool.fill("/nonexistent/prober", []);
    await new Promise((r) => setTimeout(r, 100));
    expect(pool.take("/nonexistent/prober", [])).toBeNull();
  });
  it("starts a process with the pipes its command line asks for, and hands it to that command line only", async () => {
    pool = createWarmPool({ size: 1, gate: createSpawnGate() });
    // stdin closed, input on fd 3: the shape of an ffmpeg reading its inputs on extra pipes
    const stdio = ["ignore", "pipe", "pipe", "pipe"] as const;
    const script = ["-c", "cat <&3"];
    pool.fill("sh", script, stdio);
    await until(() => pool!.idle("sh", script, stdio) === 1);
    expect(pool.take("sh", script)).toBeNull();
    const child = pool.take("sh", script, stdio)!;
    expect(child.stdin).toBeNull();
    const out = output(child);
    (child.stdio[3] as Writable).end("from fd 3");
    await expect(out).resolves.toBe("from fd 3");
  });

  it("keeps at most maxIdle processes in all, ending the one idle the longest", async () => {
    const { spawned, recording } = recordingSpawn();
    pool = createWarmPool({ size: 1, maxIdle: 2, gate: createSpawnGate(), spawn: recording });
    pool.fill("cat", []);
    await until(() => pool!.idle("cat", []) === 1);
    pool.fill("cat", ["-u"]);
    await until(() => pool!.idle("cat", ["-u"]) === 1);
    pool.fill("cat", ["-"]);
    await until(() => pool!.idle("cat", ["-"]) === 1);
    // the first one (plain `cat`) made way
    await until(() => spawned[0]!.signalCode === "SIGKILL");
    expect(pool.idle("cat", [])).toBe(0);
    expect(pool.idlePids().sort()).toEqual([spawned[1]!.pid, spawned[2]!.pid].sort());
    // a taken process no longer counts
    expect(pool.take("cat", ["-u"])).not.toBeNull();
    pool.fill("cat", []);
    await until(() => pool!.idle("cat", []) === 1);
    expect(pool.idle("cat", ["-"])).toBe(1);
    spawned[1]!.kill("SIGKILL");
  });
});
