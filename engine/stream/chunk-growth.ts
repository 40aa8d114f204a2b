/**
 * How many bytes of a direct file the next Range request asks for: the configured size
 * (DOWNLOAD_CHUNK_BYTES), doubled after each chunk delivered whole and quickly, up to a ceiling
 * (a platform may set its own, `maxRequestBytes`); a cut goes back to the configured size and
 * lowers the ceiling to half the chunk that was cut. Why: docs/decisions/035-range-chunks-grow.md.
 */
export interface ChunkGrowth {
  /** bytes the next request asks for */
  readonly bytes: number;
  /** a chunk arrived to its last byte */
  completed(): void;
  /**
   * a chunk of `size` bytes (null: unknown) was cut or failed: back to the configured size, and
   * from then on never longer than half the cut one
   */
  cut(size: number | null): void;
}

/** how far chunks grow when the stream sets no limit of its own */
export const GROWN_CHUNK_CEILING = 64 * 1024 * 1024;

export function createChunkGrowth(baseBytes: number, maxBytes: number = GROWN_CHUNK_CEILING): ChunkGrowth {
  const base = Math.max(1, Math.floor(Math.min(baseBytes, maxBytes)));
  let ceiling = Math.max(base, Math.floor(maxBytes));
  let bytes = base;
  return {
    get bytes() {
      return bytes;
    },
    completed() {
      bytes = Math.min(ceiling, bytes * 2);
    },
    cut(size) {
      if (size !== null && size > base) ceiling = Math.min(ceiling, Math.max(base, Math.floor(size / 2)));
      bytes = base;
    },
  };
}
