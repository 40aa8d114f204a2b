import { FormStatus } from "#app/lib/forms/form-status.tsx";
import { BILLING_NOTICES, type BillingNotice } from "./billing-messages.ts";

/**
 * The answer of a dashboard subscription button (`/dashboard?notice=...`), shown in the page so
 * it reads the same with and without JavaScript.
 */
export function BillingNoticeBanner({ notice }: { notice: BillingNotice | null }) {
  if (!notice) return null;
  const n = BILLING_NOTICES[notice];
  return <FormStatus result={n.tone === "success" ? { ok: true, title: n.title, message: n.description } : { ok: false, title: n.title, message: n.description, fields: [] }} />;
}
