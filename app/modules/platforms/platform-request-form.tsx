import { Send } from "#app/components/icons.ts";
import { Button } from "#app/components/ui/button.tsx";
import { Input, Textarea } from "#app/components/ui/input.tsx";
import { Label } from "#app/components/ui/label.tsx";
import type { FormResult } from "#app/lib/forms/form-problem.ts";
import { FormStatus } from "#app/lib/forms/form-status.tsx";
import { HoneypotField } from "#app/lib/forms/honeypot-field.tsx";
import { useFormSubmission } from "#app/lib/forms/use-form-submission.ts";
import { useHydrated } from "#app/lib/forms/use-hydrated.ts";
import { PLATFORM_REQUEST_LIMITS, parsePlatformRequestForm, type PlatformRequestField } from "./platform-request-schema.ts";

/** "Request Platform Support" on /supported-sites. `actionResult` is the plain-POST result. */
export function PlatformRequestForm({ actionResult }: { actionResult?: FormResult<PlatformRequestField> }) {
  const hydrated = useHydrated();
  const { formRef, onSubmit, submitting, isInvalid } = useFormSubmission<PlatformRequestField>({
    validate: parsePlatformRequestForm,
    initial: actionResult,
  });
  const values = actionResult && !actionResult.ok ? (actionResult.values ?? {}) : {};

  return (
    <form
      ref={formRef}
      method="post"
      action="/supported-sites#request-platform"
      onSubmit={hydrated ? onSubmit : undefined}
      noValidate={hydrated}
      className="relative space-y-5"
    >
      {hydrated ? null : <FormStatus result={actionResult} />}
      <div className="space-y-2">
        <Label htmlFor="platform-name">
          Platform name <span aria-hidden className="text-destructive">*</span>
        </Label>
        <Input
          id="platform-name"
          name="platformName"
          required
          maxLength={PLATFORM_REQUEST_LIMITS.platformName}
          defaultValue={values.platformName}
          placeholder="e.g. Bilibili, Rumble, SoundCloud"
          aria-invalid={isInvalid("platformName") || undefined}
        />
      </div>
      <div className="space-y-2">
        <Label htmlFor="platform-email">Your email (optional)</Label>
        <Input
          id="platform-email"
          name="email"
          type="email"
          autoComplete="email"
          maxLength={PLATFORM_REQUEST_LIMITS.email}
          defaultValue={values.email}
          aria-describedby="platform-email-hint"
          aria-invalid={isInvalid("email") || undefined}
        />
        <p id="platform-email-hint" className="text-xs text-slate-600">
          Only used to tell you when the platform is supported.
        </p>
      </div>
      <div className="space-y-2">
        <Label htmlFor="platform-details">Additional details</Label>
        <Textarea
          id="platform-details"
          name="details"
          rows={4}
          maxLength={PLATFORM_REQUEST_LIMITS.details}
          defaultValue={values.details}
          placeholder="An example link, and which formats you need (video, audio, subtitles)."
          aria-invalid={isInvalid("details") || undefined}
        />
      </div>
      <HoneypotField />
      <Button type="submit" size="lg" disabled={submitting}>
        <Send aria-hidden />
        {submitting ? "Submitting..." : "Submit Request"}
      </Button>
    </form>
  );
}
