import { createServer as createViteServer } from "vite";
import type { ServerBuild } from "react-router";
import { createApp } from "./app.ts";
import { loadConfigOrExit } from "./config.ts";
import { createLogger } from "./logger.ts";
import { appServicesFrom, createServices } from "./services.ts";
import { listenWithGracefulShutdown } from "./shutdown.ts";

/** `npm run dev`: the same host with Vite's middleware and hot reload. */
async function main() {
  const config = loadConfigOrExit({ NODE_ENV: "development", ...process.env });
  const logger = createLogger(config);
  const vite = await createViteServer({ server: { middlewareMode: true } });
  const services = await createServices(config, logger);
  const app = createApp({
    ...appServicesFrom(services),
    build: {
      mode: "development",
      middleware: vite.middlewares,
      load: () => vite.ssrLoadModule("virtual:react-router/server-build") as Promise<ServerBuild>,
    },
  });
  listenWithGracefulShutdown(app, { ...services, close: async () => (await vite.close(), services.close()) });
}

main().catch((err) => {
  process.stderr.write(`VidFetch dev server failed to start: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
