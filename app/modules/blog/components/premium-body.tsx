import { Link } from "react-router";
import { Button } from "#app/components/ui/button.tsx";
import { loginUrlFor } from "#app/modules/account/return-to.ts";
import { paidPlansWith, PLANS } from "#common/plans.ts";
import { PREMIUM_CONTENT_CLASS, type ArticleBody } from "../premium.ts";
import { articlePath } from "../types.ts";

/** "Pro and Ultimate": the plans whose members read premium articles whole, from the plan table. */
export function premiumPlanNames(): string {
  const names = paidPlansWith("premiumArticles").map((id) => PLANS[id].name);
  return names.length > 1 ? `${names.slice(0, -1).join(", ")} and ${names.at(-1)}` : (names[0] ?? "");
}

/**
 * A premium article's body: the introduction, then the rest for a member holding the right, or
 * an upgrade prompt for anyone else (whose page was sent without the rest). The element carrying
 * PREMIUM_CONTENT_CLASS is the part the structured data marks as not free.
 */
export function PremiumBody({ body, slug, className }: { body: Exclude<ArticleBody, { kind: "free" }>; slug: string; className: string }) {
  if (body.kind === "premium") {
    return (
      <div className={className} data-testid="article-body">
        <div dangerouslySetInnerHTML={{ __html: body.introHtml }} />
        <div className={PREMIUM_CONTENT_CLASS} data-testid="premium-content" dangerouslySetInnerHTML={{ __html: body.premiumHtml }} />
      </div>
    );
  }
  return (
    <>
      <div className={className} data-testid="article-body" dangerouslySetInnerHTML={{ __html: body.introHtml }} />
      <section aria-labelledby="premium-prompt-heading" className={`${PREMIUM_CONTENT_CLASS} mx-auto mt-8 max-w-3xl rounded-2xl border border-amber-200 bg-amber-50 p-6 text-center`} data-testid="premium-prompt">
        <h2 id="premium-prompt-heading" className="text-xl font-semibold text-slate-900">
          Premium article
        </h2>
        <p className="mt-2 text-slate-700">The rest of this article is for {premiumPlanNames()} members.</p>
        <div className="mt-4 flex flex-wrap justify-center gap-3">
          <Button asChild>
            <Link to="/premium">See the plans</Link>
          </Button>
          {body.signedIn ? null : (
            <Button asChild variant="outline">
              <Link to={loginUrlFor(articlePath(slug))}>Log in</Link>
            </Button>
          )}
        </div>
      </section>
    </>
  );
}

/** The small label on premium articles in lists. */
export function PremiumBadge() {
  return (
    <span className="inline-flex w-fit items-center rounded bg-amber-100 px-1.5 py-0.5 text-xs font-semibold text-amber-900" data-testid="premium-badge">
      Premium
    </span>
  );
}
