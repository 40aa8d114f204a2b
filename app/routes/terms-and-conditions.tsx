import type { Route } from "./+types/terms-and-conditions";
import { LEGAL_LAST_CHANGED } from "#app/modules/pages/legal/legal-dates.ts";
import { LegalDocument } from "#app/modules/pages/legal/legal-document.tsx";
import { termsSections } from "#app/modules/pages/legal/terms-sections.tsx";
import { pageMeta } from "#app/modules/site/page-meta.ts";
import { usePublicConfig } from "#app/lib/hooks/use-public-config.ts";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "/terms-and-conditions");

export default function TermsAndConditions() {
  const config = usePublicConfig();
  return (
    <LegalDocument
      title="Terms and Conditions"
      lastChanged={LEGAL_LAST_CHANGED.termsAndConditions}
      intro={`The rules for using ${config.siteName}: what you may download, how accounts and subscriptions work, and what we are responsible for.`}
      sections={termsSections(config)}
    />
  );
}
