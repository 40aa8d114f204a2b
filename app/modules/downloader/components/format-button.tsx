import { Check, CircleX, Download, LoaderCircle } from "#app/components/icons.ts";
import { Button } from "#app/components/ui/button.tsx";
import { cn } from "#app/lib/cn.ts";
import { MAX_ATTEMPTS } from "../retry.ts";

export type FormatButtonState = "idle" | "downloading" | "success" | "error";

/** Spec §4 "Format button": spinner while downloading with "(n/3)" on retries, green check, red icon. */
export function FormatButton({
  label,
  state,
  attempt,
  disabled,
  onClick,
}: {
  label: string;
  state: FormatButtonState;
  attempt: number;
  disabled: boolean;
  onClick: () => void;
}) {
  return (
    <Button
      type="button"
      size="sm"
      variant={state === "error" ? "destructive" : state === "success" ? "success" : "default"}
      onClick={onClick}
      disabled={disabled && state !== "downloading"}
      aria-disabled={state === "downloading" ? true : undefined}
      data-state={state}
      className={cn("min-w-32", state === "downloading" && "pointer-events-none")}
    >
      {state === "downloading" ? (
        <>
          <LoaderCircle aria-hidden className="animate-spin" />
          {attempt > 1 ? `Retrying (${attempt}/${MAX_ATTEMPTS})` : "Downloading..."}
        </>
      ) : state === "success" ? (
        <>
          <Check aria-hidden className="text-emerald-600" /> Done
        </>
      ) : state === "error" ? (
        <>
          <CircleX aria-hidden /> Failed
        </>
      ) : (
        <>
          <Download aria-hidden /> Download
        </>
      )}
      <span className="sr-only"> {label}</span>
    </Button>
  );
}
