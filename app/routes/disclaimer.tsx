import type { Route } from "./+types/disclaimer";
import { LEGAL_LAST_CHANGED } from "#app/modules/pages/legal/legal-dates.ts";
import { LegalDocument } from "#app/modules/pages/legal/legal-document.tsx";
import { disclaimerSections } from "#app/modules/pages/legal/disclaimer-sections.tsx";
import { pageMeta } from "#app/modules/site/page-meta.ts";
import { usePublicConfig } from "#app/lib/hooks/use-public-config.ts";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "/disclaimer");

export default function Disclaimer() {
  const config = usePublicConfig();
  return (
    <LegalDocument
      title="Disclaimer"
      lastChanged={LEGAL_LAST_CHANGED.disclaimer}
      intro={`What ${config.siteName} is, what it is not, and who is responsible for what.`}
      sections={disclaimerSections(config)}
    />
  );
}
