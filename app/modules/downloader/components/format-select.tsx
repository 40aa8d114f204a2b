import { Label } from "#app/components/ui/label.tsx";

export type FormatChoice = { id: string; label: string };

/** The format a ZIP starts with: 720p MP4 when the plan has it, else its first format. */
export function defaultFormatOf(formats: FormatChoice[]): string {
  return formats.find((f) => f.id === "mp4-720")?.id ?? formats[0]?.id ?? "";
}

/** One format for every file of a ZIP (the dashboard's Bulk tab, the playlist card); `disabled` while a download profile gives it. */
export function FormatSelect({ id, value, onChange, formats, disabled }: { id: string; value: string; onChange: (id: string) => void; formats: FormatChoice[]; disabled?: boolean }) {
  return (
    <div className="grid gap-2 sm:max-w-xs">
      <Label htmlFor={id}>Format</Label>
      <select id={id} name="format" value={value} disabled={disabled} onChange={(e) => onChange(e.target.value)} className="h-10 rounded-md border border-slate-300 bg-white px-3 text-sm disabled:bg-slate-100 disabled:text-slate-600">
        {formats.map((f) => (
          <option key={f.id} value={f.id}>
            {f.label}
          </option>
        ))}
      </select>
    </div>
  );
}
