import { BILLING_ERRORS } from "#app/modules/billing/billing-messages.ts";
import { ERRORS } from "#engine/errors.ts";
import { HOST_ERRORS } from "../http-errors.ts";
import { WEBHOOK_ERRORS } from "./billing.ts";

/**
 * The catalogues whose codes a JSON answer under /api can carry: the engine's (/api/v1), the
 * host's refusals (any API path), billing's (the payment calls; its portal codes reach only the
 * dashboard's notices, but one catalogue is listed whole) and the Stripe webhook's. The account,
 * comment and contact messages are answered by pages only. The OpenAPI document enumerates these
 * codes; docs/api.md lists them (server/api/error-codes.test.ts checks both).
 */
export const API_ERROR_CATALOGUES = { engine: ERRORS, host: HOST_ERRORS, billing: BILLING_ERRORS, webhook: WEBHOOK_ERRORS } as const;

export const API_ERROR_CODES = Object.values(API_ERROR_CATALOGUES).flatMap((catalogue) => Object.keys(catalogue));
