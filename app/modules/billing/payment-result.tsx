import { CheckCircle2, CircleAlert, Loader2, WifiOff } from "#app/components/icons.ts";
import { useEffect } from "react";
import { Link, useNavigation, useRevalidator } from "react-router";
import { toast } from "sonner";
import { Button } from "#app/components/ui/button.tsx";
import { useOnlineStatus } from "#app/lib/hooks/use-online-status.ts";
import { useHydrated } from "#app/lib/forms/use-hydrated.ts";
import { planTitle } from "./plan-catalogue.ts";

export type PaymentOutcome =
  | { state: "success"; plan: string }
  | { state: "error"; noSession: boolean; message: string };

function Card({ children, actions }: { children: React.ReactNode; actions?: React.ReactNode }) {
  return (
    <section className="mx-auto w-full max-w-lg px-4 py-16 sm:px-6">
      <div className="rounded-2xl border border-slate-200 bg-white p-8 text-center shadow-sm">
        {children}
        {actions ? <div className="mt-8 flex flex-wrap justify-center gap-3">{actions}</div> : null}
      </div>
    </section>
  );
}

const returnHome = (
  <Button asChild variant="outline">
    <Link to="/">Return to Home</Link>
  </Button>
);

/**
 * Spec §2 "Payment-success": verifying, offline, activation error, success. The server verified
 * the session before this renders; "Try Again" runs that verification again (a plain link
 * without JavaScript), and shows "Verifying your payment..." while it runs.
 */
export function PaymentResult({ outcome, retryHref }: { outcome: PaymentOutcome; retryHref: string }) {
  const hydrated = useHydrated();
  const online = useOnlineStatus();
  const navigation = useNavigation();
  const revalidator = useRevalidator();
  const verifying = revalidator.state === "loading" || (navigation.state === "loading" && navigation.location.pathname === "/payment-success");

  useEffect(() => {
    if (!hydrated || verifying) return;
    if (outcome.state === "success") toast.success("Welcome to Premium!", { id: "payment-result", description: "Your premium features are now active" });
    else if (!online) toast.error("You're Offline", { id: "payment-result", description: "Please check your internet connection" });
    else if (outcome.noSession) toast.error("Invalid Payment Session", { id: "payment-result", description: outcome.message });
    else toast.error("Activation Error", { id: "payment-result", description: outcome.message });
  }, [hydrated, verifying, outcome, online]);

  if (verifying) {
    return (
      <Card>
        <Loader2 aria-hidden className="mx-auto size-12 animate-spin text-brand-600 motion-reduce:animate-none" />
        <p role="status" className="mt-4 text-lg font-medium text-slate-900">
          Verifying your payment...
        </p>
      </Card>
    );
  }
  if (outcome.state === "success") {
    return (
      <Card
        actions={
          <>
            <Button asChild>
              <Link to="/dashboard">Go to Dashboard</Link>
            </Button>
            {returnHome}
          </>
        }
      >
        <CheckCircle2 aria-hidden className="mx-auto size-14 text-emerald-600" />
        <h1 className="mt-4 text-2xl font-bold text-slate-900">Payment Successful!</h1>
        <p className="mt-3 text-slate-700">
          Your <strong>{planTitle(outcome.plan)}</strong> plan is active. Thank you for subscribing.
        </p>
      </Card>
    );
  }
  if (!online) {
    return (
      <Card
        actions={
          <>
            <Button type="button" onClick={() => void revalidator.revalidate()}>
              Check Connection &amp; Retry
            </Button>
            {returnHome}
          </>
        }
      >
        <WifiOff aria-hidden className="mx-auto size-14 text-slate-500" />
        <h1 className="mt-4 text-2xl font-bold text-slate-900">You&apos;re Offline</h1>
        <p className="mt-3 text-slate-700">You appear to be offline. Please check your internet connection and try again.</p>
      </Card>
    );
  }
  return (
    <Card
      actions={
        <>
          <Button asChild>
            <Link to={outcome.noSession ? "/premium" : retryHref}>Try Again</Link>
          </Button>
          <Button asChild variant="outline">
            <Link to="/contact-us">Contact Support</Link>
          </Button>
        </>
      }
    >
      <CircleAlert aria-hidden className="mx-auto size-14 text-destructive" />
      <h1 className="mt-4 text-2xl font-bold text-slate-900">{outcome.noSession ? "Invalid Payment Session" : "Activation Error"}</h1>
      <p role="alert" className="mt-3 text-slate-700">
        {outcome.message}
      </p>
    </Card>
  );
}
