import { useEffect, useState } from "react";
import { useNavigate } from "react-router";
import { Button } from "#app/components/ui/button.tsx";

export const REDIRECT_SECONDS = 30;

/**
 * "Redirecting you to a relevant page in 30 seconds..." with a live countdown that really
 * navigates, and a Cancel button. The visible number is not a live region (a screen reader
 * would read it every second); a separate polite status announces the start, the last ten
 * seconds and a cancellation.
 */
export function RedirectCountdown({ to, title, seconds = REDIRECT_SECONDS }: { to: string; title: string; seconds?: number }) {
  const navigate = useNavigate();
  const [remaining, setRemaining] = useState(seconds);
  const [running, setRunning] = useState(true);
  const [hydrated, setHydrated] = useState(false);

  useEffect(() => setHydrated(true), []);

  useEffect(() => {
    if (!running) return;
    const deadline = Date.now() + remaining * 1000;
    const timer = window.setInterval(() => {
      // Derived from a deadline, so a throttled background tab does not stretch the wait.
      const left = Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
      setRemaining(left);
      if (left === 0) {
        window.clearInterval(timer);
        navigate(to, { replace: true });
      }
    }, 250);
    return () => window.clearInterval(timer);
    // `remaining` is read only to seed the deadline when the countdown (re)starts.
  }, [running, navigate, to]);

  let announcement = "";
  if (!running) announcement = "Redirect cancelled. You can stay on this page.";
  else if (hydrated && remaining <= 10 && remaining > 0) announcement = `Redirecting to ${title} in 10 seconds.`;
  else if (hydrated) announcement = `Redirecting to ${title} in ${seconds} seconds.`;

  return (
    <div className="mt-10 rounded-xl border border-slate-200 bg-slate-50 px-4 py-4 text-sm text-slate-700" data-testid="redirect-countdown">
      {running ? (
        <p>
          Redirecting you to a relevant page in <span data-testid="countdown-seconds">{remaining}</span> {remaining === 1 ? "second" : "seconds"}...
          <span className="block text-slate-500">
            Next stop: <a href={to} className="font-medium text-brand-700 underline underline-offset-2">{title}</a>
          </span>
        </p>
      ) : (
        <p>Redirect cancelled. Use the buttons above or the suggestions below to find your way.</p>
      )}
      <p role="status" aria-live="polite" className="sr-only">
        {announcement}
      </p>
      {running && hydrated ? (
        <Button type="button" variant="outline" size="sm" className="mt-3" onClick={() => setRunning(false)}>
          Cancel
        </Button>
      ) : null}
    </div>
  );
}
