import { createServer, type Server } from "node:http";
import type { Express } from "express";
import { DEFAULT_CONNECTION_LIMITS, serverTimeoutOptions } from "./connection-guards.ts";
import type { Services } from "./services.ts";

const GRACE_MS = 10_000;
/**
 * Connections the kernel may hold, not yet accepted, per listening socket. Node's default (511)
 * is too short for a burst: 1000 downloads starting at once had 174–186 of their connections
 * reset by the kernel before the server saw them (docs/benchmarks.md, issue 13). Linux caps it at
 * net.core.somaxconn (4096 on current kernels, 128 on old ones: raise it there).
 */
export const LISTEN_BACKLOG = 2048;

/**
 * Listen, and on SIGTERM/SIGINT stop accepting connections, let in-flight requests finish
 * (up to a grace period; long downloads are then cut, which the browser reports as failed),
 * then close the engine and the database.
 */
export function listenWithGracefulShutdown(app: Express, services: Services): Server {
  const { config, logger } = services;
  // Node's request timeouts are set here: only a server's constructor takes the checking interval
  const server = createServer(serverTimeoutOptions(DEFAULT_CONNECTION_LIMITS), app);
  server.listen(config.PORT, config.HOST, LISTEN_BACKLOG, () => {
    const addr = server.address();
    const port = typeof addr === "object" && addr ? addr.port : config.PORT;
    logger.info({ url: config.PUBLIC_URL, port }, `${config.SITE_NAME} is listening on ${config.HOST}:${port}`);
  });
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, "shutting down");
    const force = setTimeout(() => {
      logger.warn("grace period over: closing remaining connections");
      server.closeAllConnections();
    }, GRACE_MS);
    force.unref();
    server.close(async (err) => {
      if (err) logger.error({ err }, "error while closing the HTTP server");
      try {
        await services.close();
      } catch (closeErr) {
        logger.error({ err: closeErr }, "error while closing services");
      }
      logger.info("stopped");
      process.exit(err ? 1 : 0);
    });
    server.closeIdleConnections();
  };
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));
  return server;
}
