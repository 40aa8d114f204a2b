import net, { type AddressInfo, type Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { connectRecycling, giveBack, lend, readBufferCounts, readsRecycled, setSink } from "./read-buffers.ts";

/** a server that sends `parts` one at a time, each after the client asks with a byte */
async function pacedServer(parts: Buffer[]): Promise<{ port: number; close(): void }> {
  const server = net.createServer((s) => {
    let i = 0;
    s.on("data", () => {
      if (i < parts.length) s.write(parts[i++]!);
      if (i === parts.length) s.end();
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { port: (server.address() as AddressInfo).port, close: () => server.close() };
}

const pattern = (n: number, seed: number) => Buffer.from(Array.from({ length: n }, (_, i) => (i * 31 + seed) & 0xff));

let cleanup: Array<() => void> = [];
afterEach(() => {
  for (const c of cleanup) c();
  cleanup = [];
});

/** reads every part; `keep` decides which views are lent (and kept) instead of given back at once */
async function readAll(parts: Buffer[], keep: (i: number) => boolean): Promise<{ views: Buffer[]; kept: Map<number, Buffer>; socket: Socket }> {
  const server = await pacedServer(parts);
  cleanup.push(server.close);
  const socket = connectRecycling({ host: "127.0.0.1", port: server.port });
  const views: Buffer[] = [];
  const kept = new Map<number, Buffer>();
  await new Promise<void>((resolve, reject) => {
    setSink(socket, (view) => {
      const i = views.length;
      views.push(view);
      lend(view);
      if (keep(i)) kept.set(i, view);
      else giveBack(view);
      socket.write("n");
    });
    socket.once("connect", () => socket.write("n"));
    socket.once("end", resolve);
    socket.once("error", reject);
  });
  socket.destroy();
  return { views, kept, socket };
}

describe("recycled socket reads", () => {
  it("reads into the same buffers again once their bytes are given back", async () => {
    const parts = Array.from({ length: 12 }, (_, i) => pattern(1000 + i, i));
    const before = readBufferCounts();
    const { views, socket } = await readAll(parts, () => false);
    expect(readsRecycled(socket)).toBe(true);
    expect(views).toHaveLength(12);
    // every read was given back before the next: one or two buffers served all twelve
    expect(new Set(views.map((v) => v.buffer)).size).toBeLessThanOrEqual(2);
    const after = readBufferCounts();
    expect(after.reused - before.reused).toBeGreaterThanOrEqual(10);
  });

  it("never reads into a buffer whose bytes are still lent", async () => {
    const parts = Array.from({ length: 12 }, (_, i) => pattern(4000, i));
    const { kept } = await readAll(parts, (i) => i % 3 === 0);
    expect(kept.size).toBe(4);
    // the kept views still hold what was read into them, though nine more reads followed
    for (const [i, view] of kept) expect(view.equals(parts[i]!)).toBe(true);
    const buffers = new Set([...kept.values()].map((v) => v.buffer));
    expect(buffers.size).toBe(4);
  });

  it("counts bytes, not views: a buffer split in two is free only when both halves are back", async () => {
    const parts = [pattern(3000, 1), pattern(3000, 2), pattern(3000, 3)];
    const server = await pacedServer(parts);
    cleanup.push(server.close);
    const socket = connectRecycling({ host: "127.0.0.1", port: server.port });
    const halves: Buffer[] = [];
    const seen: Buffer[] = [];
    await new Promise<void>((resolve) => {
      setSink(socket, (view) => {
        seen.push(view);
        if (seen.length === 1) {
          const a = view.subarray(0, 1000);
          const b = view.subarray(1000);
          lend(a);
          lend(b);
          halves.push(a, b);
          giveBack(a);
        }
        socket.write("n");
      });
      socket.once("connect", () => socket.write("n"));
      socket.once("end", resolve);
    });
    socket.destroy();
    // the second half was never given back: its buffer was not read into again
    expect(seen.slice(1).every((v) => v.buffer !== halves[1]!.buffer)).toBe(true);
    expect(halves[1]!.equals(parts[0]!.subarray(1000))).toBe(true);
  });

  it("a socket without recycling delivers through data events to the same sink", async () => {
    const server = await pacedServer([pattern(100, 5)]);
    cleanup.push(server.close);
    const socket = net.connect({ host: "127.0.0.1", port: server.port });
    const got: Buffer[] = [];
    setSink(socket, (view) => got.push(Buffer.from(view)));
    socket.once("connect", () => socket.write("n"));
    await new Promise((r) => socket.once("end", r));
    setSink(socket, null);
    expect(socket.listenerCount("data")).toBe(0);
    expect(readsRecycled(socket)).toBe(false);
    expect(Buffer.concat(got).equals(pattern(100, 5))).toBe(true);
    socket.destroy();
  });

  it("a recycling socket with no sink is closed by unexpected bytes", async () => {
    const server = await pacedServer([pattern(10, 1)]);
    cleanup.push(server.close);
    const socket = connectRecycling({ host: "127.0.0.1", port: server.port });
    socket.once("connect", () => socket.write("n"));
    await new Promise((r) => socket.once("close", r));
    expect(socket.destroyed).toBe(true);
  });
});
