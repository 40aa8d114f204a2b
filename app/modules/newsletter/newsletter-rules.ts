/**
 * The newsletter's double opt-in periods (decision 044). The privacy policy quotes the confirm
 * window, so it lives here, apart from the server code.
 */

/** A confirmation link works this long; an address not confirmed by then is deleted. */
export const NEWSLETTER_CONFIRM_DAYS = 7;
export const NEWSLETTER_CONFIRM_MS = NEWSLETTER_CONFIRM_DAYS * 24 * 60 * 60 * 1000;

/** A repeated subscription of an unconfirmed address mails a new link at most this often. */
export const NEWSLETTER_RESEND_AFTER_MS = 60 * 60 * 1000;
