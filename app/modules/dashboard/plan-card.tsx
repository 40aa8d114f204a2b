import { Crown, User } from "#app/components/icons.ts";
import { Link } from "react-router";
import { Button } from "#app/components/ui/button.tsx";
import { shortDate, type PlanSummary } from "./dashboard-data.ts";
import { PostButton } from "./post-button.tsx";

/** The side card (spec §2 "Dashboard"): "Premium User" with the plan's dates, or "Free User". */
export function PlanCard({ plan }: { plan: PlanSummary | null }) {
  return (
    <aside aria-labelledby="plan-card-heading" className="h-fit rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
      <div className="flex items-center gap-3">
        <span className={plan ? "grid size-10 place-items-center rounded-full bg-amber-100 text-amber-800" : "grid size-10 place-items-center rounded-full bg-slate-100 text-slate-700"}>
          {plan ? <Crown aria-hidden className="size-5" /> : <User aria-hidden className="size-5" />}
        </span>
        <h2 id="plan-card-heading" className="text-lg font-semibold text-slate-900">
          {plan ? "Premium User" : "Free User"}
        </h2>
      </div>
      {plan ? (
        <>
          <dl className="mt-4 space-y-2 text-sm">
            <div className="flex justify-between gap-4">
              <dt className="text-slate-600">Plan</dt>
              <dd className="font-medium text-slate-900" data-testid="plan-name">
                {plan.name}
              </dd>
            </div>
            {plan.startDate ? (
              <div className="flex justify-between gap-4">
                <dt className="text-slate-600">Start date</dt>
                <dd className="font-medium text-slate-900">{shortDate(plan.startDate)}</dd>
              </div>
            ) : null}
            {plan.nextBillingDate ? (
              <div className="flex justify-between gap-4">
                <dt className="text-slate-600">{plan.endsAtPeriodEnd ? "Ends on" : "Next billing date"}</dt>
                <dd className="font-medium text-slate-900" data-testid="next-billing-date">
                  {shortDate(plan.nextBillingDate)}
                </dd>
              </div>
            ) : null}
          </dl>
          <PostButton action="/billing/portal" variant="outline" className="mt-5">
            Manage Subscription
          </PostButton>
        </>
      ) : (
        <>
          <p className="mt-3 text-sm text-slate-600">Upgrade for ad-free downloads, 4K and 8K quality and subtitles.</p>
          <Button asChild className="mt-5 w-full">
            <Link to="/premium">
              <Crown aria-hidden />
              Upgrade to Premium
            </Link>
          </Button>
        </>
      )}
    </aside>
  );
}
