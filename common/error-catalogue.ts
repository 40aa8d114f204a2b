/**
 * The one shape of an error catalogue: each domain (engine, host, billing, accounts, webhook)
 * owns its codes, `"<domain>.<what>": { status, message }`, and defines them through this helper,
 * so the codes stay literal types and every catalogue reads alike. Codes are unique across
 * catalogues and the API's are listed in docs/api.md and the OpenAPI document
 * (server/api/error-codes.test.ts). Browser-safe and dependency-free.
 */
export interface ErrorEntry {
  readonly status: number;
  readonly message: string;
}

export function defineErrors<const T extends Record<string, ErrorEntry>>(errors: T): T {
  return errors;
}

/** The rate-limit sentence every domain answers with (spec §8), written once. */
export const TOO_MANY_REQUESTS = "You've made too many requests. Please wait a moment and try again.";

/**
 * Job output storage (jobs/storage): a job whose file would pass the configured cap
 * (`JOB_STORAGE_MAX_MB`) fails with this, and what it wrote is removed.
 */
export const JOB_STORAGE_ERRORS = defineErrors({
  "job.storage_full": { status: 503, message: "Our file storage is full right now. Please try again later." },
});
