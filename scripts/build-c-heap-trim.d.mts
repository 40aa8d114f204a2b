/** Builds native/c-heap-trim.c into `outFile`; returns null when built, else why not. */
export function buildCHeapTrim(outFile: string): string | null;
