import { CheckCircle2, Clock3, Layers } from "#app/components/icons.ts";
import { Link, useActionData, useLoaderData } from "react-router";
import type { Route } from "./+types/supported-sites";
import { AdSlot } from "#app/components/layout/ad-slot.tsx";
import { cn } from "#app/lib/cn.ts";
import { FaqAccordion, faqJsonLd, type FaqEntry } from "#app/modules/pages/faq-accordion.tsx";
import { PageHero } from "#app/modules/pages/page-hero.tsx";
import { pageMeta } from "#app/modules/site/page-meta.ts";
import { platformsFor } from "#app/modules/platforms/platform-cards.server.ts";
import { YtdlpSitesSection } from "#app/modules/platforms/ytdlp-sites-section.tsx";
import { ytdlpSitesView } from "#app/modules/platforms/ytdlp-sites.server.ts";
import type { ExtractorList } from "#engine/sources/ytdlp/extractors.ts";
import { statusLabel, type PlatformEntry, type PlatformStatus } from "#app/modules/platforms/platform-status.ts";
import { PlatformNotices } from "#app/modules/platform-health/platform-notices.tsx";
import { PLATFORM_REQUEST_FORM } from "#app/modules/platforms/platform-request-form.ts";
import { PLATFORM_REQUEST_FIELDS, PLATFORM_REQUEST_MESSAGES, parsePlatformRequestForm } from "#app/modules/platforms/platform-request-schema.ts";
import { submitPlatformRequest } from "#app/modules/platforms/submit-platform-request.server.ts";
import { StoredForm } from "#app/modules/stored-form/stored-form.tsx";
import { storedFormAction } from "#app/modules/stored-form/stored-form-action.server.ts";

const QUESTIONS: FaqEntry[] = [
  {
    id: "basic",
    question: "What is the difference between Fully Supported and Basic Support?",
    answer:
      "Fully Supported platforms get every format and quality we offer: MP4 up to 1080p, MP3, AAC, M4A and WEBM audio, thumbnails and transcripts. Basic Support means we read the platform's public videos with yt-dlp: MP4 at the qualities the platform serves (up to the one on the card) and its audio as MP3, AAC or M4A, with the transcript when the video has captions.",
  },
  {
    id: "coming-soon",
    question: "When will the Coming Soon platforms work?",
    answer:
      "We add platforms one at a time and only announce one when downloads from it work reliably. Requests from the form below decide the order, so tell us which one you need.",
  },
  {
    id: "private",
    question: "Can I download private or members-only videos?",
    answer:
      "No. Our server only reads what anyone can watch without logging in. Private, members-only, paid and age-restricted videos stay out of reach on every platform.",
  },
  {
    id: "link-fails",
    question: "My link is from a supported site but does not work. Why?",
    answer:
      "Platforms change how they deliver video from time to time, and a link can also point to a removed or region-locked video. Try again in a few minutes; if it still fails, send us the link through the contact page and we will look into it.",
  },
];

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "/supported-sites", { jsonLd: [faqJsonLd(QUESTIONS)] });

/**
 * The cards as this server can honour them (yt-dlp located at start, or not), and the sites its
 * yt-dlp reads as listed so far (never waited for: read in the background after start).
 */
export function loader({ request, context }: Route.LoaderArgs) {
  const { ytdlp } = context.engine;
  const list: ExtractorList = context.ytdlpExtractors?.current() ?? (ytdlp ? { state: "reading", version: ytdlp.version } : { state: "absent" });
  return {
    platforms: platformsFor({ ytdlp: ytdlp !== null }),
    ytdlpSites: ytdlpSitesView(list, new URL(request.url).searchParams.get("site")),
    // a platform whose downloads fail right now says so above the cards (issue 32 §5)
    notices: context.platformNotices?.current() ?? [],
  };
}

export function action({ request, context }: Route.ActionArgs) {
  return storedFormAction(request, context, {
    fields: PLATFORM_REQUEST_FIELDS,
    parse: parsePlatformRequestForm,
    messages: PLATFORM_REQUEST_MESSAGES,
    submit: submitPlatformRequest,
  });
}

const STATUS_STYLE: Record<PlatformStatus, string> = {
  "fully-supported": "bg-green-100 text-green-900",
  "basic-support": "bg-amber-100 text-amber-900",
  planned: "bg-slate-200 text-slate-800",
};

const STATUS_ICON = { "fully-supported": CheckCircle2, "basic-support": Layers, planned: Clock3 } as const;

function PlatformCard({ platform }: { platform: PlatformEntry }) {
  const Icon = STATUS_ICON[platform.status];
  const headingId = `platform-${platform.name.toLowerCase().replace(/[^a-z0-9]+/g, "-")}`;
  return (
    <article aria-labelledby={headingId} className="flex flex-col rounded-2xl border border-slate-200 bg-white p-6 shadow-sm" data-testid="platform-card">
      <div className="flex items-start justify-between gap-3">
        <div className="flex items-center gap-3">
          <span aria-hidden className="grid size-11 place-items-center rounded-xl text-lg font-bold text-white" style={{ background: platform.logo.background }}>
            {platform.logo.letter}
          </span>
          <h3 id={headingId} className="text-lg font-semibold text-slate-900">
            {platform.name}
          </h3>
        </div>
        <span className={cn("inline-flex items-center gap-1 rounded-full px-2.5 py-1 text-xs font-semibold whitespace-nowrap", STATUS_STYLE[platform.status])}>
          <Icon aria-hidden className="size-3.5" />
          {statusLabel(platform)}
        </span>
      </div>
      <p className="mt-3 text-sm leading-6 text-slate-700">{platform.description}</p>
      <dl className="mt-4 grid grid-cols-2 gap-3 text-sm">
        <div>
          <dt className="text-slate-600">{platform.status === "planned" ? "Planned formats" : "Formats"}</dt>
          <dd className="font-medium text-slate-900">{platform.formats.join(", ")}</dd>
        </div>
        <div>
          <dt className="text-slate-600">Max quality</dt>
          <dd className="font-medium text-slate-900">{platform.maxQuality}</dd>
        </div>
      </dl>
      <ul className="mt-4 space-y-1.5 text-sm text-slate-700">
        {platform.features.map((f) => (
          <li key={f} className="flex gap-2">
            <span aria-hidden className="mt-2 size-1.5 shrink-0 rounded-full bg-brand-500" />
            {f}
          </li>
        ))}
      </ul>
    </article>
  );
}

export default function SupportedSites() {
  const actionResult = useActionData<typeof action>();
  const { platforms, ytdlpSites, notices } = useLoaderData<typeof loader>();
  const counts = {
    full: platforms.filter((p) => p.status === "fully-supported").length,
    basic: platforms.filter((p) => p.status === "basic-support" && !p.needs).length,
    planned: platforms.filter((p) => p.status === "planned").length,
  };
  const lacking = platforms.filter((p) => p.needs).map((p) => p.name);
  return (
    <>
      <PageHero
        eyebrow="Platforms"
        title="Supported Sites"
        intro={
          <>
            Paste a link from a supported platform on the{" "}
            <Link to="/" className="font-medium text-brand-700 underline underline-offset-2">
              downloader
            </Link>
            . {counts.full} platform is fully supported, {counts.basic} {counts.basic === 1 ? "has" : "have"} basic support
            {counts.planned > 0 ? ` and ${counts.planned} more are on the way` : ""}.
            {lacking.length > 0 ? ` ${lacking.join(" and ")} will work once this server has yt-dlp installed.` : ""}
          </>
        }
      />
      <div className="mx-auto max-w-6xl space-y-14 px-4 py-12 sm:px-6">
        <PlatformNotices notices={notices} />
        <section aria-labelledby="platforms-heading">
          <h2 id="platforms-heading" className="text-2xl font-semibold text-slate-900">
            Platforms and what you can save
          </h2>
          <div className="mt-6 grid gap-5 sm:grid-cols-2 lg:grid-cols-3">
            {platforms.map((p) => (
              <PlatformCard key={p.name} platform={p} />
            ))}
          </div>
        </section>

        <YtdlpSitesSection view={ytdlpSites} />

        <AdSlot placement="in-content" />

        <div className="grid gap-10 lg:grid-cols-2">
          <section id="request-platform" aria-labelledby="request-heading" className="scroll-mt-24 rounded-2xl border border-slate-200 bg-slate-50 p-6 sm:p-8">
            <h2 id="request-heading" className="text-2xl font-semibold text-slate-900">
              Request Platform Support
            </h2>
            <p className="mt-2 mb-6 text-slate-700">
              Missing a site? Tell us which one. Every request is read, and the most requested platforms are built first.
            </p>
            <StoredForm layout={PLATFORM_REQUEST_FORM} validate={parsePlatformRequestForm} actionResult={actionResult} />
          </section>

          <section aria-labelledby="sites-faq-heading">
            <h2 id="sites-faq-heading" className="mb-6 text-2xl font-semibold text-slate-900">
              Questions about platforms
            </h2>
            <FaqAccordion items={QUESTIONS} />
            <p className="mt-6 text-slate-700">
              More answers in the{" "}
              <Link to="/faq" className="font-medium text-brand-700 underline underline-offset-2">
                FAQ
              </Link>
              .
            </p>
          </section>
        </div>

        <AdSlot placement="in-content" />
      </div>
    </>
  );
}
