import { Upload } from "#app/components/icons.ts";
import { useId, useState, type DragEvent } from "react";
import { cn } from "#app/lib/cn.ts";
import { formatFileSize } from "../media/media-format.ts";

/**
 * Pick a local file with the native file input (keyboard and screen readers work as usual) or
 * drop one on the zone. The file stays in the page: nothing here sends it anywhere.
 */
export function FilePicker({ label, accept, file, onFile, hint }: { label: string; accept: string; file: File | null; onFile: (f: File) => void; hint?: string }) {
  const id = useId();
  const [over, setOver] = useState(false);
  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setOver(false);
    const f = e.dataTransfer.files[0];
    if (f) onFile(f);
  };
  return (
    <div
      onDragOver={(e) => {
        e.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={onDrop}
      className={cn("rounded-xl border-2 border-dashed p-4 text-center transition-colors sm:p-6", over ? "border-brand-600 bg-brand-50" : "border-slate-300 bg-slate-50")}
    >
      <Upload aria-hidden className="mx-auto size-6 text-slate-500" />
      <label htmlFor={id} className="mt-2 block font-medium text-slate-900">
        {label}
      </label>
      <p className="text-sm text-slate-600">{hint ?? "Choose a file or drop it here."}</p>
      <input
        id={id}
        type="file"
        accept={accept}
        className="mx-auto mt-3 block w-full max-w-xs text-sm text-slate-700 file:mr-3 file:rounded-md file:border-0 file:bg-brand-600 file:px-3 file:py-2 file:text-white hover:file:bg-brand-700"
        onChange={(e) => {
          const f = e.currentTarget.files?.[0];
          if (f) onFile(f);
        }}
      />
      {file ? (
        <p className="mt-2 text-sm text-slate-700" aria-live="polite">
          Selected: <span className="font-medium">{file.name}</span> ({formatFileSize(file.size)})
        </p>
      ) : null}
    </div>
  );
}
