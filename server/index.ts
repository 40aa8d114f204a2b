import path from "node:path";
import { pathToFileURL } from "node:url";
import type { ServerBuild } from "react-router";
import { createApp } from "./app.ts";
import { loadCHeapTrim } from "./c-heap-trim.ts";
import { loadConfigOrExit } from "./config.ts";
import { DEFAULT_CONNECTION_LIMITS, guardConnections } from "./connection-guards.ts";
import { createLogger } from "./logger.ts";
import { appServicesFrom, createServices } from "./services.ts";
import { listenWithGracefulShutdown } from "./shutdown.ts";
import type { TrustProxyFn } from "./trust-proxy.ts";

/** Production entry: `npm start` (scripts/start.mjs builds first when needed). */
async function main() {
  const config = loadConfigOrExit();
  const logger = createLogger(config);
  const buildDir = path.resolve(process.env.BUILD_DIR ?? "build");
  const serverBuild = (await import(pathToFileURL(path.join(buildDir, "server", "index.js")).href)) as ServerBuild;
  const services = await createServices(config, logger, { cHeapTrim: loadCHeapTrim(path.join(buildDir, "host", "c-heap-trim.node"), logger) });
  const app = createApp({
    ...appServicesFrom(services),
    build: { mode: "production", serverBuild, clientDir: path.join(buildDir, "client") },
  });
  const server = listenWithGracefulShutdown(app, services);
  // a reverse proxy's connections carry many clients: the per-address cap counts direct peers
  const trust = app.get("trust proxy fn") as TrustProxyFn;
  guardConnections(server, { ...DEFAULT_CONNECTION_LIMITS, maxConnectionsPerIp: config.MAX_CONNECTIONS_PER_IP }, (address) => trust(address, 0));
  server.on("request", services.noteActivity);
  services.noteActivity();
}

main().catch((err) => {
  process.stderr.write(`VidFetch failed to start: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
