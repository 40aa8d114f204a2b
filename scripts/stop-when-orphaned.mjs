// `npm start` runs the server through `sh -c`, and a SIGTERM or Ctrl+C sent to npm ends npm and
// the shell but not the server: it would live on, orphaned, holding its port. When the process
// that started us is gone, we stop as if we had been sent SIGTERM (the server's graceful shutdown
// runs; before the server is up, the process simply ends).
export function stopWhenOrphaned(intervalMs = 500) {
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid !== parent) {
      clearInterval(timer);
      process.kill(process.pid, "SIGTERM");
    }
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
