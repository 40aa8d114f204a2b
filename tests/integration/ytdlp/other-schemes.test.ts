/**
 * Issue 27, finding 2: yt-dlp's `--proxy` covers http and https only, so a public page that led
 * yt-dlp to `ftp://127.0.0.1:<port>/` made it read an internal FTP service directly. With the
 * network jail it may connect to our proxy and nowhere else: nothing reaches the FTP service and
 * the resolve is refused. Runs the real yt-dlp (Debian's package in CI).
 */
import net, { type AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type TestServer } from "../engine-core/helpers.ts";
import { ANONYMOUS, startEngine, systemYtdlp, type EngineWithTools } from "./helpers.ts";

const ytdlp = await systemYtdlp("the other-scheme tests");
const HOST = "pages.example.test";

let ftp: net.Server;
let ftpPort = 0;
/** connections that reached the FTP service, and what was said on them */
const ftpSessions: string[] = [];
let pages: TestServer;
let fixture: EngineWithTools;

beforeAll(async () => {
  if (!ytdlp) return;
  // enough FTP for Python's ftplib to log in and ask for a file
  ftp = net.createServer((socket) => {
    let said = "";
    ftpSessions.push(said);
    const at = ftpSessions.length - 1;
    socket.on("error", () => undefined);
    socket.write("220 internal ftp\r\n");
    socket.on("data", (chunk: Buffer) => {
      said += chunk.toString("latin1");
      ftpSessions[at] = said;
      const command = chunk.toString("latin1").slice(0, 4).toUpperCase();
      socket.write(command === "USER" ? "331 password please\r\n" : command === "PASS" ? "230 logged in\r\n" : "250 ok\r\n");
    });
  });
  await new Promise<void>((r) => ftp.listen(0, "127.0.0.1", r));
  ftpPort = (ftp.address() as AddressInfo).port;
  const secret = () => `ftp://127.0.0.1:${ftpPort}/internal-secret-title.mp4`;
  pages = await startServer((req, res) => {
    const html = (head: string) => res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(`<!doctype html><html><head>${head}</head><body></body></html>`);
    if (req.url === "/redirect") {
      // our own fetch (it asks for a byte range) sees a page, so the link goes to yt-dlp; yt-dlp a redirect
      if (!req.headers.range) res.writeHead(302, { location: secret() }).end();
      else html("<title>A page</title>");
      return;
    }
    if (req.url === "/refresh") return html(`<title>A page</title><meta http-equiv="refresh" content="0; url=${secret()}">`);
    res.writeHead(404).end();
  });
  fixture = await startEngine({ hostMap: `${HOST}=${pages.origin}` });
}, 120_000);

afterAll(async () => {
  await fixture?.close();
  await pages?.close();
  await new Promise<void>((r) => (ftp ? ftp.close(() => r()) : r()));
});

describe.skipIf(!ytdlp)("a page that leads yt-dlp to another scheme", () => {
  it.each([
    ["an HTTP redirect", "/redirect"],
    ["a meta refresh", "/refresh"],
  ])("through %s to ftp://127.0.0.1 is refused, and no connection reaches the FTP service", async (_how, path) => {
    const before = ftpSessions.length;
    const failure = await fixture.engine.resolve(`http://${HOST}${path}`, ANONYMOUS).then(
      () => null,
      (err: unknown) => err,
    );
    expect(failure).toMatchObject({ code: "link.unsupported" });
    expect(String((failure as Error).message)).not.toContain("internal-secret-title");
    expect(ftpSessions.slice(before)).toEqual([]);
  }, 60_000);

  it("a link of another scheme is refused before anything runs", async () => {
    const before = ftpSessions.length;
    await expect(fixture.engine.resolve(`ftp://127.0.0.1:${ftpPort}/internal-secret-title.mp4`, ANONYMOUS)).rejects.toMatchObject({ code: "link.invalid" });
    expect(ftpSessions.length).toBe(before);
  });
});
