import express, { type Express, type Request, type Router } from "express";
import type { Store } from "express-rate-limit";
import type { Logger } from "pino";
import { z } from "zod";
import type { AccountServices } from "#app/modules/account/account-services.server.ts";
import { KeyError } from "#app/modules/api-keys/api-key-messages.ts";
import { createApiKeys, type ApiKeys, type KeyOwner } from "#app/modules/api-keys/api-keys.server.ts";
import { viewerFromCookie } from "#app/modules/billing/viewer.server.ts";
import type { Database } from "#db/client.ts";
import { catalogueRefusals } from "./api-errors.ts";
import { apiKeyAuth, refuseKeys } from "./api-key-auth.ts";

/**
 * API keys over HTTP (issue 31 §1), mounted at /api/v1/keys: thin routes over
 * app/modules/api-keys, for the session's user only (a request made with a key is refused:
 * keys cannot make keys). Another user's key id is a 404.
 */
const createBody = z.object({ name: z.string().max(200) }).strict();
const JSON_LIMIT_BYTES = 4 * 1024;

export function createKeysRouter(deps: { db: Database; accounts: AccountServices; logger: Logger; keys: ApiKeys }): Router {
  const router = express.Router();
  router.use(refuseKeys());
  router.use(express.json({ limit: JSON_LIMIT_BYTES }));

  async function owner(req: Request): Promise<KeyOwner> {
    const viewer = await viewerFromCookie(deps, req.headers.cookie);
    if (!viewer) throw new KeyError("key.login_required");
    return { userId: viewer.user.id, plan: viewer.plan.plan };
  }

  router.post("/", async (req, res) => {
    const who = await owner(req);
    const body = createBody.safeParse(req.body);
    if (!body.success) throw new KeyError("key.invalid_name");
    res.status(201).set("cache-control", "no-store").json(await deps.keys.create(who, body.data.name));
  });

  router.get("/", async (req, res) => {
    const who = await owner(req);
    res.set("cache-control", "no-store").json({ keys: await deps.keys.list(who.userId) });
  });

  router.delete("/:id", async (req, res) => {
    const who = await owner(req);
    await deps.keys.revoke(who.userId, String(req.params.id));
    res.status(204).set("cache-control", "no-store").end();
  });

  // key.* and plan.required (naming the plan with API access)
  router.use(catalogueRefusals());

  return router;
}

/**
 * Keys on the host, before the API's routers: a key is the caller of /api/v1 (its own routes
 * excepted); every other /api route takes a session only, as the key routes do.
 */
export function mountApiKeys(app: Express, deps: { db: Database; accounts: AccountServices; logger: Logger; store?: Store }): ApiKeys {
  const keys = createApiKeys({ db: deps.db });
  const keysOnApi = apiKeyAuth({ keys, db: deps.db, logger: deps.logger, store: deps.store });
  const sessionOnly = refuseKeys();
  app.use("/api", (req, res, next) => (req.path.startsWith("/v1/") && !req.path.startsWith("/v1/keys") ? keysOnApi(req, res, next) : sessionOnly(req, res, next)));
  app.use("/api/v1/keys", createKeysRouter({ ...deps, keys }));
  return keys;
}
