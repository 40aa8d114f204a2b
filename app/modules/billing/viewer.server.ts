import type { Database } from "#db/client.ts";
import type { Caller } from "#engine/types.ts";
import type { AccountServices, SessionUser } from "../account/account-services.server.ts";
import { sessionUserFromCookie } from "../account/session-user.server.ts";
import { ENTITLEMENTS, type Entitlements } from "./plans.ts";
import { getUserPlan, type UserPlan } from "./user-plan.server.ts";

/** A signed-in person with the plan they hold right now and what it entitles them to. */
export interface Viewer {
  user: SessionUser;
  plan: UserPlan;
  entitlements: Entitlements;
}

/**
 * Who is behind a Cookie header: null without our session cookie (no database query for
 * visitors), for a bad or expired session, or when the lookup fails (then logged by the caller
 * of the returned promise's rejection: this throws).
 */
export async function viewerFromCookie(
  services: { accounts: AccountServices; db: Database },
  cookie: string | null | undefined,
  opts: { onRefresh?: (setCookies: string[]) => void } = {},
): Promise<Viewer | null> {
  const user = await sessionUserFromCookie(services.accounts, cookie, opts);
  if (!user) return null;
  const plan = await getUserPlan(services.db, user.id);
  return { user, plan, entitlements: ENTITLEMENTS[plan.plan] };
}

/** The engine's view of a viewer: its plan, whose rights engine/entitlements.ts reads from common/plans.ts. */
export function callerOf(viewer: Viewer | null): Caller {
  if (!viewer) return { kind: "anonymous" };
  const plan = viewer.plan.plan;
  return plan === "free" ? { kind: "free", userId: viewer.user.id } : { kind: "premium", plan, userId: viewer.user.id };
}
