import { ArrowLeft, CheckCircle2, Loader2, RefreshCw, Wifi, WifiOff, XCircle } from "#app/components/icons.ts";
import { useCallback, useEffect, useState } from "react";
import type { Route } from "./+types/connection-status";
import { Button } from "#app/components/ui/button.tsx";
import { cn } from "#app/lib/cn.ts";
import { useOnlineStatus } from "#app/lib/hooks/use-online-status.ts";
import { GoBackButton } from "#app/modules/pages/go-back-button.tsx";
import { PageHero } from "#app/modules/pages/page-hero.tsx";
import { pageMeta } from "#app/modules/site/page-meta.ts";
import { describeProbe, probeServer, type ProbeResult } from "#app/modules/pages/probe-server.ts";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "/connection-status");

function formatTime(date: Date) {
  return date.toLocaleTimeString(undefined, { hour: "2-digit", minute: "2-digit", second: "2-digit" });
}

export default function ConnectionStatus() {
  const online = useOnlineStatus();
  const [lastChecked, setLastChecked] = useState<Date | null>(null);
  const [probe, setProbe] = useState<ProbeResult | null>(null);
  const [checking, setChecking] = useState(false);

  const checkAgain = useCallback(async () => {
    setChecking(true);
    try {
      setProbe(await probeServer());
    } finally {
      setLastChecked(new Date());
      setChecking(false);
    }
  }, []);

  // Check on arrival and whenever the browser's online/offline events fire.
  useEffect(() => {
    setLastChecked(new Date());
    void checkAgain();
  }, [online, checkAgain]);

  const connected = online && probe?.ok !== false;
  return (
    <>
      <PageHero title="Connection Status" intro="Whether your device is online and can reach our servers." />
      <div className="mx-auto max-w-2xl px-4 py-12 sm:px-6">
        <section
          aria-labelledby="status-heading"
          className={cn("rounded-2xl border p-6 sm:p-8", connected ? "border-green-200 bg-green-50" : "border-red-200 bg-red-50")}
        >
          <div className="flex items-center gap-4">
            {connected ? <Wifi aria-hidden className="size-10 text-green-700" /> : <WifiOff aria-hidden className="size-10 text-destructive" />}
            <div role="status" aria-live="polite">
              <h2 id="status-heading" className="text-2xl font-bold text-slate-900">
                {online ? "Connected" : "Offline"}
              </h2>
              <p className="text-slate-700">
                {online
                  ? "Your browser reports an internet connection."
                  : "You're Offline - Please check your internet connection. Downloads will work again as soon as you reconnect."}
              </p>
            </div>
          </div>

          <dl className="mt-6 space-y-2 text-sm">
            <div className="flex flex-wrap gap-x-2">
              <dt className="font-medium text-slate-900">Last checked:</dt>
              <dd className="text-slate-700" data-testid="last-checked">
                {lastChecked ? <time dateTime={lastChecked.toISOString()}>{formatTime(lastChecked)}</time> : "Checking..."}
              </dd>
            </div>
            <div className="flex flex-wrap gap-x-2">
              <dt className="font-medium text-slate-900">Our servers:</dt>
              <dd className="text-slate-700" data-testid="server-check" aria-live="polite">
                {checking ? (
                  "Checking..."
                ) : probe ? (
                  <span className="inline-flex items-start gap-1.5">
                    {probe.ok ? (
                      <CheckCircle2 aria-hidden className="mt-0.5 size-4 text-green-700" />
                    ) : (
                      <XCircle aria-hidden className="mt-0.5 size-4 text-destructive" />
                    )}
                    {describeProbe(probe)}
                  </span>
                ) : (
                  "Checking..."
                )}
              </dd>
            </div>
          </dl>

          <div className="mt-8 flex flex-wrap gap-3">
            <Button type="button" onClick={checkAgain} disabled={checking}>
              {checking ? <Loader2 aria-hidden className="animate-spin" /> : <RefreshCw aria-hidden />}
              {checking ? "Checking..." : "Check Again"}
            </Button>
            <GoBackButton variant="outline">
              <ArrowLeft aria-hidden /> Back
            </GoBackButton>
          </div>
        </section>

        <section aria-labelledby="tips-heading" className="prose-page mt-10">
          <h2 id="tips-heading">If you are offline</h2>
          <ul>
            <li>Check that Wi-Fi or mobile data is switched on and that airplane mode is off.</li>
            <li>Open another website: if it fails too, restart your router or move closer to it.</li>
            <li>On a work or school network, a firewall may block downloads; try another network.</li>
            <li>If only our site fails while other sites load, our servers may be busy: try again in a few minutes.</li>
          </ul>
        </section>
      </div>
    </>
  );
}
