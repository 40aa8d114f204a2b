import { e2eDatabaseUrl } from "./db.ts";

/**
 * Whether a test can read rows back from the server's database (TEST_DATABASE_URL set). When it
 * cannot, the visible behaviour is still tested and a notice says the read-back was left out.
 */
export function readBackAvailable(): boolean {
  if (e2eDatabaseUrl()) return true;
  console.log("[notice] TEST_DATABASE_URL is not set: the database read-back in this test was skipped");
  return false;
}
