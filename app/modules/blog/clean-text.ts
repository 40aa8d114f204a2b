/**
 * Visitor text on its way to the database. PostgreSQL refuses NUL in text ("invalid byte
 * sequence 0x00"), and the other C0 control characters mean nothing in a search box, a slug or
 * a name, so they are dropped where the input is parsed instead of failing a query later.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROLS = /[\u0000-\u001f\u007f]/g;
// eslint-disable-next-line no-control-regex -- as above, but keeping tab, line feed and carriage return
const CONTROLS_EXCEPT_LINE_BREAKS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;

/** Single-line text (names, emails, tags, search words): every control character removed. */
export function stripControls(text: string): string {
  return text.replace(CONTROLS, "");
}

/** Search text: a control character separates words the way a space does. */
export function controlsToSpaces(text: string): string {
  return text.replace(CONTROLS, " ");
}

/** Multi-line text (comments, report reasons): tabs and line breaks kept, other controls removed. */
export function stripControlsKeepLines(text: string): string {
  return text.replace(CONTROLS_EXCEPT_LINE_BREAKS, "");
}

/** True when the text holds any control character (a slug or an id never does). */
export function hasControls(text: string): boolean {
  // eslint-disable-next-line no-control-regex -- see above
  return /[\u0000-\u001f\u007f]/.test(text);
}
