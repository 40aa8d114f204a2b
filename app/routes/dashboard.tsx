import { LogOut } from "#app/components/icons.ts";
import { useEffect } from "react";
import { data, Form, redirect, useActionData, useLoaderData, useNavigate, useNavigation } from "react-router";
import { toast } from "sonner";
import type { Route } from "./+types/dashboard";
import { Button } from "#app/components/ui/button.tsx";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "#app/components/ui/tabs.tsx";
import { seo } from "#app/lib/seo.ts";
import { accountFailure, redirectWithCookies } from "#app/modules/account/account-action.server.ts";
import { deleteAccount } from "#app/modules/account/account-data.server.ts";
import { signOut } from "#app/modules/account/session-user.server.ts";
import { ACCOUNT_MESSAGES } from "#app/modules/account/account-messages.ts";
import { parseProfileForm, type ProfileField } from "#app/modules/account/account-schema.ts";
import { loginUrlFor } from "#app/modules/account/return-to.ts";
import { billingNoticeOf } from "#app/modules/billing/billing-messages.ts";
import { BillingNoticeBanner } from "#app/modules/billing/billing-notice.tsx";
import { updateProfile } from "#app/modules/account/update-profile.server.ts";
import { viewerFromCookie } from "#app/modules/billing/viewer.server.ts";
import { DASHBOARD_TABS, dashboardTabOf, tabHref, type ApiKeyFormResult, type HistoryView, type ProfileFormResult } from "#app/modules/dashboard/dashboard-data.ts";
import { HistoryTable } from "#app/modules/dashboard/history-table.tsx";
import { PlanCard } from "#app/modules/dashboard/plan-card.tsx";
import { planSummaryOf } from "#app/modules/dashboard/plan-summary.server.ts";
import { ScheduledPanel } from "#app/modules/dashboard/scheduled-panel.tsx";
import { BulkPanel } from "#app/modules/dashboard/bulk-panel.tsx";
import { ApiKeysPanel } from "#app/modules/dashboard/api-keys-panel.tsx";
import { ProfilesPanel } from "#app/modules/dashboard/profiles-panel.tsx";
import { downloaderProfilesOf, profileFormAction, profilesViewOf } from "#app/modules/profiles/profiles-view.server.ts";
import { apiKeyFormAction, apiKeysViewOf } from "#app/modules/api-keys/api-keys-view.server.ts";
import { bulkViewOf } from "#app/modules/dashboard/bulk-view.server.ts";
import { SettingsPanel } from "#app/modules/dashboard/settings-panel.tsx";
import { jobFormAction } from "#app/modules/jobs/job-form-action.server.ts";
import { scheduledViewOf } from "#app/modules/jobs/scheduled-view.server.ts";
import { Downloader } from "#app/modules/downloader/components/downloader.tsx";
import { playlistPlanOf } from "#app/modules/downloader/downloader-offer.server.ts";
import { listHistory } from "#app/modules/history/list-history.server.ts";
import { formFields, type FormResult } from "#app/lib/forms/form-problem.ts";

export const meta: Route.MetaFunction = ({ matches }) =>
  seo(matches, { title: "Dashboard", description: "Your account dashboard.", path: "/dashboard", noindex: true });

/** A personal page: never stored by a shared cache. */
export const headers: Route.HeadersFunction = () => ({ "cache-control": "private, no-store" });

async function requireViewer(context: Route.LoaderArgs["context"], request: Request) {
  const viewer = await viewerFromCookie(context, request.headers.get("cookie"));
  if (!viewer) throw redirect(loginUrlFor("/dashboard", "auth-required"));
  return viewer;
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = await requireViewer(context, request);
  const params = new URL(request.url).searchParams;
  const tab = dashboardTabOf(params.get("tab"));
  // only the open tab's data: switching tabs is a navigation (so every tab works without JavaScript)
  const history: HistoryView | null = tab === "history" ? await listHistory(context.db, viewer.user.id, Number(params.get("page") ?? 1)) : null;
  const scheduled = tab === "scheduled" && context.jobs ? await scheduledViewOf({ jobs: context.jobs.scheduled, fileLink: context.jobs.fileLink }, { userId: viewer.user.id, plan: viewer.plan.plan }) : null;
  return {
    user: { name: viewer.user.name, email: viewer.user.email, emailVerified: viewer.user.emailVerified },
    plan: planSummaryOf(viewer.plan),
    premiumFormats: viewer.entitlements.premiumFormats,
    // the Downloads tab's playlist card: one ZIP for plans with bulk downloads
    playlistPlan: tab === "downloads" ? playlistPlanOf(viewer.plan.plan) : undefined,
    // and the one-click download profiles above its formats (Ultimate)
    downloadProfiles: tab === "downloads" ? await downloaderProfilesOf(context.db, { userId: viewer.user.id, plan: viewer.plan.plan }) : undefined,
    tab,
    history,
    scheduled,
    // with the download profiles offered beside its format (Ultimate)
    bulk: tab === "bulk" ? bulkViewOf({ userId: viewer.user.id, plan: viewer.plan.plan }, await downloaderProfilesOf(context.db, { userId: viewer.user.id, plan: viewer.plan.plan })) : null,
    // the keys' names and prefixes only: a key itself is in its create's answer, once
    apiKeys: tab === "api" ? await apiKeysViewOf(context.db, { userId: viewer.user.id, plan: viewer.plan.plan, accountName: viewer.user.name }, context.publicConfig.publicUrl) : null,
    // the download profiles (issue 31 §2), and the plan's formats for a new one
    profiles: tab === "profiles" ? await profilesViewOf(context.db, { userId: viewer.user.id, plan: viewer.plan.plan }) : null,
    confirmCancel: params.get("confirm") === "cancel",
    notice: billingNoticeOf(params.get("notice")),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const viewer = await requireViewer(context, request);
  const fields = formFields(await request.formData());
  if (fields.intent === "delete-account") return deleteAccountAction(context, request, viewer.user, fields.password ?? "");
  if (fields.intent === "schedule" || fields.intent === "cancel-job" || fields.intent === "reschedule-job") return jobAction(context, { userId: viewer.user.id, plan: viewer.plan.plan }, fields);
  if (fields.intent === "create-key" || fields.intent === "revoke-key" || fields.intent === "white-label") {
    const { result, status } = await apiKeyFormAction(context.db, { userId: viewer.user.id, plan: viewer.plan.plan }, fields);
    return data<ApiKeyFormResult>(result, { status });
  }
  if (fields.intent === "create-profile" || fields.intent === "delete-profile") {
    const { result, status } = await profileFormAction(context.db, { userId: viewer.user.id, plan: viewer.plan.plan }, fields);
    return data<ProfileFormResult>(result, { status });
  }
  if (fields.intent !== "profile") throw data("Unknown form", { status: 400 });
  const values = { name: fields.name ?? "", email: fields.email ?? "" };
  const parsed = parseProfileForm(fields);
  if (!parsed.ok) {
    return data<FormResult<ProfileField>>({ ok: false, title: "Error", message: parsed.problem.message, fields: parsed.problem.fields, values }, { status: 400 });
  }
  const result = await updateProfile(context, viewer.user, parsed.data, new Headers({ cookie: request.headers.get("cookie") ?? "" }));
  if (!result.ok) return accountFailure<ProfileField>(result.code, values, result.retryAfterSeconds);
  const done = ACCOUNT_MESSAGES.profileUpdated;
  const message = result.emailChangeSentTo ? ACCOUNT_MESSAGES.emailChangeSent.replace("{email}", result.emailChangeSentTo) : done.description;
  return data<FormResult<ProfileField>>({ ok: true, title: done.title, message });
}

/** The Scheduled tab's forms: schedule, cancel, reschedule (app/modules/jobs). */
async function jobAction(context: Route.ActionArgs["context"], owner: { userId: string; plan: Parameters<typeof scheduledViewOf>[1]["plan"] }, fields: Record<string, string>) {
  const result = await jobFormAction(context.jobs?.scheduled ?? null, owner, fields);
  if (result.ok) return data<FormResult<never>>({ ok: true, title: result.title, message: result.message });
  return data<FormResult<never>>({ ok: false, title: "Error", message: result.message, fields: [] }, { status: result.status });
}

/** Settings → "Delete account": the password confirms it; every device is signed out and the browser's copies go. */
async function deleteAccountAction(context: Route.ActionArgs["context"], request: Request, user: { id: string; email: string }, password: string) {
  let setCookies: string[] = [];
  const result = await deleteAccount(context, user, password, async () => {
    ({ setCookies } = await signOut(context.accounts, request));
  });
  if (!result.ok) {
    if (result.code === "account.rate_limited") return accountFailure<"password">("account.rate_limited", {}, result.retryAfterSeconds);
    const message = result.code === "account.wrong_password" ? ACCOUNT_MESSAGES.deleteWrongPassword : ACCOUNT_MESSAGES.deleteBillingFailed;
    const status = result.code === "account.wrong_password" ? 401 : 502;
    return data<FormResult<"password">>({ ok: false, title: "Error", message, fields: result.code === "account.wrong_password" ? ["password"] : [] }, { status });
  }
  const response = redirectWithCookies("/login?notice=account-deleted", setCookies);
  response.headers.set("clear-site-data", '"cache"');
  return response;
}

/**
 * The account dashboard (spec §2 "Dashboard", issue 9 §3): heading, Logout, the plan card, and
 * tabs: Downloads (the home page's downloader with this user's entitlements), History
 * (recorded by the server), Scheduled, Bulk, API (keys), Profiles (download profiles) and Settings. The open tab lives in the
 * URL (`?tab=`), so each tab is a link that works without JavaScript and a Radix tab with it.
 */
export default function Dashboard() {
  const { user, plan, premiumFormats, playlistPlan, downloadProfiles, tab, history, scheduled, bulk, apiKeys, profiles, confirmCancel, notice } = useLoaderData<typeof loader>();
  const actionResult = useActionData<typeof action>();
  const navigation = useNavigation();
  const navigate = useNavigate();
  const loggingOut = navigation.state !== "idle" && navigation.formAction === "/logout";

  // a plain POST rendered the page: with JavaScript its answer is also a toast
  useEffect(() => {
    if (!actionResult) return;
    if (actionResult.ok) toast.success(actionResult.title, { description: actionResult.message });
  }, [actionResult]);

  return (
    <div className="mx-auto grid max-w-6xl gap-8 px-4 py-12 sm:px-6 lg:grid-cols-[minmax(0,1fr)_300px]">
      <section aria-labelledby="dashboard-heading" className="min-w-0">
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

        <Tabs
          value={tab}
          onValueChange={(value) => void navigate(tabHref(dashboardTabOf(value)), { preventScrollReset: true })}
          className="mt-8"
        >
          <TabsList aria-label="Dashboard sections">
            {DASHBOARD_TABS.map((t) => (
              <TabsTrigger key={t.value} value={t.value} asChild>
                <a href={tabHref(t.value)} onClick={(e) => e.preventDefault()}>
                  {t.label}
                </a>
              </TabsTrigger>
            ))}
          </TabsList>
          <TabsContent value="downloads">
            <h2 className="sr-only">Downloads</h2>
            {/* the downloader pads its preview like a page section; the form gets the same inset */}
            <div className="-mx-4 sm:-mx-6">
              <Downloader isPremium={premiumFormats} playlistPlan={playlistPlan} profiles={downloadProfiles} formLabel="Video URL" heroSlot={(form) => <div className="px-4 sm:px-6">{form}</div>} />
            </div>
          </TabsContent>
          <TabsContent value="history">
            <h2 className="sr-only">Download history</h2>
            {history ? <HistoryTable history={history} /> : null}
          </TabsContent>
          <TabsContent value="scheduled">
            <h2 className="sr-only">Scheduled downloads</h2>
            {scheduled ? (
              <ScheduledPanel view={scheduled} actionResult={actionResult as FormResult<string> | undefined} />
            ) : (
              <p className="text-sm text-slate-600">Scheduled downloads are not available on this server.</p>
            )}
          </TabsContent>
          <TabsContent value="bulk">
            <h2 className="sr-only">Bulk downloads</h2>
            {bulk ? <BulkPanel view={bulk} /> : null}
          </TabsContent>
          <TabsContent value="api">
            <h2 className="sr-only">API keys</h2>
            {apiKeys ? <ApiKeysPanel view={apiKeys} actionResult={actionResult && "intent" in actionResult && (actionResult.intent === "create-key" || actionResult.intent === "revoke-key" || actionResult.intent === "white-label") ? (actionResult as ApiKeyFormResult) : undefined} /> : null}
          </TabsContent>
          <TabsContent value="profiles">
            <h2 className="sr-only">Download profiles</h2>
            {profiles ? <ProfilesPanel view={profiles} actionResult={actionResult && "intent" in actionResult && (actionResult.intent === "create-profile" || actionResult.intent === "delete-profile") ? (actionResult as ProfileFormResult) : undefined} /> : null}
          </TabsContent>
          <TabsContent value="settings">
            <SettingsPanel user={user} plan={plan} actionResult={actionResult} confirmCancel={confirmCancel} />
          </TabsContent>
        </Tabs>
      </section>
      <PlanCard plan={plan} />
    </div>
  );
}
