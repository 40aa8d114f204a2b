import { describe, expect, it } from "vitest";
import { manifestCsv, manifestLine, type ManifestRow } from "./manifest-csv.ts";

const row: ManifestRow = {
  position: 1,
  title: "A title",
  source: "https://www.youtube.com/watch?v=abc",
  format: "mp4-720",
  fileName: "A title.mp4",
  bytes: 1234,
  sha256: "ab".repeat(32),
  status: "ok",
};

describe("manifest.csv", () => {
  it("starts with a UTF-8 byte order mark and the header, lines end in CRLF", () => {
    const text = manifestCsv([row]).toString("utf8");
    expect(text).toBe(
      "\uFEFFposition,title,source,format,file_name,bytes,sha256,status,error\r\n" +
        `1,A title,https://www.youtube.com/watch?v=abc,mp4-720,A title.mp4,1234,${"ab".repeat(32)},ok,\r\n`,
    );
  });

  it("quotes commas, quotes and line breaks (RFC 4180)", () => {
    expect(manifestLine({ ...row, title: 'He said "hi", then\r\nleft' })).toContain(',"He said ""hi"", then\r\nleft",');
  });

  it("lists a failed item with its error and empty file fields", () => {
    expect(manifestLine({ ...row, position: 2, fileName: null, bytes: null, sha256: null, status: "failed", error: "This video is private." })).toBe(
      "2,A title,https://www.youtube.com/watch?v=abc,mp4-720,,,,failed,This video is private.\r\n",
    );
  });

  it.each(["=HYPERLINK(\"http://evil\")", "+1", "-2+3", "@SUM(A1)", "\tcmd", "\rcmd"])("keeps %j as text with a leading apostrophe", (title) => {
    const line = manifestLine({ ...row, title });
    expect(line.split(",")[1]!.replace(/^"/, "")).toMatch(/^'/);
  });

  it("leaves our own numbers alone", () => {
    expect(manifestLine({ ...row, bytes: 0 })).toContain(",0,");
  });
});
