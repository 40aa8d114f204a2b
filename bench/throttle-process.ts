/**
 * The benchmark's throttling CDN, in its own process like the origin: forwards to <target>,
 * pacing response bodies to <bytesPerSecond> per connection (only paths matching [pathRegex]).
 * Usage: tsx bench/throttle-process.ts <target> <bytesPerSecond> [pathRegex]; prints its origin.
 */
import { startThrottlingProxy } from "../tests/integration/media/throttling-proxy.ts";

const [target, rate, pattern] = process.argv.slice(2);
if (!target || !rate) {
  process.stderr.write("usage: throttle-process.ts <target> <bytesPerSecond> [pathRegex]\n");
  process.exit(2);
}
const only = pattern ? new RegExp(pattern) : null;
const proxy = await startThrottlingProxy({ target, bytesPerSecond: Number(rate), throttle: only ? (p) => only.test(p) : undefined });
process.stdout.write(`${JSON.stringify({ origin: proxy.origin })}\n`);
const stop = () => void proxy.close().then(() => process.exit(0));
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
process.stdin.on("end", stop);
process.stdin.resume();
