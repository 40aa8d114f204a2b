import { Ban, Eye, Gauge, HardDriveDownload, Heart, Lock, Server, Scale, ShieldCheck, Users } from "#app/components/icons.ts";
import { Link } from "react-router";
import type { Route } from "./+types/about-us";
import { Button } from "#app/components/ui/button.tsx";
import { HISTORY_RETENTION_DAYS } from "#app/modules/history/retention.ts";
import { JOB_FILE_TTL_HOURS } from "#app/modules/jobs/job-retention.ts";
import { PageHero } from "#app/modules/pages/page-hero.tsx";
import { pageMeta } from "#app/modules/site/page-meta.ts";
import { usePublicConfig } from "#app/lib/hooks/use-public-config.ts";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "/about-us");

const DIFFERENTIATORS = [
  {
    icon: Ban,
    title: "No fake buttons, no malware",
    text: "There is exactly one way to download: the format you pick. Ads are labelled, never dressed up as download buttons, and nothing ever asks you to install software.",
  },
  {
    icon: HardDriveDownload,
    title: "Nothing stored",
    text: `Our server fetches the video and streams it to you as it converts. The file is never written to our disks, except a scheduled download's or a ZIP you ask our server to prepare, kept ${JOB_FILE_TTL_HOURS} hours for you to fetch. Without an account we keep no record of what you downloaded; signed in, your dashboard lists your last ${HISTORY_RETENTION_DAYS} days of downloads.`,
  },
  {
    icon: Gauge,
    title: "Real formats, real sizes",
    text: "MP4 up to 1080p, WEBM, MP3 up to 320 kbps, AAC, M4A, the HD thumbnail and the transcript. We only offer qualities the video really has, with sizes from the actual streams.",
  },
  {
    icon: Server,
    title: "Open to self-hosting",
    text: "The whole service runs from one package on a single server with an embedded database, so anyone who prefers can run their own copy.",
  },
] as const;

const VALUES = [
  { icon: Eye, title: "Honesty", text: "We say what the tool can and cannot do, including limits and the platforms that are not supported yet." },
  { icon: Lock, title: "Privacy", text: "We collect as little as possible and explain the rest in plain language in our privacy policy." },
  { icon: Scale, title: "Respect for creators", text: "We encourage personal use, act on copyright notices quickly and never help get around paywalls." },
  { icon: Users, title: "Free for everyone", text: "Downloading stays free. Premium plans add extras for people who want more, never take away the basics." },
] as const;

const COMMITMENTS = [
  "Downloads stay free, with no sign-up, no installation and no daily quota.",
  "Ads stay light, clearly labelled, and gone entirely for premium members.",
  "We never sell personal data.",
  "Every message gets a reply from a person within 24-48 hours.",
  "Valid copyright notices are handled within two business days.",
  "When a platform changes and downloads break, fixing it comes before any new feature.",
];

export default function AboutUs() {
  const { siteName } = usePublicConfig();
  return (
    <>
      <PageHero eyebrow="About" title={`About ${siteName}`} intro="A video downloader that does one job well, without tricks." />
      <div className="mx-auto max-w-5xl space-y-16 px-4 py-12 sm:px-6">
        <section aria-labelledby="mission-heading" className="prose-page">
          <h2 id="mission-heading">Our mission</h2>
          <p>
            Saving a video for offline viewing should be simple: paste a link, pick a format, get the file. Too many download sites turn that into
            a maze of pop-ups, fake buttons and &quot;installers&quot;. {siteName} exists to make it honest again: a clean page, real formats, and a
            file that comes straight from the platform through our server to your device.
          </p>
        </section>

        <section aria-labelledby="who-heading" className="prose-page">
          <h2 id="who-heading">Who we are</h2>
          <p>
            We are a small team of web and media engineers who got tired of recommending download sites with an apology. We build and run{" "}
            {siteName} ourselves: the download engine that reads the platforms&apos; streams, the converter that turns them into MP4 or MP3 on the
            fly, and the pages you are reading now. The free service is paid for by light advertising and by the people who choose a premium plan.
          </p>
        </section>

        <section aria-labelledby="different-heading">
          <h2 id="different-heading" className="text-2xl font-semibold text-slate-900">
            What makes us different
          </h2>
          <ul className="mt-6 grid gap-5 sm:grid-cols-2">
            {DIFFERENTIATORS.map(({ icon: Icon, title, text }) => (
              <li key={title} className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm" data-testid="differentiator">
                <Icon aria-hidden className="size-7 text-brand-600" />
                <h3 className="mt-3 text-lg font-semibold text-slate-900">{title}</h3>
                <p className="mt-2 leading-7 text-slate-700">{text}</p>
              </li>
            ))}
          </ul>
        </section>

        <section aria-labelledby="values-heading">
          <h2 id="values-heading" className="text-2xl font-semibold text-slate-900">
            Our values
          </h2>
          <ul className="mt-6 grid gap-5 sm:grid-cols-2 lg:grid-cols-4">
            {VALUES.map(({ icon: Icon, title, text }) => (
              <li key={title} className="rounded-2xl bg-slate-50 p-5">
                <Icon aria-hidden className="size-6 text-brand-600" />
                <h3 className="mt-2 font-semibold text-slate-900">{title}</h3>
                <p className="mt-1 text-sm leading-6 text-slate-700">{text}</p>
              </li>
            ))}
          </ul>
        </section>

        <section aria-labelledby="commitments-heading">
          <h2 id="commitments-heading" className="flex items-center gap-2 text-2xl font-semibold text-slate-900">
            <ShieldCheck aria-hidden className="size-6 text-green-700" /> Our commitments to you
          </h2>
          <ul className="mt-6 space-y-3">
            {COMMITMENTS.map((c) => (
              <li key={c} className="flex gap-3 text-slate-700">
                <Heart aria-hidden className="mt-1 size-4 shrink-0 text-brand-600" />
                {c}
              </li>
            ))}
          </ul>
        </section>

        <section aria-labelledby="talk-heading" className="rounded-2xl border border-brand-100 bg-brand-50 p-8 text-center">
          <h2 id="talk-heading" className="text-2xl font-semibold text-slate-900">
            Talk to us
          </h2>
          <p className="mx-auto mt-2 max-w-xl text-slate-700">Ideas, problems, partnership requests or just feedback: we read everything.</p>
          <Button asChild size="lg" className="mt-5">
            <Link to="/contact-us">Contact us</Link>
          </Button>
        </section>
      </div>
    </>
  );
}
