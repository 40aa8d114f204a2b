import { useId } from "react";

/**
 * The format picker's switch for tags (issue 33 §3): off by default, so MP3, M4A and AAC files get
 * their title, channel, date, link and cover art, and MP4 files their title, channel, date and
 * description; on, the files are left bare.
 */
export function TagsSwitch({ bare, onChange }: { bare: boolean; onChange: (bare: boolean) => void }) {
  const id = useId();
  return (
    <div className="mb-3 flex items-start gap-3" data-testid="tags-switch">
      <input id={id} type="checkbox" role="switch" checked={bare} onChange={(e) => onChange(e.target.checked)} className="mt-1 size-4 accent-brand-600" aria-describedby={`${id}-hint`} />
      <div>
        <label htmlFor={id} className="text-sm font-medium text-slate-900">
          Leave files bare
        </label>
        <p id={`${id}-hint`} className="text-xs text-slate-600">
          {bare
            ? "No title, channel, date or cover art is written into the file."
            : "MP3, M4A and AAC files get the title, channel, date, link and cover art; MP4 files the title, channel, date and description."}
        </p>
      </div>
    </div>
  );
}
