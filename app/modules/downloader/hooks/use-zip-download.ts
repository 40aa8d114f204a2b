import { useCallback, useEffect, useRef, useState } from "react";
import { ApiError, FRIENDLY_MESSAGES, requestBulkDownload } from "../api-client.ts";
import { DOWNLOAD_FAILED_MESSAGE, followDownload, type FilesProgress } from "../run-download.ts";

/** One ZIP download (several links, one format) from the request to the last file. */
export interface ZipDownload {
  /** preparing: asking for the link; saving: the browser is saving the ZIP while the server builds it */
  phase: "idle" | "preparing" | "saving" | "done" | "failed";
  /** the ZIP's name once the API gave the link */
  filename: string | null;
  /** bytes of the archive sent so far */
  bytes: number;
  /** each file's state, once the progress events carry them */
  files: FilesProgress | null;
  /** the API's or the download's failure, in its own words */
  error: string | null;
  /** the progress events were not reachable: the browser saves the ZIP, we cannot say how far it is */
  untracked: boolean;
}

export const IDLE_ZIP: ZipDownload = { phase: "idle", filename: null, bytes: 0, files: null, error: null, untracked: false };

function messageOf(err: unknown): string {
  if (err instanceof ApiError) return err.message || DOWNLOAD_FAILED_MESSAGE;
  return FRIENDLY_MESSAGES.unexpected;
}

/**
 * Ask POST /api/v1/downloads for one ZIP of `urls`, let the browser save it, and follow its
 * progress events file by file (the dashboard's Bulk tab and the playlist card). No retries: the
 * ZIP is built as it streams, so a second attempt would be a second download. `profile`: a
 * download profile's id, asked for instead of the format.
 */
export function useZipDownload() {
  const [zip, setZip] = useState<ZipDownload>(IDLE_ZIP);
  const controller = useRef<AbortController | null>(null);

  useEffect(() => () => controller.current?.abort(), []);

  const start = useCallback(async (urls: string[], format: string, name?: string, profile?: string) => {
    controller.current?.abort();
    const ctrl = new AbortController();
    controller.current = ctrl;
    setZip({ ...IDLE_ZIP, phase: "preparing" });
    try {
      const ticket = await requestBulkDownload(urls, format, { signal: ctrl.signal, name, profile });
      if (ctrl.signal.aborted) return;
      setZip({ ...IDLE_ZIP, phase: "saving", filename: ticket.filename });
      const outcome = await followDownload(ticket, { signal: ctrl.signal, onProgress: (p) => setZip((z) => ({ ...z, bytes: p.bytes, files: p.files ?? z.files })) });
      if (ctrl.signal.aborted) return;
      setZip((z) => ({ ...z, phase: "done", untracked: !outcome.tracked }));
    } catch (err) {
      if (ctrl.signal.aborted) return;
      setZip((z) => ({ ...z, phase: "failed", error: messageOf(err) }));
    }
  }, []);

  return { zip, start };
}
