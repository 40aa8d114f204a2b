import { createClient } from "redis";

export type RedisClient = ReturnType<typeof createClient>;

/**
 * The shared-state connection (REDIS_URL): one client for commands, one for pub/sub
 * subscriptions (a subscribed Redis connection takes no other commands). Keys all start with
 * `prefix`, so several sites (or test runs) can share one Redis.
 */
export interface RedisHandle {
  client: RedisClient;
  /** the subscriber connection, opened on first use */
  subscriber(): Promise<RedisClient>;
  prefix: string;
  close(): Promise<void>;
}

const START_ATTEMPTS = 8;

export async function connectRedis(opts: { url: string; prefix: string; logger: { error(obj: object, msg: string): void } }): Promise<RedisHandle> {
  let everReady = false;
  const client = createClient({
    url: opts.url,
    // a Redis that went away fails commands at once (callers decide) instead of queueing them
    disableOfflineQueue: true,
    socket: {
      connectTimeout: 5000,
      // at start, a Redis that does not answer stops the server (about 10 s); once it ran, retry for ever
      reconnectStrategy: (retries, cause) =>
        !everReady && retries >= START_ATTEMPTS ? new Error(`Redis at REDIS_URL does not answer: ${cause.message}`) : Math.min(retries * 200, 3000),
    },
  });
  let lastError = "";
  const onError = (err: Error) => {
    // reconnects log once per distinct error, not once per retry
    if (err.message === lastError) return;
    lastError = err.message;
    opts.logger.error({ err }, "redis connection error");
  };
  client.on("error", onError);
  client.on("ready", () => {
    everReady = true;
    lastError = "";
  });
  await client.connect();
  let sub: Promise<RedisClient> | null = null;
  return {
    client,
    prefix: opts.prefix,
    subscriber() {
      sub ??= (async () => {
        const s = client.duplicate();
        s.on("error", onError);
        await s.connect();
        return s;
      })();
      return sub;
    },
    async close() {
      const s = sub ? await sub.catch(() => null) : null;
      await Promise.allSettled([s?.quit(), client.quit()]);
    },
  };
}
