import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import http from "node:http";
import https from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import type { APIRequestContext } from "@playwright/test";
import { MOCK_GENERIC_HOST } from "../../mocks/platform.ts";
import { SAMPLE } from "../home-helpers.ts";

/**
 * The mock platform's generic host as a browser can reach it. OUTBOUND_HOST_MAP sends the
 * server's requests for `media.example.test` to the mock platform, but a browser resolves the
 * name itself and finds nothing, so a generic link's `<video>` never plays in the e2e. Here an
 * HTTPS server in the test process, with a certificate for the host (openssl, valid a day),
 * passes every request on to the mock platform as it came (Range and all); a Chromium launched
 * with `chromiumArgs` sends the host's requests to it and takes its certificate.
 */
export interface BrowserMediaHost {
  /** what to add to a Chromium's arguments for it to reach the host */
  chromiumArgs: string[];
  close(): Promise<void>;
}

/** The mock platform's origin, as the server hands it to browsers (the YouTube embed's address is rewritten to it). */
export async function mockPlatformOrigin(request: APIRequestContext): Promise<string> {
  const res = await request.post("/api/v1/resolve", { data: { url: SAMPLE.all } });
  if (!res.ok()) throw new Error(`POST /api/v1/resolve answered ${res.status()}`);
  const { video } = (await res.json()) as { video?: { embedUrl: string | null } };
  if (!video?.embedUrl) throw new Error("the sample has no embed address: is MOCKS=true?");
  return new URL(video.embedUrl).origin;
}

export async function startBrowserMediaHost(request: APIRequestContext): Promise<BrowserMediaHost> {
  const upstream = new URL(await mockPlatformOrigin(request));
  const dir = mkdtempSync(path.join(tmpdir(), "vidfetch-media-host-"));
  const [key, cert] = [path.join(dir, "key.pem"), path.join(dir, "cert.pem")];
  const subject = ["-subj", `/CN=${MOCK_GENERIC_HOST}`, "-addext", `subjectAltName=DNS:${MOCK_GENERIC_HOST}`];
  execFileSync("openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", ...subject, "-keyout", key, "-out", cert], { stdio: "ignore" });
  const server = https.createServer({ key: readFileSync(key), cert: readFileSync(cert) }, (req, res) => {
    const forward = http.request({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    forward.on("error", () => res.destroy());
    // the browser left (a seek): so does the request upstream
    res.on("close", () => forward.destroy());
    req.pipe(forward);
  });
  rmSync(dir, { recursive: true, force: true });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    chromiumArgs: [`--host-resolver-rules=MAP ${MOCK_GENERIC_HOST} 127.0.0.1:${port}`, "--ignore-certificate-errors"],
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
