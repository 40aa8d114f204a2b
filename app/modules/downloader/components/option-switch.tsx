import { useId, type ReactNode } from "react";

/** One labelled switch (a checkbox with role="switch") and its hint below the label: the format picker's options, the offline queue's settings. */
export function OptionSwitch({
  checked,
  onChange,
  label,
  hint,
  testId,
  disabled,
  className = "mb-3",
}: {
  checked: boolean;
  onChange: (on: boolean) => void;
  label: string;
  hint: ReactNode;
  testId?: string;
  disabled?: boolean;
  className?: string;
}) {
  const id = useId();
  return (
    <div className={`${className} flex items-start gap-3`} data-testid={testId}>
      <input id={id} type="checkbox" role="switch" disabled={disabled} checked={checked} onChange={(e) => onChange(e.target.checked)} className="mt-1 size-4 shrink-0 accent-brand-600" aria-describedby={`${id}-hint`} />
      <div className="min-w-0">
        <label htmlFor={id} className="text-sm font-medium text-slate-900">
          {label}
        </label>
        <p id={`${id}-hint`} className="text-xs text-slate-600">
          {hint}
        </p>
      </div>
    </div>
  );
}
