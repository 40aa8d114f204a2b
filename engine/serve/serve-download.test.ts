import { describe, expect, it } from "vitest";
import { EngineError } from "../errors.ts";
import type { AdmissionStore } from "../state/types.ts";
import { outputSpan, StreamSlots } from "./serve-download.ts";

/** An admission store that records what is held, and refuses the server-wide slot when told. */
function recordingAdmission(opts: { serverFull?: boolean } = {}) {
  const held = new Set<string>();
  const hold = (name: string) => {
    held.add(name);
    return () => void held.delete(name);
  };
  const admission: AdmissionStore = {
    check: async () => undefined,
    hit: async (ip) => hold(`fair-use:${ip}`),
    acquire: async () => {
      if (opts.serverFull) throw new EngineError("download.busy");
      return hold("server");
    },
    acquireStream: async (ip, id) => hold(`stream:${ip}:${id}`),
  };
  return { admission, held };
}

describe("StreamSlots", () => {
  it("gives everything back, the fair-use count included, when the stream never starts", async () => {
    const { admission, held } = recordingAdmission();
    const slots = new StreamSlots(admission);
    await slots.take("203.0.113.9", "dl_1");
    await slots.countFairUse("203.0.113.9");
    expect([...held].sort()).toEqual(["fair-use:203.0.113.9", "server", "stream:203.0.113.9:dl_1"]);
    slots.giveBack();
    expect(held.size).toBe(0);
  });

  it("a slot refused half-way leaves the one already granted to be given back", async () => {
    const { admission, held } = recordingAdmission({ serverFull: true });
    const slots = new StreamSlots(admission);
    await expect(slots.take("203.0.113.9", "dl_1")).rejects.toMatchObject({ code: "download.busy" });
    expect([...held]).toEqual(["stream:203.0.113.9:dl_1"]);
    slots.giveBack();
    expect(held.size).toBe(0);
  });

  it("once the stream starts, the slots are released at its end and the fair-use count stays", async () => {
    const { admission, held } = recordingAdmission();
    const slots = new StreamSlots(admission);
    await slots.take("203.0.113.9", "dl_1");
    await slots.countFairUse("203.0.113.9");
    const release = slots.keep();
    slots.giveBack();
    expect(held.size).toBe(3);
    release();
    expect([...held]).toEqual(["fair-use:203.0.113.9"]);
  });
});

describe("outputSpan", () => {
  const out = (status: 200 | 206, contentRange: string | undefined, length: number | null) => ({ status, headers: (contentRange ? { "content-range": contentRange } : {}) as Record<string, string>, length });

  it("a 200 is the whole file", () => {
    expect(outputSpan(out(200, undefined, 1000))).toEqual({ offset: 0, total: 1000, reachesEnd: true });
    expect(outputSpan(out(200, undefined, null))).toEqual({ offset: 0, total: null, reachesEnd: true });
  });

  it("a 206 starts at its range and completes the file only when it runs to the last byte", () => {
    expect(outputSpan(out(206, "bytes 500-999/1000", 500))).toEqual({ offset: 500, total: 1000, reachesEnd: true });
    expect(outputSpan(out(206, "bytes 0-499/1000", 500))).toEqual({ offset: 0, total: 1000, reachesEnd: false });
  });
});
