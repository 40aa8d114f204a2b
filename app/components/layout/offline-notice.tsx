import { WifiOff } from "#app/components/icons.ts";
import { Link } from "react-router";
import { useOnlineStatus } from "#app/lib/hooks/use-online-status.ts";

/** Shown under the header while the browser reports being offline (spec §2, §8 "Offline"). */
export function OfflineNotice() {
  const online = useOnlineStatus();
  if (online) return null;
  return (
    <div role="alert" className="bg-destructive px-4 py-2 text-center text-sm text-white">
      <WifiOff aria-hidden className="mr-1.5 inline size-4 align-[-3px]" />
      <strong>You&apos;re Offline</strong> - Please check your internet connection.{" "}
      <Link to="/connection-status" className="font-semibold underline underline-offset-2">
        Connection details
      </Link>
    </div>
  );
}
