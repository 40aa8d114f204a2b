import { holds } from "#common/plans.ts";
import { viewerFromCookie } from "#app/modules/billing/viewer.server.ts";

export interface PremiumReader {
  /** holds the premiumArticles right: gets the whole text of premium articles */
  entitled: boolean;
  /** has a session (a visitor without one is also offered "Log in") */
  signedIn: boolean;
}

/**
 * Who is reading a premium article. Visitors cost no query (no session cookie); a failing lookup
 * gives the visitor's answer, the introduction only, so nothing is shown that should not be.
 */
export async function premiumReaderFor(
  services: Parameters<typeof viewerFromCookie>[0] & { logger: { warn: (obj: object, msg: string) => void } },
  request: Request,
): Promise<PremiumReader> {
  try {
    const viewer = await viewerFromCookie(services, request.headers.get("cookie"));
    if (!viewer) return { entitled: false, signedIn: false };
    return { entitled: holds(viewer.plan.plan, "premiumArticles"), signedIn: true };
  } catch (err) {
    services.logger.warn({ err }, "blog: plan lookup failed, a premium article shows its introduction");
    return { entitled: false, signedIn: false };
  }
}
