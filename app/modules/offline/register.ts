/**
 * Registers /service-worker.js and offers a new build when one is ready: an "Update available"
 * toast whose Reload lets the waiting worker take over, after which every open tab of the site
 * reloads onto the new build (no page stays on assets the new worker no longer holds).
 * Loaded after hydration from the root layout, never on the first-load path.
 */
import { toast } from "sonner";
import { SERVICE_WORKER_URL, type WorkerMessage } from "./offline-contract.ts";

const UPDATE_CHECK_EVERY_MS = 60 * 60 * 1000;

function offerUpdate(worker: ServiceWorker, accept: () => void): void {
  toast("Update available", {
    id: "service-worker-update",
    description: "A new version of VidFetch is ready. Reload to use it.",
    duration: Number.POSITIVE_INFINITY,
    action: {
      label: "Reload",
      onClick: () => {
        accept();
        worker.postMessage({ type: "SKIP_WAITING" } satisfies WorkerMessage);
      },
    },
  });
}

export async function startServiceWorker(): Promise<ServiceWorkerRegistration | null> {
  if (!("serviceWorker" in navigator)) return null;
  const container = navigator.serviceWorker;
  // a page already controlled at load was served by the previous build's worker
  const hadController = Boolean(container.controller);
  let accepted = false;
  let reloading = false;
  container.addEventListener("controllerchange", () => {
    // the first install only takes control of this page: nothing to reload
    if (reloading || !(hadController || accepted)) return;
    reloading = true;
    window.location.reload();
  });

  let registration: ServiceWorkerRegistration | undefined;
  try {
    registration = await container.register(SERVICE_WORKER_URL, { scope: "/", updateViaCache: "none" });
  } catch (err) {
    // private windows and insecure origins have no workers: the site simply needs the network
    console.warn("Offline support is unavailable here:", err);
    return null;
  }
  // a browser (or automation) that blocks workers may answer with no registration at all
  if (!registration) return null;
  const reg = registration;

  const accept = () => {
    accepted = true;
  };
  if (reg.waiting && container.controller) offerUpdate(reg.waiting, accept);
  reg.addEventListener("updatefound", () => {
    const installing = reg.installing;
    installing?.addEventListener("statechange", () => {
      if (installing.state === "installed" && container.controller) offerUpdate(installing, accept);
    });
  });

  // a tab left open for days still finds the new build when the visitor returns to it
  let lastCheck = Date.now();
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState !== "visible" || Date.now() - lastCheck < UPDATE_CHECK_EVERY_MS) return;
    lastCheck = Date.now();
    reg.update().catch(() => undefined);
  });
  return reg;
}
