import { useEffect, useRef } from "react";
import type { WorkerMessage } from "./offline-contract.ts";

/**
 * Tells the service worker when this page sees its visitor go from signed in to signed out,
 * however it happened (the logout form, a script calling the auth library, an expired session
 * noticed on the next navigation): the worker then drops every page it kept (issue 27 §11).
 */
export function useForgetPagesOnSignOut(signedIn: boolean): void {
  const was = useRef(signedIn);
  useEffect(() => {
    const signedOut = was.current && !signedIn;
    was.current = signedIn;
    if (!signedOut || !("serviceWorker" in navigator)) return;
    const message: WorkerMessage = { type: "SIGNED_OUT" };
    void navigator.serviceWorker
      .getRegistration()
      .then((reg) => reg?.active?.postMessage(message))
      .catch(() => undefined);
  }, [signedIn]);
}
