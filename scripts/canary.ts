/**
 * `npm run canary [-- link…]`: the canary's checks, once, from the command line (issue 32 §5):
 * what an operator runs after deploying on a new server. Reads the server's environment
 * (docs/env.md) like the server does; links are the arguments, else CANARY_LINKS, else the
 * defaults (the mock platform's videos under MOCKS=true). Prints one row per check and exits 1
 * when any check failed: each link as a visitor's download asks it (client "all"), then a YouTube
 * link once per client of YOUTUBE_CLIENTS alone, then, when OUTBOUND_PROXIES or OUTBOUND_IPV6_CIDR
 * make more than one egress, each link once per egress alone (egress "proxy-1 (alone)"…).
 * Outcomes go into the platform health record the server reads (Redis when REDIS_URL is set), so
 * the status endpoint shows them too; the checks per client and per egress go into the database's
 * counts (and so the client order) only on PostgreSQL (DATABASE_URL): the embedded database
 * belongs to the running server's process.
 */
import { randomBytes } from "node:crypto";
import path from "node:path";
import pino from "pino";
import { createHealthCounts } from "#app/modules/platform-health/health-counts.server.ts";
import { canaryClientsOf, canaryLinksFor, canaryTable, runCanary } from "#app/modules/platform-health/run-canary.server.ts";
import { openDatabase } from "#db/client.ts";
import { createEngine } from "#engine/index.ts";
import { loadConfigOrExit } from "#server/config.ts";
import { engineConfigFrom } from "#server/services.ts";
import { createSharedState } from "#server/state/shared-state.ts";

async function main(): Promise<number> {
  // the table goes to stdout; the logs (warnings only, unless LOG_LEVEL says otherwise) to stderr
  const config = loadConfigOrExit({ LOG_LEVEL: "warn", ...process.env });
  const logger = pino({ level: config.LOG_LEVEL }, pino.destination(2));
  let hostMap = config.OUTBOUND_HOST_MAP;
  let mocks: { close(): Promise<void>; exampleLinks: string[] } | null = null;
  if (config.MOCKS) {
    const { startMockPlatform } = await import("#tests/mocks/platform.ts");
    const platform = await startMockPlatform({ dataDir: path.join(path.resolve(config.DATA_DIR), "mock-platform"), logger });
    hostMap = [platform.hostMap, hostMap].filter(Boolean).join(",");
    mocks = platform;
  }
  const links = process.argv.slice(2).length > 0 ? process.argv.slice(2) : canaryLinksFor(config, mocks);
  const shared = await createSharedState({ redisUrl: config.REDIS_URL, prefix: config.REDIS_KEY_PREFIX, ipLimitScale: config.ACCOUNT_IP_LIMIT_SCALE, logger });
  // nothing is signed: a throwaway secret keeps the server's own out of this process
  const engine = await createEngine(engineConfigFrom(config, logger, randomBytes(32).toString("hex"), hostMap), { state: shared.engineState });
  const database = config.DATABASE_URL ? await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: null }) : null;
  const counts = database ? createHealthCounts({ db: database.db, logger }) : undefined;
  try {
    const results = await runCanary(links, {
      openDownload: (input) => engine.openDownload(input),
      store: shared.platformHealth,
      counts,
      clientsOf: canaryClientsOf(config.YOUTUBE_CLIENTS, engine.ytdlp !== null),
      egresses: engine.egresses,
      logger,
    });
    process.stdout.write(`${canaryTable(results)}\n`);
    const failed = results.filter((r) => !r.ok).length;
    process.stdout.write(failed === 0 ? `all ${results.length} checks passed\n` : `${failed} of ${results.length} checks failed\n`);
    return failed === 0 ? 0 : 1;
  } finally {
    await counts?.close();
    await database?.close();
    await engine.close();
    await shared.close();
    await mocks?.close();
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`canary failed to run: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(2);
  },
);
