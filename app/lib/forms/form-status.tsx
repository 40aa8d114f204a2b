import { CheckCircle2, CircleAlert } from "#app/components/icons.ts";
import type { FormResult } from "./form-problem.ts";

/**
 * The result of a form post shown inside the page: what a visitor without JavaScript sees
 * (with JavaScript the same result arrives as a toast).
 */
export function FormStatus({ result }: { result: FormResult | undefined }) {
  if (!result) return null;
  return result.ok ? (
    <div role="status" className="flex gap-3 rounded-lg border border-green-200 bg-green-50 p-4 text-sm text-green-900">
      <CheckCircle2 aria-hidden className="mt-0.5 size-5 shrink-0 text-green-700" />
      <p>
        <strong className="block font-semibold">{result.title}</strong>
        {result.message}
      </p>
    </div>
  ) : (
    <div role="alert" className="flex gap-3 rounded-lg border border-red-200 bg-red-50 p-4 text-sm text-red-900">
      <CircleAlert aria-hidden className="mt-0.5 size-5 shrink-0 text-destructive" />
      <p>
        <strong className="block font-semibold">{result.title}</strong>
        {result.message}
      </p>
    </div>
  );
}
