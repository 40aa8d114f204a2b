import { eq } from "drizzle-orm";
import type Stripe from "stripe";
import { stripeEvents } from "#db/schema/index.ts";
import type { BillingDeps } from "./billing-services.server.ts";
import { syncSubscription } from "./sync-subscription.server.ts";

/** The events we act on; every other type is acknowledged and ignored. */
export const HANDLED_EVENT_TYPES = new Set([
  "checkout.session.completed",
  "customer.subscription.created",
  "customer.subscription.updated",
  "customer.subscription.deleted",
  "invoice.paid",
  "invoice.payment_failed",
]);

export type WebhookResult =
  | { status: 200; outcome: "processed" | "duplicate" | "ignored" }
  | { status: 400; outcome: "bad_signature" }
  | { status: 500; outcome: "failed" }
  | { status: 503; outcome: "not_configured" };

/** The subscription an allowed event is about (its id only: the object itself is re-read). */
function subscriptionIdOf(event: Stripe.Event): string | null {
  const ref = (v: string | { id: string } | null | undefined) => (typeof v === "string" ? v : (v?.id ?? null));
  switch (event.type) {
    case "checkout.session.completed":
      return event.data.object.mode === "subscription" ? ref(event.data.object.subscription) : null;
    case "customer.subscription.created":
    case "customer.subscription.updated":
    case "customer.subscription.deleted":
      return event.data.object.id;
    case "invoice.paid":
    case "invoice.payment_failed":
      return ref(event.data.object.parent?.subscription_details?.subscription);
    default:
      return null;
  }
}

/**
 * `POST /api/stripe/webhook`. The signature is checked on the raw bytes with
 * STRIPE_WEBHOOK_SECRET (and Stripe's 5-minute timestamp tolerance) before anything is read;
 * a bad one is a 400 and changes nothing. Each event id is acted on once (stripe_events): it is
 * recorded after its subscription was synced, so a failure leaves it for Stripe's retry, and a
 * replay of a recorded event does nothing. The sync re-reads the subscription from Stripe,
 * so two deliveries racing each other still store the same truth.
 */
export async function handleStripeWebhook(deps: BillingDeps, rawBody: Buffer, signature: string | undefined): Promise<WebhookResult> {
  const { db, logger, billing } = deps;
  if (!billing) return { status: 503, outcome: "not_configured" };
  let event: Stripe.Event;
  try {
    event = await billing.stripe.webhooks.constructEventAsync(rawBody, signature ?? "", billing.webhookSecret);
  } catch (err) {
    logger.warn({ err: { message: (err as Error).message } }, "stripe webhook refused: bad signature");
    return { status: 400, outcome: "bad_signature" };
  }
  if (!HANDLED_EVENT_TYPES.has(event.type)) return { status: 200, outcome: "ignored" };
  const [seen] = await db.select({ id: stripeEvents.id }).from(stripeEvents).where(eq(stripeEvents.id, event.id));
  if (seen) {
    logger.info({ event: event.id, type: event.type }, "stripe webhook already processed");
    return { status: 200, outcome: "duplicate" };
  }
  const subscriptionId = subscriptionIdOf(event);
  if (subscriptionId) {
    try {
      await syncSubscription({ ...deps, billing }, subscriptionId);
    } catch (err) {
      // not recorded: Stripe retries the delivery (for up to three days)
      logger.error({ err, event: event.id, type: event.type, subscription: subscriptionId }, "stripe webhook failed: the subscription could not be synced");
      return { status: 500, outcome: "failed" };
    }
  }
  await db.insert(stripeEvents).values({ id: event.id, type: event.type }).onConflictDoNothing();
  logger.info({ event: event.id, type: event.type, subscription: subscriptionId }, "stripe webhook processed");
  return { status: 200, outcome: "processed" };
}
