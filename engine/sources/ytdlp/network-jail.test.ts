import { execFile } from "node:child_process";
import { mkdtemp, writeFile } from "node:fs/promises";
import net, { type AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { locateYtdlp, ytdlpEnv } from "./locate.ts";
import { jailEnv } from "./network-jail.ts";

/** Two loopback services: the "proxy" the jail allows, and an internal one it must keep out. */
let proxy: net.Server;
let internal: net.Server;
let internalConnections = 0;
const portOf = (s: net.Server) => (s.address() as AddressInfo).port;

beforeAll(async () => {
  proxy = net.createServer((s) => s.end("proxy"));
  internal = net.createServer((s) => {
    internalConnections++;
    s.end("internal");
  });
  await Promise.all([proxy, internal].map((s) => new Promise<void>((r) => s.listen(0, "127.0.0.1", r))));
});
afterAll(async () => {
  await Promise.all([proxy, internal].map((s) => new Promise<void>((r) => s.close(() => r()))));
});

/** Runs Python code with the environment a yt-dlp run gets; its stdout. */
function python(code: string, proxyUrl: string, args: string[] = [], alsoConnect: string[] = []): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile("python3", ["-c", code, ...args], { env: { ...ytdlpEnv(), ...jailEnv(proxyUrl, { alsoConnect }) }, timeout: 20_000 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`${err.message}\n${stderr}`));
      else resolve(stdout.trim());
    });
  });
}

const TRY = `
import socket, sys
def attempt(host, port):
    try:
        s = socket.create_connection((host, port), timeout=5)
        data = s.recv(100).decode()
        s.close()
        return "connected:" + data
    except OSError as e:
        return "refused"
print(attempt(sys.argv[1], int(sys.argv[2])))
`;

describe("the network jail around yt-dlp (issue 27, finding 2)", () => {
  it("lets Python connect to the proxy and to nothing else, by address or by name", async () => {
    const proxyUrl = `http://token:x@127.0.0.1:${portOf(proxy)}`;
    const run = (host: string, port: number) => python(TRY, proxyUrl, [host, String(port)]);
    expect(await run("127.0.0.1", portOf(proxy))).toBe("connected:proxy");
    expect(await run("127.0.0.1", portOf(internal))).toBe("refused");
    expect(await run("localhost", portOf(internal))).toBe("refused");
    expect(await run("::1", portOf(internal))).toBe("refused");
    expect(internalConnections).toBe(0);
  }, 60_000);

  it("also lets Python reach an operator service named for a plugin (the PO-token provider), by name, at its port only", async () => {
    const proxyUrl = `http://token:x@127.0.0.1:${portOf(proxy)}`;
    const provider = `http://localhost:${portOf(internal)}/`;
    const run = (host: string, port: number) => python(TRY, proxyUrl, [host, String(port)], [provider]);
    const before = internalConnections;
    expect(await run("localhost", portOf(internal))).toBe("connected:internal");
    expect(await run("127.0.0.1", portOf(proxy))).toBe("connected:proxy");
    // the provider's host at another port where something listens, and other names, stay shut
    let otherConnections = 0;
    const other = net.createServer((s) => {
      otherConnections++;
      s.end("other");
    });
    await new Promise<void>((r) => other.listen(0, "127.0.0.1", r));
    try {
      expect(await run("localhost", portOf(other))).toBe("refused");
      expect(await run("127.0.0.1", portOf(other))).toBe("refused");
    } finally {
      await new Promise<void>((r) => other.close(() => r()));
    }
    expect(await run("example.com", 80)).toBe("refused");
    expect(otherConnections).toBe(0);
    expect(internalConnections).toBe(before + 1);
  }, 60_000);

  it("refuses datagrams and name lookups", async () => {
    const out = await python(
      `
import socket
results = []
try:
    socket.socket(socket.AF_INET, socket.SOCK_DGRAM).sendto(b"x", ("127.0.0.1", 53))
    results.append("sent")
except OSError:
    results.append("no-datagram")
try:
    socket.gethostbyname("example.com")
    results.append("looked-up")
except OSError:
    results.append("no-lookup")
print(",".join(results))
`,
      `http://token:x@127.0.0.1:${portOf(proxy)}`,
    );
    expect(out).toBe("no-datagram,no-lookup");
  }, 30_000);

  it("a yt-dlp that does not load the jail is not used", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "vidfetch-unconfined-"));
    // a frozen build in miniature: it prints a version but runs no Python site code
    const frozen = path.join(dir, "yt-dlp-frozen");
    await writeFile(frozen, "#!/bin/sh\necho 2023.03.04\n", { mode: 0o755 });
    await expect(locateYtdlp(frozen)).rejects.toThrow(/cannot be confined/);
    // the same answer from Python loads the jail, and is used
    const python = path.join(dir, "yt-dlp-python");
    await writeFile(python, "#!/usr/bin/env python3\nprint('2023.03.04')\n", { mode: 0o755 });
    await expect(locateYtdlp(python)).resolves.toEqual({ path: python, version: "2023.03.04" });
  }, 30_000);
});
