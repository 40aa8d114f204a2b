import { Info } from "#app/components/icons.ts";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "#app/components/ui/tabs.tsx";
import { seo } from "#app/lib/seo.ts";
import { Downloader } from "#app/modules/downloader/components/downloader.tsx";
import { exampleLinks } from "#app/modules/downloader/example-links.ts";
import { readSharedUrl } from "#app/modules/downloader/shared-url.ts";
import { SHORTS_BENEFITS, SHORTS_FAQ, SHORTS_FORMATS, SHORTS_PAGE, SHORTS_STEPS, SHORTS_TIPS } from "#app/modules/downloader/shorts-content.ts";
import type { Route } from "./+types/shorts-downloader";

export async function loader({ request, context }: Route.LoaderArgs) {
  return { initialUrl: readSharedUrl(new URL(request.url).searchParams), examples: exampleLinks("shorts", context.config.MOCKS) };
}

export const meta: Route.MetaFunction = ({ matches }) =>
  seo(matches, { title: SHORTS_PAGE.title, description: SHORTS_PAGE.description, path: SHORTS_PAGE.path, keywords: ["shorts", "download", "mp4", "mp3", "vertical video"] });

export default function ShortsDownloader({ loaderData }: Route.ComponentProps) {
  return (
    <>
      <Downloader
        key={loaderData.initialUrl ?? ""}
        initialUrl={loaderData.initialUrl}
        tabs={["video", "audio"]}
        examples={loaderData.examples}
        formLabel="Shorts URL"
        placeholder="Paste a Shorts link, e.g. https://www.youtube.com/shorts/..."
        heroSlot={(form) => (
          <section aria-labelledby="shorts-heading" className="bg-gradient-to-b from-brand-50 to-white">
            <div className="mx-auto max-w-3xl px-4 pt-10 pb-6 text-center sm:px-6 sm:pt-16">
              <h1 id="shorts-heading" className="text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">
                YouTube Shorts Downloader
              </h1>
              <p className="mt-4 text-lg text-slate-700">Save Shorts as MP4 or their audio as MP3, in seconds.</p>
              <div className="mt-8 text-left">{form}</div>
            </div>
          </section>
        )}
      />
      <div className="mx-auto max-w-5xl px-4 py-10 sm:px-6">
        <section aria-labelledby="shorts-steps-heading">
          <h2 id="shorts-steps-heading" className="text-2xl font-bold text-slate-900">
            How to download a Short
          </h2>
          <ol className="mt-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
            {SHORTS_STEPS.map((s, i) => (
              <li key={s.title} className="rounded-xl border border-slate-200 p-5">
                <span aria-hidden className="flex size-7 items-center justify-center rounded-full bg-brand-600 text-sm font-semibold text-white">
                  {i + 1}
                </span>
                <h3 className="mt-3 font-semibold text-slate-900">
                  <span className="sr-only">Step {i + 1}: </span>
                  {s.title}
                </h3>
                <p className="mt-1 text-sm leading-6 text-slate-600">{s.text}</p>
              </li>
            ))}
          </ol>
        </section>

        <section aria-labelledby="shorts-benefits-heading" className="mt-12">
          <h2 id="shorts-benefits-heading" className="text-2xl font-bold text-slate-900">
            Why use this Shorts downloader
          </h2>
          <ul className="mt-4 list-disc space-y-1 pl-6 text-slate-700">
            {SHORTS_BENEFITS.map((b) => (
              <li key={b}>{b}</li>
            ))}
          </ul>
        </section>

        <aside aria-label="Copyright notice" className="mt-10 flex gap-3 rounded-xl border border-amber-300 bg-amber-50 p-4 text-sm text-amber-950">
          <Info aria-hidden className="mt-0.5 size-5 shrink-0" />
          <p>
            <strong>For personal use only.</strong> Download only Shorts you own or have permission to save, and respect the creator&apos;s copyright.
            Re-uploading or using downloaded content commercially may infringe the creator&apos;s rights.
          </p>
        </aside>

        <Tabs defaultValue="formats" className="mt-12">
          <TabsList aria-label="More about Shorts downloads">
            <TabsTrigger value="formats">Available Formats</TabsTrigger>
            <TabsTrigger value="faq">FAQ</TabsTrigger>
            <TabsTrigger value="tips">Tips</TabsTrigger>
          </TabsList>
          <TabsContent value="formats">
            <div className="grid gap-4 sm:grid-cols-2">
              <div className="rounded-xl border border-slate-200 p-5">
                <h3 className="font-semibold text-slate-900">Video</h3>
                <ul className="mt-2 list-disc pl-6 text-slate-700">
                  {SHORTS_FORMATS.video.map((f) => (
                    <li key={f}>{f}</li>
                  ))}
                </ul>
              </div>
              <div className="rounded-xl border border-slate-200 p-5">
                <h3 className="font-semibold text-slate-900">Audio</h3>
                <ul className="mt-2 list-disc pl-6 text-slate-700">
                  {SHORTS_FORMATS.audio.map((f) => (
                    <li key={f}>{f}</li>
                  ))}
                </ul>
              </div>
            </div>
          </TabsContent>
          <TabsContent value="faq">
            <dl className="space-y-4">
              {SHORTS_FAQ.map(({ q, a }) => (
                <div key={q} className="rounded-xl border border-slate-200 p-5">
                  <dt className="font-semibold text-slate-900">{q}</dt>
                  <dd className="mt-1 text-slate-700">{a}</dd>
                </div>
              ))}
            </dl>
          </TabsContent>
          <TabsContent value="tips">
            <ul className="space-y-4">
              {SHORTS_TIPS.map((t) => (
                <li key={t.title} className="rounded-xl border border-slate-200 p-5">
                  <h3 className="font-semibold text-slate-900">{t.title}</h3>
                  <p className="mt-1 text-slate-700">{t.text}</p>
                </li>
              ))}
            </ul>
          </TabsContent>
        </Tabs>
      </div>
    </>
  );
}
