import type { ExampleLink } from "../example-links.ts";

/** The example-link row: one click fills the form with a link that works. */
export function ExampleLinks({ onPick, disabled, links }: { onPick: (url: string) => void; disabled?: boolean; links: ExampleLink[] }) {
  return (
    <div className="mt-1 flex flex-wrap items-center gap-2 text-sm text-slate-600">
      <span id="example-links-label">Try an example:</span>
      <ul aria-labelledby="example-links-label" className="flex flex-wrap gap-2">
        {links.map((ex) => (
          <li key={ex.url}>
            <button
              type="button"
              disabled={disabled}
              onClick={() => onPick(ex.url)}
              title={ex.url}
              className="rounded-full border border-slate-300 bg-white px-3 py-1 text-slate-700 hover:border-brand-500 hover:text-brand-700 disabled:opacity-60"
            >
              {ex.label}
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}
