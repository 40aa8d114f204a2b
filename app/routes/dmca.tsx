import type { Route } from "./+types/dmca";
import { LEGAL_LAST_CHANGED } from "#app/modules/pages/legal/legal-dates.ts";
import { LegalDocument } from "#app/modules/pages/legal/legal-document.tsx";
import { dmcaSections } from "#app/modules/pages/legal/dmca-sections.tsx";
import { pageMeta } from "#app/modules/site/page-meta.ts";
import { usePublicConfig } from "#app/lib/hooks/use-public-config.ts";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "/dmca");

export default function Dmca() {
  const config = usePublicConfig();
  return (
    <LegalDocument
      title="DMCA and Copyright Policy"
      lastChanged={LEGAL_LAST_CHANGED.dmca}
      intro={`How rights holders can report infringement, how users can respond, and how ${config.siteName} handles both.`}
      sections={dmcaSections(config)}
    />
  );
}
