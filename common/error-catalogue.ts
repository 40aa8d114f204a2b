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

const KIND = Symbol.for("vidfetch.error-kind");

/**
 * An error of one catalogue, known by its kind rather than by its class object. The app's server
 * build and the host's build each hold their own copy of every class, and a service the host
 * made (the engine, the job queue) throws the host's copy into the app's `catch`; a plain
 * `instanceof` there is false and a refusal became a 500. `instanceof` on these classes asks the
 * kind instead, so it holds across both builds. Each subclass names its kind once.
 */
export abstract class CatalogueError<Code extends string = string> extends Error {
  /** the catalogue a subclass answers for ("engine", "job", ...); unset on this base, which takes any */
  static readonly kind: string | undefined = undefined;
  readonly code: Code;
  readonly status: number;

  constructor(kind: string, code: Code, status: number, message: string, options?: ErrorOptions) {
    super(message, options);
    this.code = code;
    this.status = status;
    Object.defineProperty(this, KIND, { value: kind });
  }

  static override [Symbol.hasInstance](value: unknown): boolean {
    if (typeof value !== "object" || value === null) return false;
    const kind = (value as { [KIND]?: unknown })[KIND];
    return typeof kind === "string" && (this.kind === undefined || kind === this.kind);
  }
}
