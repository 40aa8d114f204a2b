import express, { type Request, type Router } from "express";
import type { Logger } from "pino";
import { z } from "zod";
import { ProfileError } from "#app/modules/profiles/profile-messages.ts";
import type { ProfileOwner, Profiles } from "#app/modules/profiles/profiles.server.ts";
import { catalogueRefusals } from "./api-errors.ts";
import type { Caller } from "#engine/types.ts";
import type { CallerResolver } from "./caller.ts";

/**
 * Custom download profiles over HTTP (issue 31 §2), mounted at /api/v1/profiles: thin routes
 * over app/modules/profiles for the caller's account (its session, or its API key). Another
 * account's profile is a 404.
 */
const body = z
  .object({ name: z.string().max(200), format: z.string().max(64), language: z.string().max(35).nullable().optional(), filenameTemplate: z.string().max(400).nullable().optional() })
  .strict();

/** `POST /downloads`' `profile`: the caller's own profile, for a plan with the right */
export function profileResolver(profiles: Profiles) {
  return (caller: Caller, id: string) => {
    if (!caller.userId) throw new ProfileError("profile.login_required");
    return profiles.resolveProfile({ userId: caller.userId, plan: caller.plan ?? "free" }, id);
  };
}

export function createProfilesRouter(deps: { profiles: Profiles; identify: CallerResolver; logger: Logger }): Router {
  const router = express.Router();
  router.use(express.json({ limit: 8 * 1024 }));

  async function owner(req: Request): Promise<ProfileOwner> {
    const caller = await deps.identify(req);
    if (!caller.userId) throw new ProfileError("profile.login_required");
    return { userId: caller.userId, plan: caller.plan ?? "free" };
  }
  const input = (req: Request) => {
    const parsed = body.safeParse(req.body);
    if (!parsed.success) throw new ProfileError("profile.invalid");
    return parsed.data;
  };

  router.get("/", async (req, res) => {
    const who = await owner(req);
    res.set("cache-control", "no-store").json({ profiles: await deps.profiles.list(who.userId) });
  });
  router.post("/", async (req, res) => {
    const who = await owner(req);
    res.status(201).set("cache-control", "no-store").json(await deps.profiles.create(who, input(req)));
  });
  router.patch("/:id", async (req, res) => {
    const who = await owner(req);
    res.set("cache-control", "no-store").json(await deps.profiles.update(who, String(req.params.id), input(req)));
  });
  router.delete("/:id", async (req, res) => {
    const who = await owner(req);
    await deps.profiles.remove(who.userId, String(req.params.id));
    res.status(204).set("cache-control", "no-store").end();
  });

  router.use(catalogueRefusals());
  return router;
}
