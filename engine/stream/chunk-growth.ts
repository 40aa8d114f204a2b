/**
 * How many bytes of a direct file the next Range request asks for. The first chunk is the
 * configured size (DOWNLOAD_CHUNK_BYTES); every chunk delivered whole (and quickly: the reader
 * decides, ranged-reader.ts) doubles the next one, up to a ceiling; a cut goes back to the
 * configured size and lowers the ceiling to half the chunk that was cut, so an upstream that cuts
 * long requests is not asked for them again.
 *
 * Why grow: each request costs a round trip and the upstream's setup, and the relay's own work
 * per request. In fixed 8 MiB chunks a 400 MB file is 50 requests; growing to 64 MiB it is 9,
 * and the engine spends about a fifth less CPU relaying it (docs/decisions/035). Why a ceiling a
 * platform may set lower: some throttle a request that asks for more than they like (googlevideo
 * beyond about 10 MiB), so their streams carry their own limit (`maxRequestBytes`).
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
