import { cn } from "#app/lib/cn.ts";

/** A platform whose downloads are degraded or down, with the plain words to show. */
export interface PlatformNotice {
  id: string;
  status: "degraded" | "down";
  detail: string;
}

/** The notices of platforms in trouble (nothing when all is well): what the status endpoint says, in the page. */
export function PlatformNotices({ notices, className }: { notices: readonly PlatformNotice[]; className?: string }) {
  if (notices.length === 0) return null;
  return (
    <div role="status" className={cn("space-y-2", className)} data-testid="platform-notices">
      {notices.map((n) => (
        <p
          key={n.id}
          data-platform={n.id}
          className={cn("rounded-lg border px-3 py-2 text-sm", n.status === "down" ? "border-red-300 bg-red-50 text-red-900" : "border-amber-300 bg-amber-50 text-amber-900")}
        >
          {n.detail}
        </p>
      ))}
    </div>
  );
}
