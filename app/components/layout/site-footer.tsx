import { SiteLink } from "#app/components/ui/site-link.tsx";
import { FOOTER_GROUPS } from "#app/modules/site/page-links.ts";

/** Six social links, opened in a new tab (spec §2 "Footer"). */
export const SOCIAL_LINKS = [
  { href: "https://www.facebook.com/vidfetch", label: "Facebook" },
  { href: "https://x.com/vidfetch", label: "Twitter" },
  { href: "https://www.instagram.com/vidfetch", label: "Instagram" },
  { href: "https://www.youtube.com/@vidfetch", label: "YouTube" },
  { href: "https://www.linkedin.com/company/vidfetch", label: "LinkedIn" },
  { href: "https://www.reddit.com/r/vidfetch", label: "Reddit" },
] as const;

export function SiteFooter({ siteName }: { siteName: string }) {
  return (
    <footer className="mt-16 border-t border-slate-200 bg-slate-50">
      <div className="mx-auto grid max-w-7xl gap-8 px-4 py-12 sm:px-6 md:grid-cols-5">
        <div className="md:col-span-1">
          <p className="text-lg font-bold text-slate-900">{siteName}</p>
          <p className="mt-2 text-sm leading-6 text-slate-600">
            Save videos, audio, thumbnails and transcripts for personal use. No fake buttons, no installation, nothing stored on our servers.
          </p>
        </div>
        {FOOTER_GROUPS.map((g) => (
          <nav key={g.heading} aria-label={g.heading}>
            <h2 className="text-sm font-semibold text-slate-900">{g.heading}</h2>
            <ul className="mt-3 space-y-2">
              {g.links.map((l) => (
                <li key={l.to}>
                  <SiteLink to={l.to} className="text-sm text-slate-600 hover:text-brand-700">
                    {l.label}
                  </SiteLink>
                </li>
              ))}
            </ul>
          </nav>
        ))}
      </div>
      <div className="border-t border-slate-200">
        <div className="mx-auto flex max-w-7xl flex-col items-center justify-between gap-4 px-4 py-6 sm:flex-row sm:px-6">
          <p className="text-sm text-slate-600">
            © {new Date().getFullYear()} {siteName}. For personal, non-commercial use. Respect creators&apos; rights.
          </p>
          <ul className="flex flex-wrap gap-4" aria-label="Social networks">
            {SOCIAL_LINKS.map((s) => (
              <li key={s.label}>
                <a href={s.href} target="_blank" rel="noopener noreferrer" className="text-sm text-slate-600 hover:text-brand-700">
                  {s.label}
                  <span className="sr-only"> (opens in a new tab)</span>
                </a>
              </li>
            ))}
          </ul>
        </div>
      </div>
    </footer>
  );
}
