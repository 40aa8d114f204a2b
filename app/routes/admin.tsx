import { data, useActionData, useLoaderData } from "react-router";
import type { Route } from "./+types/admin";
import { formFields } from "#app/lib/forms/form-problem.ts";
import { seo } from "#app/lib/seo.ts";
import { isAdmin } from "#app/modules/admin/admin-access.ts";
import { deleteComment, hideComment, markMessageHandled, removeArticle, retryJob, type AdminActor, type AdminFormResult } from "#app/modules/admin/admin-actions.server.ts";
import { AdminPage } from "#app/modules/admin/admin-page.tsx";
import { adminViewOf } from "#app/modules/admin/admin-view.server.ts";
import { viewerFromCookie } from "#app/modules/billing/viewer.server.ts";
import { findRelevantPage } from "#app/modules/site/find-relevant-page.ts";
import NotFound from "./not-found.tsx";

/**
 * The operators' area (issue 31 §5). Only the verified ADMIN_EMAIL account sees it; everyone
 * else (visitors, other members, that address before it is verified, any account when
 * ADMIN_EMAIL is unset) gets the site's ordinary "Page Not Found", status 404, as for any unknown
 * address: nothing hints that the page exists.
 */

const PRIVATE = { "cache-control": "private, no-store" };

export const headers: Route.HeadersFunction = () => PRIVATE;

export const meta: Route.MetaFunction = ({ matches, loaderData }) =>
  loaderData?.admin
    ? seo(matches, { title: "Admin", description: "The operators' area.", path: "/admin", noindex: true })
    : seo(matches, {
        title: "Page Not Found",
        description: "The page you were looking for does not exist. Find the downloader, the guide or the supported sites from here.",
        path: loaderData?.path ?? "/404",
        noindex: true,
      });

/** The admin, or null for anyone else. */
async function adminOf(context: Route.LoaderArgs["context"], request: Request): Promise<AdminActor | null> {
  const viewer = await viewerFromCookie(context, request.headers.get("cookie"));
  if (!viewer || !isAdmin(viewer, context.config)) return null;
  return { id: viewer.user.id, email: viewer.user.email };
}

/** What the not-found route answers for this address (the same page, the same status). */
function notFound(request: Request, context: Route.LoaderArgs["context"]) {
  const { pathname } = new URL(request.url);
  const target = findRelevantPage(pathname);
  context.logger.warn({ path: pathname, redirectTo: target.path }, "page not found");
  return data({ admin: false as const, path: pathname, redirectTo: target }, { status: 404, headers: PRIVATE });
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const admin = await adminOf(context, request);
  if (!admin) return notFound(request, context);
  return data({ admin: true as const, email: admin.email, view: await adminViewOf(context.db) }, { headers: PRIVATE });
}

export async function action({ request, context }: Route.ActionArgs) {
  const admin = await adminOf(context, request);
  if (!admin) return data<AdminFormResult>({ ok: false, message: "Not found", status: 404 }, { status: 404 });
  const fields = formFields(await request.formData());
  const result = await runAction(context, admin, fields);
  // a hidden comment or a removed article leaves the cached copies of its pages now, not in a minute
  if (!result.ok) return data<AdminFormResult>(result, { status: result.status, headers: PRIVATE });
  for (const page of result.pages ?? []) context.forgetPage?.(page);
  return data<AdminFormResult>({ ok: true, message: result.message }, { headers: PRIVATE });
}

function runAction(context: Route.ActionArgs["context"], admin: AdminActor, fields: Record<string, string>): Promise<AdminFormResult> | AdminFormResult {
  const { db } = context;
  switch (fields.intent) {
    case "mark-handled":
      return markMessageHandled(db, admin, fields.messageId ?? "");
    case "hide-comment":
      return hideComment(db, admin, fields.commentId ?? "");
    case "delete-comment":
      return deleteComment(db, admin, fields.commentId ?? "");
    case "remove-article":
      return removeArticle(db, admin, fields.slug ?? "", fields.reason ?? "");
    case "retry-job":
      if (!context.jobs) return { ok: false, message: "The job queue does not run on this server.", status: 503 };
      return retryJob(db, context.jobs.scheduled, admin, fields.jobId ?? "");
    default:
      return { ok: false, message: "Unknown form", status: 400 };
  }
}

export default function Admin() {
  const loaderData = useLoaderData<typeof loader>();
  const actionResult = useActionData<typeof action>();
  if (!loaderData.admin) return <NotFound {...({ loaderData } as unknown as Parameters<typeof NotFound>[0])} />;
  return <AdminPage email={loaderData.email} view={loaderData.view} result={actionResult} />;
}
