import { useId } from "react";
import { Input } from "#app/components/ui/input.tsx";
import { Label } from "#app/components/ui/label.tsx";

/** A labelled time input: seconds, m:ss.sss or h:mm:ss.sss (read with parseTime). */
export function TimeField({ label, value, onChange }: { label: string; value: string; onChange: (v: string) => void }) {
  const id = useId();
  return (
    <div>
      <Label htmlFor={id}>{label}</Label>
      <Input id={id} value={value} onChange={(e) => onChange(e.target.value)} inputMode="decimal" placeholder="m:ss.sss" className="mt-1 font-mono" />
    </div>
  );
}
