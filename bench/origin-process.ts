/**
 * The benchmark's upstream origin, in its own process so its memory and CPU are not counted
 * against the engine. Usage: tsx bench/origin-process.ts <root> [delayMs]; prints its origin.
 */
import { startMediaOrigin } from "../tests/integration/media/origin.ts";

const [root, delay] = process.argv.slice(2);
if (!root) {
  process.stderr.write("usage: origin-process.ts <root> [delayMs]\n");
  process.exit(2);
}
const origin = await startMediaOrigin(root, { delayMs: delay ? Number(delay) : 0 });
process.stdout.write(`${JSON.stringify({ origin: origin.origin })}\n`);
const stop = () => void origin.close().then(() => process.exit(0));
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
process.stdin.on("end", stop);
process.stdin.resume();
