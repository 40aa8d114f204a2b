import { useEffect, useRef, useState } from "react";
import { useRouteLoaderData } from "react-router";
import { cn } from "#app/lib/cn.ts";
import type { AdPlacement, PublicConfig } from "#app/lib/public-config.ts";

/** Spec §9 ad sizes: [desktop, mobile] width × height per placement. */
export const AD_SIZES: Record<AdPlacement, { desktop: [number, number]; mobile: [number, number] }> = {
  header: { desktop: [728, 90], mobile: [320, 100] },
  footer: { desktop: [728, 90], mobile: [320, 100] },
  sidebar: { desktop: [300, 600], mobile: [300, 250] },
  "in-content": { desktop: [336, 280], mobile: [300, 250] },
};

/** The same sizes as static Tailwind classes (mobile first, desktop from 768 px). */
const SIZE_CLASSES: Record<AdPlacement, string> = {
  header: "h-[100px] w-[320px] md:h-[90px] md:w-[728px]",
  footer: "h-[100px] w-[320px] md:h-[90px] md:w-[728px]",
  sidebar: "h-[250px] w-[300px] md:h-[600px] md:w-[300px]",
  "in-content": "h-[250px] w-[300px] md:h-[280px] md:w-[336px]",
};

const SCRIPT_ID = "ad-provider-script";

declare global {
  interface Window {
    adsbygoogle?: unknown[];
  }
}

/** Load the provider's script once per page; resolves false when it fails (blocked, offline). */
function loadProviderScript(client: string): Promise<boolean> {
  const existing = document.getElementById(SCRIPT_ID) as HTMLScriptElement | null;
  if (existing) {
    const state = existing.dataset.state;
    if (state === "loaded") return Promise.resolve(true);
    if (state === "failed") return Promise.resolve(false);
  }
  return new Promise((resolve) => {
    const script = existing ?? document.createElement("script");
    script.addEventListener("load", () => resolve(true), { once: true });
    script.addEventListener("error", () => resolve(false), { once: true });
    if (!existing) {
      script.id = SCRIPT_ID;
      script.async = true;
      script.crossOrigin = "anonymous";
      script.src = `https://pagead2.googlesyndication.com/pagead/js/adsbygoogle.js?client=${encodeURIComponent(client)}`;
      script.addEventListener("load", () => (script.dataset.state = "loaded"));
      script.addEventListener("error", () => (script.dataset.state = "failed"));
      document.head.appendChild(script);
    }
  });
}

/**
 * One ad slot. Renders the configured provider's unit at the spec's size, nothing when no
 * provider is configured (or the visitor should see no ads), and "Ad content unavailable"
 * when the provider fails. It never renders anything that looks like a download button.
 */
export function AdSlot({ placement, className }: { placement: AdPlacement; className?: string }) {
  const root = useRouteLoaderData("root") as { publicConfig: PublicConfig; showAds: boolean } | undefined;
  const ads = root?.showAds ? root.publicConfig.ads : null;
  const slot = ads?.slots[placement];
  const [state, setState] = useState<"loading" | "ready" | "failed">("loading");
  const pushed = useRef(false);

  useEffect(() => {
    if (!ads || !slot) return;
    let cancelled = false;
    loadProviderScript(ads.client).then((ok) => {
      if (cancelled) return;
      if (!ok) return setState("failed");
      try {
        if (!pushed.current) {
          (window.adsbygoogle = window.adsbygoogle ?? []).push({});
          pushed.current = true;
        }
        setState("ready");
      } catch {
        setState("failed");
      }
    });
    return () => {
      cancelled = true;
    };
  }, [ads, slot]);

  if (!ads || !slot) return null;
  return (
    <aside
      aria-label="Advertisement"
      className={cn("mx-auto my-4 flex items-center justify-center", className)}
      data-ad-placement={placement}
    >
      <div
        className={cn("relative flex max-w-full items-center justify-center overflow-hidden bg-slate-50 text-xs text-slate-500", SIZE_CLASSES[placement])}
        data-size-desktop={AD_SIZES[placement].desktop.join("x")}
        data-size-mobile={AD_SIZES[placement].mobile.join("x")}
      >
        {state === "failed" ? (
          <span>Ad content unavailable</span>
        ) : (
          <ins
            className="adsbygoogle block size-full"
            data-ad-client={ads.client}
            data-ad-slot={slot}
            data-ad-format="fixed"
          />
        )}
      </div>
    </aside>
  );
}
