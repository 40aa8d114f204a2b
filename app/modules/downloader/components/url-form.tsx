import { Download, LoaderCircle, X } from "#app/components/icons.ts";
import { useEffect, useId, useRef, useState, type FormEvent } from "react";
import { Button } from "#app/components/ui/button.tsx";
import { Input } from "#app/components/ui/input.tsx";
import { cn } from "#app/lib/cn.ts";
import { checkLinkOnSubmit, checkLinkWhileTyping } from "../link-validation.ts";

export interface UrlFormProps {
  value: string;
  onChange: (value: string) => void;
  /** called with the trimmed link once it passed validation */
  onSubmit: (url: string) => void;
  busy: boolean;
  label?: string;
  placeholder?: string;
  submitLabel?: string;
  className?: string;
}

/**
 * The link form (spec §4 "Home download", §5): live validation, an empty-submit message, a clear
 * button, and "Processing..." with the field disabled while the link is resolved.
 */
export function UrlForm({
  value,
  onChange,
  onSubmit,
  busy,
  label = "Video URL",
  placeholder = "Paste a YouTube link, e.g. https://www.youtube.com/watch?v=...",
  submitLabel = "Download",
  className,
}: UrlFormProps) {
  const inputId = useId();
  const messageId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const [submitMessage, setSubmitMessage] = useState<string | null>(null);
  // A link pasted before the page's script ran sits in the field but not in our state: take it
  // over once hydrated, or the first press of Download would say the field is empty.
  useEffect(() => {
    const typed = inputRef.current?.value ?? "";
    if (typed !== "" && typed !== value) onChange(typed);
    // once, at hydration: later changes come through onChange
  }, []);
  const live = checkLinkWhileTyping(value);
  const message = live.message ?? submitMessage;

  function handleSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (busy) return;
    const checked = checkLinkOnSubmit(value);
    if (!checked.ok) {
      setSubmitMessage(checked.message);
      inputRef.current?.focus();
      return;
    }
    setSubmitMessage(null);
    onSubmit(checked.url);
  }

  return (
    <form onSubmit={handleSubmit} noValidate className={cn("w-full", className)} aria-busy={busy}>
      <label htmlFor={inputId} className="sr-only">
        {label}
      </label>
      <div className="flex flex-col gap-2 sm:flex-row">
        <div className="relative flex-1">
          <Input
            ref={inputRef}
            id={inputId}
            name="url"
            type="url"
            inputMode="url"
            autoComplete="off"
            autoCapitalize="off"
            spellCheck={false}
            value={value}
            disabled={busy}
            placeholder={placeholder}
            aria-invalid={message ? true : undefined}
            aria-describedby={messageId}
            onChange={(e) => {
              setSubmitMessage(null);
              onChange(e.target.value);
            }}
            className="h-12 pr-11 text-base md:text-base"
          />
          {value && !busy ? (
            <button
              type="button"
              aria-label="Clear URL"
              onClick={() => {
                onChange("");
                setSubmitMessage(null);
                inputRef.current?.focus();
              }}
              className="absolute top-1/2 right-2 flex size-8 -translate-y-1/2 items-center justify-center rounded-md text-slate-500 hover:bg-slate-100 hover:text-slate-900"
            >
              <X aria-hidden className="size-4" />
            </button>
          ) : null}
        </div>
        <Button type="submit" size="lg" disabled={busy || !live.canSubmit} className="h-12 sm:min-w-40">
          {busy ? (
            <>
              <LoaderCircle aria-hidden className="animate-spin" /> Processing...
            </>
          ) : (
            <>
              <Download aria-hidden /> {submitLabel}
            </>
          )}
        </Button>
      </div>
      {/* Always rendered so the message is announced and nothing below jumps when it appears. */}
      <p id={messageId} role="alert" className="mt-2 min-h-5 text-sm font-medium text-destructive">
        {message ?? (live.platform ? <span className="font-normal text-slate-600">{live.platform} link</span> : null)}
      </p>
    </form>
  );
}
