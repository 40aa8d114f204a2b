import type { ReactNode } from "react";
import { cn } from "#app/lib/cn.ts";

/**
 * A box that scrolls sideways when its content (a wide table) is wider than the screen. It is a named region that takes
 * focus, so keyboard users can scroll it with the arrow keys (WCAG 2.1.1; axe's scrollable-region-focusable).
 */
export function ScrollRegion({ label, className, children }: { label: string; className?: string; children: ReactNode }) {
  return (
    <div role="region" aria-label={label} tabIndex={0} className={cn("overflow-x-auto focus-visible:outline-2 focus-visible:outline-brand-600", className)}>
      {children}
    </div>
  );
}
