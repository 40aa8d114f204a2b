/** The white label's sender name rule (browser-safe: the dashboard's form and the server share it). */
export const SENDER_NAME_MAX = 60;

export const SENDER_NAME_RULE = `Give a sender name of 1 to ${SENDER_NAME_MAX} characters, without < > " @ \\ or line breaks.`;
