import { ArrowRight, ClipboardPaste, Crown, Download, FileText, Gauge, InfinityIcon, Link2, ListChecks, ShieldCheck, Smartphone, Sparkles } from "#app/components/icons.ts";
import { useNavigate, useRouteLoaderData } from "react-router";
import { SiteLink } from "#app/components/ui/site-link.tsx";
import { toast } from "sonner";
import { Button } from "#app/components/ui/button.tsx";
import { FeaturedArticles } from "#app/modules/blog/featured-articles.tsx";
import type { ArticleSummary } from "#app/modules/blog/types.ts";

const WHY_CHOOSE = [
  { icon: Sparkles, title: "Free, with light advertising", text: "Every format up to 1080p costs nothing. No fake download buttons, no pop-ups." },
  { icon: ShieldCheck, title: "Nothing stored, nothing installed", text: "Files stream straight from the platform to you. We keep no copy and you install nothing." },
  { icon: InfinityIcon, title: "No download limit", text: "Download as much as you need for personal use; only fair-usage rules apply." },
  { icon: Gauge, title: "Real quality, real sizes", text: "MP4 from 360p to 1080p, MP3, AAC, M4A and WEBM, with the file's real size shown before you start." },
  { icon: FileText, title: "Thumbnails and transcripts", text: "Save the HD thumbnail or the video's transcript as text in one click." },
  { icon: Smartphone, title: "Works on every device", text: "Phone, tablet or laptop: the browser saves the file like any other download." },
];

const STEPS = [
  { icon: Link2, title: "Copy the link", text: "Open the video and copy its address from the address bar or the Share button." },
  { icon: ClipboardPaste, title: "Paste it above", text: "Paste the link into the field at the top of this page and press Download." },
  { icon: ListChecks, title: "Choose a format", text: "Pick MP4 and a quality, audio only, the thumbnail or the transcript." },
  { icon: Download, title: "Save the file", text: "Your browser saves the file; the progress bar shows how far it has come." },
];

/** What premium gives today, in the plan cards' own words (a test keeps each one a line some card includes). */
export const PREMIUM_FEATURES = ["Ad-free experience", "Unlimited downloads", "4K and 8K downloads", "Subtitles (SRT and VTT)"];

/** Three questions from the FAQ, answered briefly; the full list lives on /faq. */
export const FAQ_TEASER = [
  {
    q: "Is this video downloader free?",
    a: "Yes. Every format up to 1080p, MP3, the thumbnail and the transcript are free, supported by light advertising. Premium plans add 4K and 8K, subtitles and an ad-free site.",
  },
  {
    q: "Is it legal to download videos?",
    a: "Downloading for personal, non-commercial use is allowed in many places, but it depends on where you live and on the platform's terms. Only download videos you own or have permission to save.",
  },
  {
    q: "What quality can I download?",
    a: "MP4 in 360p, 480p, 720p and 1080p Full HD (premium adds 1440p, 4K and 8K), audio as MP3 up to 320 kbps, AAC or M4A, and the original WEBM.",
  },
];

function SectionHeading({ id, children, lead }: { id: string; children: React.ReactNode; lead?: string }) {
  return (
    <div className="text-center">
      <h2 id={id} className="text-2xl font-bold text-slate-900 sm:text-3xl">
        {children}
      </h2>
      {lead ? <p className="mx-auto mt-2 max-w-2xl text-slate-600">{lead}</p> : null}
    </div>
  );
}

export function WhyChoose({ siteName }: { siteName: string }) {
  return (
    <section aria-labelledby="why-heading" className="mx-auto max-w-6xl px-4 py-12 sm:px-6">
      <SectionHeading id="why-heading" lead="A downloader that does what it says, without tricks.">
        Why choose {siteName}?
      </SectionHeading>
      <ul className="mt-8 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        {WHY_CHOOSE.map(({ icon: Icon, title, text }) => (
          <li key={title} className="rounded-xl border border-slate-200 bg-white p-5">
            <Icon aria-hidden className="size-6 text-brand-600" />
            <h3 className="mt-3 font-semibold text-slate-900">{title}</h3>
            <p className="mt-1 text-sm leading-6 text-slate-600">{text}</p>
          </li>
        ))}
      </ul>
    </section>
  );
}

export function HowToSteps() {
  return (
    <section aria-labelledby="steps-heading" className="bg-slate-50">
      <div className="mx-auto max-w-6xl px-4 py-12 sm:px-6">
        <SectionHeading id="steps-heading" lead="Four steps from a link to a file on your device.">
          How to download a video
        </SectionHeading>
        <ol className="mt-8 grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          {STEPS.map(({ icon: Icon, title, text }, i) => (
            <li key={title} className="rounded-xl bg-white p-5 shadow-sm">
              <span className="flex items-center gap-2 text-sm font-semibold text-brand-700">
                <span className="flex size-7 items-center justify-center rounded-full bg-brand-600 text-white" aria-hidden>
                  {i + 1}
                </span>
                <span className="sr-only">Step {i + 1}:</span>
                <Icon aria-hidden className="size-5" />
              </span>
              <h3 className="mt-3 font-semibold text-slate-900">{title}</h3>
              <p className="mt-1 text-sm leading-6 text-slate-600">{text}</p>
            </li>
          ))}
        </ol>
        <p className="mt-6 text-center text-sm">
          <SiteLink to="/how-to-download" className="font-medium text-brand-700 underline underline-offset-2">
            Read the full guide
          </SiteLink>
        </p>
      </div>
    </section>
  );
}

/**
 * Spec §6: "Upgrade to Premium" takes logged-in visitors to /premium; everyone else gets the
 * "Login Required" toast and goes to /login, which returns to /premium after logging in.
 */
export function PremiumBlock() {
  const navigate = useNavigate();
  const root = useRouteLoaderData("root") as { user?: unknown } | undefined;
  const loggedIn = Boolean(root?.user);
  function upgrade() {
    if (loggedIn) return navigate("/premium");
    toast.error("Login Required", { description: "Please log in or create an account to access premium features" });
    navigate("/login?returnTo=%2Fpremium");
  }
  return (
    <section aria-labelledby="premium-heading" className="mx-auto max-w-6xl px-4 py-12 sm:px-6">
      <div className="rounded-2xl bg-gradient-to-br from-brand-700 to-brand-900 p-6 text-white sm:p-10">
        <div className="flex items-center gap-2 text-amber-300">
          <Crown aria-hidden className="size-6" />
          <span className="text-sm font-semibold tracking-wide uppercase">Premium</span>
        </div>
        <h2 id="premium-heading" className="mt-2 text-2xl font-bold sm:text-3xl">
          Get more with Premium
        </h2>
        <p className="mt-2 max-w-2xl text-brand-100">From $4.99/month. Cancel anytime.</p>
        <ul className="mt-6 grid gap-2 sm:grid-cols-2 lg:grid-cols-3">
          {PREMIUM_FEATURES.map((f) => (
            <li key={f} className="flex items-center gap-2">
              <Sparkles aria-hidden className="size-4 shrink-0 text-amber-300" /> {f}
            </li>
          ))}
        </ul>
        <div className="mt-8 flex flex-wrap items-center gap-4">
          <Button type="button" size="lg" variant="accent" onClick={upgrade}>
            <Crown aria-hidden /> Upgrade to Premium
          </Button>
          <SiteLink to="/premium" className="inline-flex items-center gap-1 font-medium text-white underline underline-offset-4">
            View all premium plans <ArrowRight aria-hidden className="size-4" />
          </SiteLink>
        </div>
      </div>
    </section>
  );
}

export function FaqTeaser() {
  return (
    <section aria-labelledby="faq-teaser-heading" className="mx-auto max-w-3xl px-4 py-12 sm:px-6">
      <SectionHeading id="faq-teaser-heading">Frequently asked questions</SectionHeading>
      <dl className="mt-8 space-y-4">
        {FAQ_TEASER.map(({ q, a }) => (
          <div key={q} className="rounded-xl border border-slate-200 p-5">
            <dt className="font-semibold text-slate-900">{q}</dt>
            <dd className="mt-2 text-sm leading-6 text-slate-700">{a}</dd>
          </div>
        ))}
      </dl>
      <p className="mt-6 text-center">
        <SiteLink to="/faq" className="inline-flex items-center gap-1 font-medium text-brand-700 underline underline-offset-2">
          See all questions <ArrowRight aria-hidden className="size-4" />
        </SiteLink>
      </p>
    </section>
  );
}

export interface HomeSectionsProps {
  siteName: string;
  /** the featured blog articles (none: the block is left out) */
  articles: ArticleSummary[];
}

/** The home page below the downloader and its ad, in order (loaded as its own chunk: home-below-fold.tsx). */
export default function HomeSections({ siteName, articles }: HomeSectionsProps) {
  return (
    <>
      <WhyChoose siteName={siteName} />
      <HowToSteps />
      <PremiumBlock />
      <FeaturedArticles articles={articles} />
      <FaqTeaser />
    </>
  );
}
