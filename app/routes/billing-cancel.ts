import type { Route } from "./+types/billing-cancel";
import { methodNotAllowed, runManageAction } from "#app/modules/billing/manage-action.server.ts";
import { cancelAtPeriodEnd } from "#app/modules/billing/manage-subscription.server.ts";

/** "Cancel": the subscription ends at the end of the paid period, then "Subscription Canceled". */
export async function action({ request, context }: Route.ActionArgs) {
  return runManageAction(request, context, async (deps, user) => {
    const r = await cancelAtPeriodEnd(deps, user);
    return r.ok ? { ok: true, to: "/dashboard?notice=subscription-canceled" } : r;
  });
}

export const loader = methodNotAllowed;
