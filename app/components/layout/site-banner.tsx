import { Info } from "#app/components/icons.ts";

/** The banner area at the very top (message from BANNER_MESSAGE). */
export function SiteBanner({ message }: { message: string }) {
  if (!message) return null;
  return (
    <div className="bg-brand-900 px-4 py-2 text-center text-sm text-white" role="region" aria-label="Announcement">
      <Info aria-hidden className="mr-1.5 inline size-4 align-[-3px]" />
      {message}
    </div>
  );
}
