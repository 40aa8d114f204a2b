import { z } from "zod";

/**
 * zod, configured once for browser and server. Its JIT compiles validators with `new Function`,
 * which our CSP (no 'unsafe-eval') refuses and reports: jitless keeps the console clean. Every
 * module that builds a schema imports `z` from here, so the setting is in place before any
 * schema exists.
 */
z.config({ jitless: true });

export { z };
