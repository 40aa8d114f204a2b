import { Send } from "#app/components/icons.ts";
import { Button } from "#app/components/ui/button.tsx";
import { Input, Textarea } from "#app/components/ui/input.tsx";
import { Label } from "#app/components/ui/label.tsx";
import type { FormResult } from "#app/lib/forms/form-problem.ts";
import { FormStatus } from "#app/lib/forms/form-status.tsx";
import { HoneypotField } from "#app/lib/forms/honeypot-field.tsx";
import { useFormSubmission } from "#app/lib/forms/use-form-submission.ts";
import { useHydrated } from "#app/lib/forms/use-hydrated.ts";
import { CONTACT_LIMITS, parseContactForm, type ContactField } from "./contact-schema.ts";

/** The /contact-us form. `actionResult` is the plain-POST result (no JavaScript). */
export function ContactForm({ actionResult }: { actionResult?: FormResult<ContactField> }) {
  const hydrated = useHydrated();
  const { formRef, onSubmit, submitting, isInvalid } = useFormSubmission<ContactField>({ validate: parseContactForm, initial: actionResult });
  // After a failed plain POST the fields come back filled, so nothing typed is lost.
  const values = actionResult && !actionResult.ok ? (actionResult.values ?? {}) : {};

  return (
    <form
      ref={formRef}
      method="post"
      action="/contact-us"
      onSubmit={hydrated ? onSubmit : undefined}
      // The browser's own bubbles stand in until JavaScript runs; then the spec's messages take over.
      noValidate={hydrated}
      aria-describedby="contact-required-note"
      className="relative space-y-5"
    >
      {hydrated ? null : <FormStatus result={actionResult} />}
      <p id="contact-required-note" className="text-sm text-slate-600">
        Fields marked <span aria-hidden>*</span>
        <span className="sr-only">with an asterisk</span> are required.
      </p>
      <div className="grid gap-5 sm:grid-cols-2">
        <div className="space-y-2">
          <Label htmlFor="contact-name">
            Name <span aria-hidden className="text-destructive">*</span>
          </Label>
          <Input
            id="contact-name"
            name="name"
            autoComplete="name"
            required
            maxLength={CONTACT_LIMITS.name}
            defaultValue={values.name}
            aria-invalid={isInvalid("name") || undefined}
          />
        </div>
        <div className="space-y-2">
          <Label htmlFor="contact-email">
            Email <span aria-hidden className="text-destructive">*</span>
          </Label>
          <Input
            id="contact-email"
            name="email"
            type="email"
            autoComplete="email"
            required
            maxLength={CONTACT_LIMITS.email}
            defaultValue={values.email}
            aria-invalid={isInvalid("email") || undefined}
          />
        </div>
      </div>
      <div className="space-y-2">
        <Label htmlFor="contact-subject">Subject</Label>
        <Input
          id="contact-subject"
          name="subject"
          maxLength={CONTACT_LIMITS.subject}
          defaultValue={values.subject}
          placeholder="e.g. A download stops at 50%"
          aria-invalid={isInvalid("subject") || undefined}
        />
      </div>
      <div className="space-y-2">
        <Label htmlFor="contact-message">
          Message <span aria-hidden className="text-destructive">*</span>
        </Label>
        <Textarea
          id="contact-message"
          name="message"
          rows={6}
          required
          maxLength={CONTACT_LIMITS.message}
          defaultValue={values.message}
          placeholder="Tell us what happened. For a download problem, include the video link and the format you chose."
          aria-invalid={isInvalid("message") || undefined}
        />
      </div>
      <HoneypotField />
      <Button type="submit" size="lg" disabled={submitting} aria-disabled={submitting}>
        <Send aria-hidden />
        {submitting ? "Sending..." : "Send Message"}
      </Button>
    </form>
  );
}
