import net, { type AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHostileOrigin, type HostileOrigin } from "./support/engine-origin.ts";
import { startServer, type AttackServer } from "./support/server.ts";

/**
 * Issue 27, finding 2: a public page that led yt-dlp to `ftp://127.0.0.1:<port>/secret` made it
 * read an internal FTP service directly (its `--proxy` covers http and https only), and
 * `/api/v1/resolve` answered the file's title. Against the production server and the machine's
 * real yt-dlp: the resolve is refused, and no connection reaches the FTP service.
 */
const PAGE_HOST = "pages.attack.test";

let server: AttackServer;
let pages: HostileOrigin;
let ftp: net.Server;
let ftpConnections = 0;

beforeAll(async () => {
  ftp = net.createServer((socket) => {
    ftpConnections++;
    socket.on("error", () => undefined);
    socket.write("220 internal ftp\r\n");
    socket.on("data", (chunk: Buffer) => {
      const command = chunk.toString("latin1").slice(0, 4).toUpperCase();
      socket.write(command === "USER" ? "331 password please\r\n" : command === "PASS" ? "230 logged in\r\n" : "250 ok\r\n");
    });
  });
  await new Promise<void>((r) => ftp.listen(0, "127.0.0.1", r));
  const secret = `ftp://127.0.0.1:${(ftp.address() as AddressInfo).port}/internal-secret-title.mp4`;
  pages = await startHostileOrigin((req, res, url) => {
    const html = (head: string) => res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(`<!doctype html><html><head>${head}</head></html>`);
    // the engine's own look at a page asks for a byte range; yt-dlp asks for the page
    if (url.pathname === "/redirect" && !req.headers.range) res.writeHead(302, { location: secret }).end();
    else if (url.pathname === "/refresh") html(`<title>A page</title><meta http-equiv="refresh" content="0; url=${secret}">`);
    else html("<title>A page</title>");
  });
  // the page's host is public as far as the server knows (mapped like the mock platform's hosts)
  server = await startServer({ preferredPort: 3331, env: { OUTBOUND_HOST_MAP: `${PAGE_HOST}=${pages.origin}` } });
}, 200_000);

afterAll(async () => {
  await server?.stop();
  await pages?.close();
  await new Promise<void>((r) => (ftp ? ftp.close(() => r()) : r()));
});

async function resolve(url: string): Promise<{ status: number; text: string }> {
  const res = await fetch(`${server.origin}/api/v1/resolve`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ url }),
    signal: AbortSignal.timeout(90_000),
  });
  return { status: res.status, text: await res.text() };
}

describe("yt-dlp led to another scheme", () => {
  it.each(["/redirect", "/refresh"])("a page at %s that leads to ftp://127.0.0.1 is refused, and the FTP service sees no connection", async (path) => {
    const answer = await resolve(`http://${PAGE_HOST}${path}`);
    expect(answer.status).toBeGreaterThanOrEqual(400);
    expect(answer.status).toBeLessThan(500);
    expect(JSON.parse(answer.text)).toMatchObject({ error: { code: expect.any(String), message: expect.any(String) } });
    expect(answer.text).not.toContain("internal-secret-title");
    expect(ftpConnections).toBe(0);
    expect(pages.hits(path)).toBeGreaterThan(0);
  }, 120_000);

  it.each(["ftp://127.0.0.1/secret.mp4", "file:///etc/passwd", "gopher://127.0.0.1:70/", "sftp://example.com/x.mp4"])("a link %s is refused up front", async (link) => {
    const answer = await resolve(link);
    expect(answer.status).toBe(400);
    expect(ftpConnections).toBe(0);
  });
});
