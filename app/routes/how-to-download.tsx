import { ArrowRight, CheckCircle2, HelpCircle, Lightbulb, Wrench } from "#app/components/icons.ts";
import { Link } from "react-router";
import type { Route } from "./+types/how-to-download";
import { AdSlot } from "#app/components/layout/ad-slot.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { GUIDE_STEPS, GUIDE_TIPS, GUIDE_TROUBLESHOOTING } from "#app/modules/pages/how-to-content.ts";
import { PageHero } from "#app/modules/pages/page-hero.tsx";
import { pageMeta } from "#app/modules/site/page-meta.ts";
import { usePublicConfig } from "#app/lib/hooks/use-public-config.ts";

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, "/how-to-download", {
    jsonLd: [
      {
        "@context": "https://schema.org",
        "@type": "HowTo",
        name: "How to download a video",
        step: GUIDE_STEPS.map((s, i) => ({ "@type": "HowToStep", position: i + 1, name: s.title, text: s.body.join(" "), image: s.image })),
      },
    ],
  });

export default function HowToDownload() {
  const { siteName } = usePublicConfig();
  return (
    <>
      <PageHero
        eyebrow="Guide"
        title="How to Download Videos"
        intro={`From a video link to a file on your device in five steps. ${siteName} works from your browser with nothing to install and no account needed: our server fetches the video and sends you the file.`}
      >
        <div className="mt-6 flex flex-wrap gap-3">
          <Button asChild size="lg">
            <Link to="/">
              Start downloading <ArrowRight aria-hidden />
            </Link>
          </Button>
          <Button asChild size="lg" variant="outline">
            <Link to="/faq">Read the FAQ</Link>
          </Button>
        </div>
      </PageHero>

      <div className="mx-auto max-w-5xl space-y-16 px-4 py-12 sm:px-6">
        <section aria-labelledby="steps-heading">
          <h2 id="steps-heading" className="text-2xl font-semibold text-slate-900">
            Five steps to your download
          </h2>
          <ol className="mt-8 space-y-12">
            {GUIDE_STEPS.map((step, i) => (
              <li key={step.title} className="grid items-center gap-6 md:grid-cols-2 md:gap-10" data-testid="guide-step">
                <img
                  src={step.image}
                  alt={step.alt}
                  width={480}
                  height={300}
                  loading={i < 2 ? "eager" : "lazy"}
                  className={`w-full rounded-2xl shadow-sm ${i % 2 === 1 ? "md:order-2" : ""}`}
                />
                <div>
                  <p className="text-sm font-semibold tracking-wide text-brand-700 uppercase">Step {i + 1}</p>
                  <h3 className="mt-1 text-xl font-semibold text-slate-900">{step.title}</h3>
                  {step.body.map((p) => (
                    <p key={p} className="mt-3 leading-7 text-slate-700">
                      {p}
                    </p>
                  ))}
                </div>
              </li>
            ))}
          </ol>
        </section>

        <AdSlot placement="in-content" />

        <section aria-labelledby="tips-heading">
          <h2 id="tips-heading" className="flex items-center gap-2 text-2xl font-semibold text-slate-900">
            <Lightbulb aria-hidden className="size-6 text-amber-500" /> Seven tips for better downloads
          </h2>
          <ul className="mt-6 grid gap-4 sm:grid-cols-2">
            {GUIDE_TIPS.map((tip) => (
              <li key={tip.title} className="flex gap-3 rounded-xl border border-slate-200 bg-white p-5" data-testid="guide-tip">
                <CheckCircle2 aria-hidden className="mt-0.5 size-5 shrink-0 text-green-700" />
                <div>
                  <h3 className="font-semibold text-slate-900">{tip.title}</h3>
                  <p className="mt-1 text-sm leading-6 text-slate-700">{tip.text}</p>
                </div>
              </li>
            ))}
          </ul>
        </section>

        <AdSlot placement="in-content" />

        <section aria-labelledby="trouble-heading">
          <h2 id="trouble-heading" className="flex items-center gap-2 text-2xl font-semibold text-slate-900">
            <Wrench aria-hidden className="size-6 text-brand-600" /> Troubleshooting
          </h2>
          <div className="mt-6 grid gap-5 md:grid-cols-3">
            {GUIDE_TROUBLESHOOTING.map((t) => (
              <div key={t.title} className="rounded-xl border border-slate-200 bg-slate-50 p-5">
                <h3 className="font-semibold text-slate-900">{t.title}</h3>
                <ul className="mt-3 list-disc space-y-2 pl-5 text-sm leading-6 text-slate-700">
                  {t.causes.map((c) => (
                    <li key={c}>{c}</li>
                  ))}
                </ul>
              </div>
            ))}
          </div>
          <div className="mt-8 flex flex-wrap items-center gap-3 rounded-xl border border-brand-100 bg-brand-50 p-5">
            <HelpCircle aria-hidden className="size-6 text-brand-700" />
            <p className="flex-1 text-slate-800">
              Still stuck? The <Link to="/faq" className="font-medium text-brand-700 underline underline-offset-2">FAQ</Link> answers the
              common questions, or{" "}
              <Link to="/contact-us" className="font-medium text-brand-700 underline underline-offset-2">
                send us the link
              </Link>{" "}
              and we will take a look.
            </p>
            <Button asChild>
              <Link to="/">Go to the downloader</Link>
            </Button>
          </div>
        </section>
      </div>
    </>
  );
}
