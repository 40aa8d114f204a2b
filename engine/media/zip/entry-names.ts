/**
 * File names inside a downloaded ZIP. Names come from video titles, which anyone can set, and an
 * extractor writes them to the visitor's disk: a name must never leave the extraction folder,
 * hide itself, spoof its extension or collide with another entry on a case-insensitive disk.
 * Every entry is a flat file name (no folders).
 */

/** leaves room for " (99999)" within the 255 bytes most file systems allow per name */
const MAX_NAME_BYTES = 240;
const MAX_EXTENSION_LENGTH = 12;

// path separators, characters Windows refuses in names, C0 and C1 controls, and the Unicode
// direction overrides that make "gpj.exe" display as "exe.jpg"
// eslint-disable-next-line no-control-regex -- control characters are exactly what this removes
const UNSAFE = /[/\\:*?"<>|\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
// a leading = + - @ would read as a formula in the manifest opened by a spreadsheet, and a
// leading - as an option to a command-line tool
const UNSAFE_START = /^[=+\-@]/;
const WINDOWS_DEVICE = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])$/i;

function truncateUtf8(text: string, maxBytes: number): string {
  if (Buffer.byteLength(text) <= maxBytes) return text;
  let out = "";
  let bytes = 0;
  // by code point, so a character is never cut in half
  for (const ch of text) {
    const n = Buffer.byteLength(ch);
    if (bytes + n > maxBytes) break;
    out += ch;
    bytes += n;
  }
  return out;
}

function splitExtension(name: string): [base: string, extension: string] {
  const dot = name.lastIndexOf(".");
  if (dot < 0) return [name, ""];
  const extension = name.slice(dot);
  if (extension.length > MAX_EXTENSION_LENGTH || !/^\.[\p{L}\p{N}_-]+$/u.test(extension)) return [name, ""];
  return [name.slice(0, dot), extension];
}

function trimEdges(text: string): string {
  // leading dots hide a file on Unix; Windows drops trailing dots and spaces
  return text.replace(/^[\s.]+|[\s.]+$/gu, "");
}

/**
 * A safe flat file name for `wanted`: unsafe characters become "_", edges lose dots and spaces,
 * Windows device names get a leading "_", an empty name becomes "file", and the UTF-8 length is
 * capped with the extension kept.
 */
export function safeEntryName(wanted: string): string {
  const cleaned = wanted.toWellFormed().normalize("NFC").replace(UNSAFE, "_").trim();
  const [wantedBase, extension] = splitExtension(cleaned);
  let base = trimEdges(wantedBase).replace(UNSAFE_START, "_");
  if (base === "") base = "file";
  if (WINDOWS_DEVICE.test(base) || WINDOWS_DEVICE.test(base.split(".")[0] ?? "")) base = `_${base}`;
  base = trimEdges(truncateUtf8(base, MAX_NAME_BYTES - Buffer.byteLength(extension))) || "file";
  return base + extension;
}

/**
 * Hands out unique safe names in the order asked: "title.mp4", then "title (2).mp4". Names are
 * compared ignoring case, as Windows and macOS disks do. Keeps one short string per name.
 */
export class EntryNames {
  private readonly taken = new Set<string>();
  /** names kept for one entry that asks for them by name (the manifest) */
  private readonly reserved = new Set<string>();
  /** the next number to try per base name, so many equal titles stay linear */
  private readonly nextNumber = new Map<string, number>();

  constructor(reserved: Iterable<string> = []) {
    for (const name of reserved) this.reserved.add(safeEntryName(name).toLowerCase());
  }

  /** `reserved`: the entry gets exactly this reserved name, once; otherwise a unique name near `wanted` */
  take(wanted: string, { reserved = false } = {}): string {
    const name = safeEntryName(wanted);
    const key = name.toLowerCase();
    if (reserved) {
      if (!this.reserved.has(key) || this.taken.has(key)) throw new Error(`"${name}" is not a reserved ZIP entry name, or was used already`);
      this.taken.add(key);
      return name;
    }
    if (!this.isTaken(key)) {
      this.taken.add(key);
      return name;
    }
    const [base, extension] = splitExtension(name);
    for (let n = this.nextNumber.get(key) ?? 2; ; n++) {
      const candidate = `${base} (${n})${extension}`;
      if (!this.isTaken(candidate.toLowerCase())) {
        this.taken.add(candidate.toLowerCase());
        this.nextNumber.set(key, n + 1);
        return candidate;
      }
    }
  }

  private isTaken(key: string): boolean {
    return this.taken.has(key) || this.reserved.has(key);
  }
}
