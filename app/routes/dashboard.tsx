import { Crown, LogOut, User } from "lucide-react";
import { Form, Link, redirect, useLoaderData, useNavigation } from "react-router";
import type { Route } from "./+types/dashboard";
import { Button } from "#app/components/ui/button.tsx";
import { seo } from "#app/lib/seo.ts";
import { loginUrlFor } from "#app/modules/account/return-to.ts";
import { getSessionUser } from "#app/modules/account/session-user.server.ts";
import { billingNoticeOf } from "#app/modules/billing/billing-messages.ts";
import { BillingNoticeBanner } from "#app/modules/billing/billing-notice.tsx";

export const meta: Route.MetaFunction = ({ matches }) =>
  seo(matches, { title: "Dashboard", description: "Your account dashboard.", path: "/dashboard", noindex: true });

/** A personal page: never stored by a shared cache. */
export const headers: Route.HeadersFunction = () => ({ "cache-control": "private, no-store" });

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await getSessionUser(context.accounts, request);
  if (!user) throw redirect(loginUrlFor("/dashboard", "auth-required"));
  const notice = billingNoticeOf(new URL(request.url).searchParams.get("notice"));
  return { user: { name: user.name, email: user.email, emailVerified: user.emailVerified }, notice };
}

/**
 * The account dashboard, first part (issue 9 §1): who is signed in, the plan card, Logout.
 * The Downloads, History and Settings tabs and premium details come with plans and payments.
 */
export default function Dashboard() {
  const { user, notice } = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  const loggingOut = navigation.state !== "idle" && navigation.formAction === "/logout";
  return (
    <div className="mx-auto grid max-w-6xl gap-8 px-4 py-12 sm:px-6 lg:grid-cols-[1fr_300px]">
      <section aria-labelledby="dashboard-heading">
        <div className="mb-6 empty:hidden">
          <BillingNoticeBanner notice={notice} />
        </div>
        <div className="flex flex-wrap items-center justify-between gap-4">
          <div>
            <h1 id="dashboard-heading" className="text-3xl font-bold text-slate-900">
              Dashboard
            </h1>
            <p className="mt-2 text-lg text-slate-700">Welcome, {user.name}</p>
            <p className="text-sm text-slate-600">
              {user.email}{" "}
              {user.emailVerified ? (
                <span className="ml-1 rounded-full bg-green-100 px-2 py-0.5 text-xs font-medium text-green-800">Email verified</span>
              ) : (
                <span className="ml-1 text-xs text-slate-600">(not verified yet: open the link we emailed you)</span>
              )}
            </p>
          </div>
          <Form method="post" action="/logout">
            <Button type="submit" variant="outline" disabled={loggingOut}>
              <LogOut aria-hidden />
              {loggingOut ? "Logging out..." : "Logout"}
            </Button>
          </Form>
        </div>
      </section>
      <aside aria-label="Your plan" className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
        <div className="flex items-center gap-3">
          <span className="grid size-10 place-items-center rounded-full bg-slate-100 text-slate-700">
            <User aria-hidden className="size-5" />
          </span>
          <h2 className="text-lg font-semibold text-slate-900">Free User</h2>
        </div>
        <p className="mt-3 text-sm text-slate-600">Upgrade for ad-free downloads, 4K and 8K quality and subtitles.</p>
        <Button asChild className="mt-5 w-full">
          <Link to="/premium">
            <Crown aria-hidden />
            Upgrade to Premium
          </Link>
        </Button>
      </aside>
    </div>
  );
}
