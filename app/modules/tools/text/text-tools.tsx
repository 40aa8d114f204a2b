import { useId, useMemo, useState } from "react";
import { Button } from "#app/components/ui/button.tsx";
import { Input, Textarea } from "#app/components/ui/input.tsx";
import { Label } from "#app/components/ui/label.tsx";
import { safeFileTitle } from "#common/file-names.ts";
import { CopyButton } from "../shared/copy-button.tsx";
import { ToolAlert, ToolCard } from "../shared/tool-page.tsx";
import {
  CASE_LABELS,
  LINE_OPERATION_LABELS,
  convertCase,
  countText,
  formatReadingTime,
  slugify,
  transformLines,
  type CaseStyle,
  type LineOperation,
} from "./text-transforms.ts";
import { runReplace } from "./run-replace.ts";

export function TextTools() {
  const [text, setText] = useState("");
  const [result, setResult] = useState<{ label: string; text: string } | null>(null);
  const counts = useMemo(() => countText(text), [text]);
  const textId = useId();
  const resultId = useId();

  const stats: [string, string | number][] = [
    ["Characters", counts.characters],
    ["Characters without spaces", counts.charactersNoSpaces],
    ["Words", counts.words],
    ["Lines", counts.lines],
    ["Sentences", counts.sentences],
    ["Reading time", formatReadingTime(counts.readingSeconds)],
  ];

  return (
    <div className="space-y-6">
      <ToolCard id="text-input" title="Your text" description="Paste or type. Counts update as you go; the tools below work on this text.">
        <Label htmlFor={textId}>Text</Label>
        <Textarea id={textId} value={text} onChange={(e) => setText(e.target.value)} rows={8} className="mt-1 font-mono" spellCheck={false} />
        <dl aria-label="Counts" className="mt-4 grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-6">
          {stats.map(([k, v]) => (
            <div key={k} className="rounded-lg bg-slate-50 px-3 py-2">
              <dt className="text-xs text-slate-600">{k}</dt>
              <dd className="text-lg font-semibold text-slate-900" data-testid={`count-${k}`}>
                {v}
              </dd>
            </div>
          ))}
        </dl>
      </ToolCard>

      <div className="grid gap-6 lg:grid-cols-2">
        <ToolCard id="text-case" title="Change case">
          <div className="flex flex-wrap gap-2">
            {(Object.keys(CASE_LABELS) as CaseStyle[]).map((style) => (
              <Button key={style} type="button" variant="outline" size="sm" onClick={() => setResult({ label: CASE_LABELS[style], text: convertCase(text, style) })}>
                {CASE_LABELS[style]}
              </Button>
            ))}
            <Button type="button" variant="outline" size="sm" onClick={() => setResult({ label: "Slug", text: slugify(text) })}>
              Slugify
            </Button>
          </div>
        </ToolCard>
        <ToolCard id="text-lines" title="Lines">
          <div className="flex flex-wrap gap-2">
            {(Object.keys(LINE_OPERATION_LABELS) as LineOperation[]).map((op) => (
              <Button key={op} type="button" variant="outline" size="sm" onClick={() => setResult({ label: LINE_OPERATION_LABELS[op], text: transformLines(text, op) })}>
                {LINE_OPERATION_LABELS[op]}
              </Button>
            ))}
          </div>
        </ToolCard>
      </div>

      <FindReplace text={text} onResult={setResult} />

      {result ? (
        <ToolCard id="text-result" title={`Result: ${result.label}`}>
          <Label htmlFor={resultId}>Result</Label>
          <Textarea id={resultId} readOnly value={result.text} rows={6} className="mt-1 font-mono" />
          <div className="mt-3 flex flex-wrap gap-2">
            <CopyButton value={result.text} label="Copy the result" />
            <Button type="button" variant="secondary" size="sm" onClick={() => setText(result.text)}>
              Use as my text
            </Button>
          </div>
        </ToolCard>
      ) : null}

      <SafeFileName />
    </div>
  );
}

function FindReplace({ text, onResult }: { text: string; onResult: (r: { label: string; text: string }) => void }) {
  const [find, setFind] = useState("");
  const [replace, setReplace] = useState("");
  const [regex, setRegex] = useState(false);
  const [caseSensitive, setCaseSensitive] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState("");
  const [busy, setBusy] = useState(false);
  const ids = { find: useId(), replace: useId(), regex: useId(), cs: useId() };
  return (
    <ToolCard id="text-find" title="Find and replace" description="Plain text, or a regular expression with $1, $2… in the replacement for captured groups.">
      <form
        className="grid gap-3 sm:grid-cols-2"
        onSubmit={async (e) => {
          e.preventDefault();
          setBusy(true);
          setStatus("Replacing…");
          const r = await runReplace(text, find, replace, { regex, caseSensitive });
          setBusy(false);
          if (!r.ok) {
            setError(r.message);
            setStatus("");
            return;
          }
          setError(null);
          setStatus(`${r.count} ${r.count === 1 ? "replacement" : "replacements"}`);
          onResult({ label: "Find and replace", text: r.text });
        }}
      >
        <div>
          <Label htmlFor={ids.find}>Find</Label>
          <Input id={ids.find} value={find} onChange={(e) => setFind(e.target.value)} aria-invalid={error ? true : undefined} className="mt-1 font-mono" />
        </div>
        <div>
          <Label htmlFor={ids.replace}>Replace with</Label>
          <Input id={ids.replace} value={replace} onChange={(e) => setReplace(e.target.value)} className="mt-1 font-mono" />
        </div>
        <div className="flex flex-wrap items-center gap-4 sm:col-span-2">
          <label htmlFor={ids.regex} className="inline-flex items-center gap-2 text-sm text-slate-800">
            <input id={ids.regex} type="checkbox" checked={regex} onChange={(e) => setRegex(e.target.checked)} className="size-4 accent-brand-600" />
            Regular expression
          </label>
          <label htmlFor={ids.cs} className="inline-flex items-center gap-2 text-sm text-slate-800">
            <input id={ids.cs} type="checkbox" checked={caseSensitive} onChange={(e) => setCaseSensitive(e.target.checked)} className="size-4 accent-brand-600" />
            Match case
          </label>
          <Button type="submit" size="sm" disabled={busy}>
            Replace all
          </Button>
          <span role="status" className="text-sm text-slate-700">
            {status}
          </span>
        </div>
      </form>
      <ToolAlert>{error}</ToolAlert>
    </ToolCard>
  );
}

function SafeFileName() {
  const [title, setTitle] = useState("");
  const id = useId();
  const safe = safeFileTitle(title);
  return (
    <ToolCard
      id="text-filename"
      title="Safe file name"
      description="Turns any title into a file name every system accepts, with exactly the rule our downloads use: characters like < > : &quot; / \ | ? * and control or invisible direction characters are removed, spaces are tidied, and the name is cut to 120 characters."
    >
      <Label htmlFor={id}>Title</Label>
      <Input id={id} value={title} onChange={(e) => setTitle(e.target.value)} className="mt-1" />
      <div className="mt-3 flex flex-wrap items-center gap-3">
        <output htmlFor={id} aria-label="Safe file name" className="min-h-10 flex-1 rounded-md bg-slate-50 px-3 py-2 font-mono text-sm break-all text-slate-900">
          {title ? safe || "(nothing usable is left: a download would use the video's id instead)" : ""}
        </output>
        <CopyButton value={safe} label="Copy the safe file name" />
      </div>
    </ToolCard>
  );
}
