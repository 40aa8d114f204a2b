import type { Route } from "./+types/billing-portal";
import { methodNotAllowed, runManageAction } from "#app/modules/billing/manage-action.server.ts";
import { openCustomerPortal } from "#app/modules/billing/manage-subscription.server.ts";

/** "Manage Subscription" / "Update Payment": Stripe's Customer Portal, back to /dashboard. */
export async function action({ request, context }: Route.ActionArgs) {
  return runManageAction(request, context, async (deps, user) => {
    const r = await openCustomerPortal(deps, user);
    return r.ok ? { ok: true, to: r.url } : r;
  });
}

export const loader = methodNotAllowed;
