import type { ReactNode } from "react";
import { Form } from "react-router";
import { Button } from "#app/components/ui/button.tsx";

/**
 * A one-button form posting to a billing route. A full document POST (`reloadDocument`): those
 * routes answer with a redirect to Stripe's own pages, which a fetch could not follow.
 */
export function PostButton({ action, variant, className, children }: { action: "/billing/portal" | "/billing/cancel"; variant: "outline" | "destructive"; className?: string; children: ReactNode }) {
  return (
    <Form method="post" action={action} reloadDocument className={className}>
      <Button type="submit" variant={variant} className="w-full">
        {children}
      </Button>
    </Form>
  );
}
