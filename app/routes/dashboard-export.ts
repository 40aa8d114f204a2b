import type { Route } from "./+types/dashboard-export";
import { exportAccountData } from "#app/modules/account/account-data.server.ts";
import { viewerFromCookie } from "#app/modules/billing/viewer.server.ts";

/** Settings → "Download my data": everything held about the signed-in account, as a JSON file. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = await viewerFromCookie(context, request.headers.get("cookie"));
  if (!viewer) return new Response("Please log in to download your data.", { status: 401, headers: { "cache-control": "private, no-store" } });
  const exported = await exportAccountData(context.db, viewer.user.id);
  if (!exported) return new Response("No such account.", { status: 404, headers: { "cache-control": "private, no-store" } });
  const day = exported.exportedAt.slice(0, 10);
  return new Response(JSON.stringify(exported, null, 2), {
    headers: {
      "content-type": "application/json; charset=utf-8",
      "content-disposition": `attachment; filename="my-account-data-${day}.json"`,
      "cache-control": "private, no-store",
    },
  });
}
