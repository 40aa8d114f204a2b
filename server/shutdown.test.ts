import net from "node:net";
import express from "express";
import pino from "pino";
import { afterEach, expect, test, vi } from "vitest";
import type { Services } from "./services.ts";
import { LISTEN_BACKLOG, listenWithGracefulShutdown } from "./shutdown.ts";

const signals = ["SIGTERM", "SIGINT"] as const;
const before = new Map(signals.map((s) => [s, process.listeners(s)]));
afterEach(() => {
  vi.restoreAllMocks();
  // drop the signal handlers the server under test installed
  for (const s of signals) for (const l of process.listeners(s)) if (!before.get(s)!.includes(l)) process.off(s, l);
});

test("the server listens with a long accept backlog, so a burst of downloads is not reset by the kernel", async () => {
  const listen = vi.spyOn(net.Server.prototype, "listen");
  const services = {
    config: { PORT: 0, HOST: "127.0.0.1", PUBLIC_URL: "http://127.0.0.1", SITE_NAME: "VidFetch" },
    logger: pino({ level: "silent" }),
    close: async () => undefined,
  } as unknown as Services;
  const server = listenWithGracefulShutdown(express(), services);
  await new Promise<void>((resolve) => (server.listening ? resolve() : server.once("listening", () => resolve())));
  try {
    expect(LISTEN_BACKLOG).toBeGreaterThanOrEqual(2048);
    expect(listen).toHaveBeenCalledTimes(1);
    const args = listen.mock.calls[0]!;
    // listen(port, host, backlog, callback): Node's default would be 511
    expect(args.slice(0, 3)).toEqual([0, "127.0.0.1", LISTEN_BACKLOG]);
    // and it answers on the address it reports
    const { port } = server.address() as net.AddressInfo;
    const socket = net.connect(port, "127.0.0.1");
    await new Promise<void>((resolve, reject) => socket.once("connect", resolve).once("error", reject));
    socket.destroy();
  } finally {
    await new Promise<void>((r) => server.close(() => r()));
  }
});
