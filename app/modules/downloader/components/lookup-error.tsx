import { CircleAlert } from "#app/components/icons.ts";

/**
 * Why a link gave no video (private, age-restricted, not found, unsupported…), kept on the page
 * until the next link: the toast that also says it is gone after a few seconds.
 */
export function LookupError({ url, message }: { url: string; message: string }) {
  return (
    <section aria-label="Video preview" className="mt-8 rounded-xl border border-red-200 bg-red-50 p-4 sm:p-6" data-testid="lookup-error">
      <div role="alert" className="flex items-start gap-3">
        <CircleAlert aria-hidden className="mt-0.5 size-5 shrink-0 text-red-700" />
        <div className="min-w-0">
          <h2 className="font-semibold text-red-900">Error</h2>
          <p className="mt-1 text-red-900">{message}</p>
          <p className="mt-2 truncate text-sm text-red-800" title={url}>
            {url}
          </p>
        </div>
      </div>
    </section>
  );
}
