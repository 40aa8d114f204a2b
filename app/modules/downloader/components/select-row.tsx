import { useId, type ReactNode } from "react";
import { Link } from "react-router";
import { Label } from "#app/components/ui/label.tsx";

/** "… come with the Pro and Ultimate plans. See the plans": why a choice is locked, and where to get it. */
export function PlanNote({ children }: { children: ReactNode }) {
  return (
    <>
      {children}{" "}
      <Link to="/premium" className="font-medium text-brand-700 underline underline-offset-2 hover:text-brand-800">
        See the plans
      </Link>
    </>
  );
}

/**
 * One labelled select in a bordered row of the format picker (the audio track, the subtitles'
 * language, subtitles in the video): the label beside the select from 640 px, above it on a
 * phone, and a line under both that the select is described by. `locked`: the viewer's plan lacks
 * the right, so the select is disabled on its first option and the note says which plans have it
 * (no choice leads to a refused download); else `hint`, when there is one.
 */
export function SelectRow({
  label,
  name,
  value,
  onChange,
  testId,
  hint,
  locked,
  extra,
  children,
}: {
  label: string;
  name: string;
  value: string;
  onChange: (value: string) => void;
  testId: string;
  hint?: ReactNode;
  locked?: ReactNode;
  /** more controls under the select (they span the row) */
  extra?: ReactNode;
  /** the options */
  children: ReactNode;
}) {
  const id = useId();
  const noteId = `${id}-note`;
  const note = locked ?? hint;
  return (
    <div className="mb-3 grid gap-2 rounded-lg border border-slate-200 p-3 sm:grid-cols-[auto_minmax(0,20rem)] sm:items-center sm:gap-x-4" data-testid={testId}>
      <Label htmlFor={id}>{label}</Label>
      <select
        id={id}
        name={name}
        value={locked ? "" : value}
        disabled={Boolean(locked)}
        aria-describedby={note ? noteId : undefined}
        onChange={(e) => onChange(e.target.value)}
        className="h-10 w-full min-w-0 rounded-md border border-slate-300 bg-white px-3 text-sm focus-visible:border-brand-600 focus-visible:outline-2 focus-visible:outline-brand-600 disabled:cursor-not-allowed disabled:bg-slate-100 disabled:text-slate-600"
      >
        {children}
      </select>
      {note ? (
        <p id={noteId} className={`${locked ? "text-sm" : "text-xs"} text-slate-600 sm:col-span-2`}>
          {note}
        </p>
      ) : null}
      {extra ? <div className="min-w-0 sm:col-span-2">{extra}</div> : null}
    </div>
  );
}
