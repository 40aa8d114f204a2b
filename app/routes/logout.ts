import type { Route } from "./+types/logout";
import { redirectWithCookies } from "#app/modules/account/account-action.server.ts";
import { signOut } from "#app/modules/account/session-user.server.ts";

/** POST only (a GET could be triggered by any link or image): ends the session, then "Logged Out". */
export async function action({ request, context }: Route.ActionArgs) {
  const { setCookies } = await signOut(context.accounts, request);
  return redirectWithCookies("/login?notice=logged-out", setCookies);
}

export async function loader() {
  return new Response("Use the Logout button to log out.", { status: 405, headers: { allow: "POST" } });
}
