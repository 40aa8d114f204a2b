/** What the page gets about this server's yt-dlp: absent, still being listed, unlistable, or its sites. */
export type YtdlpSitesView =
  | { state: "absent" }
  | { state: "reading"; version: string }
  | { state: "failed"; version: string }
  | {
      state: "ready";
      version: string;
      extractorCount: number;
      /** every site, sorted by name; `broken` when yt-dlp marks all of its extractors currently broken */
      sites: Array<{ name: string; broken: boolean }>;
      /** a `?site=` search: up to a hundred matching extractors, and how many matched in all */
      search: {
        query: string;
        matches: Array<{ name: string; broken: boolean }>;
        total: number;
      } | null;
    };

const SECTION_ID = "ytdlp-sites";

function Broken({ broken }: { broken: boolean }) {
  return broken ? <span className="text-amber-800"> (currently broken)</span> : null;
}

/**
 * The supported-sites section listing what this server's yt-dlp reads (issue 32 §6): a count, a
 * search form (a plain GET form, so it works without JavaScript) and the whole list folded in a
 * `<details>`, so a phone gets a short page unless the visitor opens it.
 */
export function YtdlpSitesSection({ view }: { view: YtdlpSitesView }) {
  return (
    <section id={SECTION_ID} aria-labelledby="ytdlp-sites-heading" className="scroll-mt-24">
      <h2 id="ytdlp-sites-heading" className="text-2xl font-semibold text-slate-900">
        Every site this server can read with yt-dlp
      </h2>
      <YtdlpSitesBody view={view} />
    </section>
  );
}

function YtdlpSitesBody({ view }: { view: YtdlpSitesView }) {
  const text = "mt-2 max-w-3xl text-slate-700";
  if (view.state === "absent") {
    return (
      <p className={text}>
        yt-dlp is not installed on this server: it reads YouTube links and links straight to a video file, and the platforms above that need yt-dlp wait for it.
      </p>
    );
  }
  if (view.state === "reading") {
    return <p className={text}>This server runs yt-dlp {view.version}. Its list of sites is still being read: reload this page in a moment.</p>;
  }
  if (view.state === "failed") {
    return <p className={text}>This server runs yt-dlp {view.version}, but its list of sites could not be read.</p>;
  }
  const { search } = view;
  return (
    <>
      <p className={text}>
        This server runs yt-dlp {view.version}, which knows {view.sites.length} sites ({view.extractorCount} extractors). A link to a public video on one of them is read through
        yt-dlp; private, login-only and DRM-protected videos are not downloaded.
      </p>
      <form method="get" action={`#${SECTION_ID}`} role="search" className="mt-4 flex max-w-md gap-2">
        <label htmlFor="ytdlp-site-search" className="sr-only">
          Find a site
        </label>
        <input
          id="ytdlp-site-search"
          name="site"
          type="search"
          defaultValue={search?.query ?? ""}
          placeholder="Find a site, e.g. vimeo"
          maxLength={60}
          className="min-w-0 flex-1 rounded-lg border border-slate-300 px-3 py-2 text-slate-900"
        />
        <button type="submit" className="rounded-lg bg-brand-700 px-4 py-2 font-medium text-white">
          Find
        </button>
      </form>
      {search ? (
        <div className="mt-4" data-testid="ytdlp-search-results">
          <p className="text-slate-700">
            {search.total === 0
              ? `No extractor of yt-dlp ${view.version} has “${search.query}” in its name.`
              : search.total > search.matches.length
                ? `${search.total} extractors have “${search.query}” in their names; the first ${search.matches.length}:`
                : `${search.total} ${search.total === 1 ? "extractor has" : "extractors have"} “${search.query}” in ${search.total === 1 ? "its name" : "their names"}:`}
          </p>
          {search.matches.length > 0 ? (
            <ul className="mt-2 columns-1 gap-6 text-sm text-slate-800 sm:columns-2 lg:columns-3">
              {search.matches.map((e) => (
                <li key={e.name} className="break-words">
                  {e.name}
                  <Broken broken={e.broken} />
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : null}
      <details className="mt-4 rounded-xl border border-slate-200 bg-white p-4">
        <summary className="cursor-pointer font-medium text-slate-900">All {view.sites.length} sites</summary>
        <ul className="mt-3 columns-2 gap-6 text-sm text-slate-800 sm:columns-3 lg:columns-4" data-testid="ytdlp-site-list">
          {view.sites.map((s) => (
            <li key={s.name} className="break-words">
              {s.name}
              <Broken broken={s.broken} />
            </li>
          ))}
        </ul>
      </details>
    </>
  );
}
