/** A bounded pool of async work, for the engine's fetches of many small files (playlists, subtitle segments, lookups). */

/**
 * Runs `fn` over `items` with at most `limit` in flight, keeping the order of results. The first
 * failure rejects the whole, and no item is started after it (the ones in flight run out).
 */
export async function mapLimit<T, R>(items: T[], limit: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  let failed = false;
  const worker = async () => {
    while (next < items.length && !failed) {
      const i = next++;
      try {
        results[i] = await fn(items[i]!, i);
      } catch (err) {
        failed = true;
        throw err;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
