import { Download, Menu, X } from "#app/components/icons.ts";
import { useEffect, useId, useState } from "react";
import { useLocation } from "react-router";
import { SiteLink } from "#app/components/ui/site-link.tsx";
import { cn } from "#app/lib/cn.ts";
import { HEADER_LINKS, TOOLS_LINKS, isActivePath } from "#app/modules/site/page-links.ts";
import { ToolsMenu } from "./tools-menu.tsx";

const SCROLL_THRESHOLD = 20;

function useScrolledPast(threshold: number) {
  const [scrolled, setScrolled] = useState(false);
  useEffect(() => {
    const onScroll = () => setScrolled(window.scrollY > threshold);
    onScroll();
    window.addEventListener("scroll", onScroll, { passive: true });
    return () => window.removeEventListener("scroll", onScroll);
  }, [threshold]);
  return scrolled;
}

const linkClass = (active: boolean) =>
  cn(
    "rounded-md px-3 py-2 text-sm font-medium transition-colors",
    active ? "bg-brand-50 text-brand-700" : "text-slate-700 hover:bg-slate-100 hover:text-slate-900",
  );

/** Signed in: a link to the dashboard; otherwise "Log in". Plain links, no account code here. */
function AccountLink({ user, className }: { user: { name: string } | null; className?: string }) {
  return user ? (
    <SiteLink to="/dashboard" className={cn("inline-flex items-center rounded-md bg-brand-600 px-3 py-2 text-sm font-medium text-white hover:bg-brand-700", className)}>
      Dashboard
    </SiteLink>
  ) : (
    <SiteLink to="/login" className={cn("inline-flex items-center rounded-md border border-slate-300 px-3 py-2 text-sm font-medium text-slate-800 hover:bg-slate-100", className)}>
      Log in
    </SiteLink>
  );
}

export function SiteHeader({ siteName, user = null }: { siteName: string; user?: { name: string } | null }) {
  const { pathname } = useLocation();
  const scrolled = useScrolledPast(SCROLL_THRESHOLD);
  const [menuOpen, setMenuOpen] = useState(false);
  const menuId = useId();
  const toolsActive = pathname.startsWith("/tools");

  // The mobile menu closes whenever the route changes.
  useEffect(() => setMenuOpen(false), [pathname]);

  return (
    <header
      data-scrolled={scrolled}
      className={cn(
        "sticky top-0 z-40 border-b transition-colors",
        scrolled ? "border-slate-200/70 bg-white/80 shadow-sm backdrop-blur-md" : "border-transparent bg-white",
      )}
    >
      <div className="mx-auto flex h-16 max-w-7xl items-center justify-between gap-4 px-4 sm:px-6">
        <SiteLink to="/" className="flex items-center gap-2 text-lg font-bold text-slate-900" aria-label={`${siteName} home`}>
          <span className="grid size-8 place-items-center rounded-lg bg-brand-600 text-white">
            <Download aria-hidden className="size-5" />
          </span>
          {siteName}
        </SiteLink>

        <nav aria-label="Main" className="hidden items-center gap-1 xl:flex">
          {HEADER_LINKS.map((l) => (
            <SiteLink key={l.to} to={l.to} className={linkClass(isActivePath(pathname, l.to))} aria-current={isActivePath(pathname, l.to) ? "page" : undefined}>
              {l.label}
            </SiteLink>
          ))}
          <ToolsMenu className={linkClass(toolsActive)} active={toolsActive} />
          <AccountLink user={user} className="ml-2" />
        </nav>

        <button
          type="button"
          className="inline-flex size-10 items-center justify-center rounded-md text-slate-700 hover:bg-slate-100 xl:hidden"
          aria-expanded={menuOpen}
          aria-controls={menuId}
          aria-label={menuOpen ? "Close menu" : "Open menu"}
          onClick={() => setMenuOpen((o) => !o)}
        >
          {menuOpen ? <X aria-hidden className="size-6" /> : <Menu aria-hidden className="size-6" />}
        </button>
      </div>

      <nav id={menuId} aria-label="Mobile" hidden={!menuOpen} className="border-t border-slate-200 bg-white px-4 pb-4 xl:hidden">
        <ul className="flex flex-col gap-1 pt-2">
          {HEADER_LINKS.map((l) => (
            <li key={l.to}>
              <SiteLink to={l.to} className={cn(linkClass(isActivePath(pathname, l.to)), "block")} aria-current={isActivePath(pathname, l.to) ? "page" : undefined}>
                {l.label}
              </SiteLink>
            </li>
          ))}
        </ul>
        <p className="mt-3 px-3 text-xs font-semibold tracking-wide text-slate-500 uppercase">Tools</p>
        <ul className="flex flex-col gap-1">
          {TOOLS_LINKS.map((t) => (
            <li key={t.to}>
              <SiteLink to={t.to} className={cn(linkClass(isActivePath(pathname, t.to)), "block")} aria-current={isActivePath(pathname, t.to) ? "page" : undefined}>
                {t.label}
              </SiteLink>
            </li>
          ))}
          <li className="px-3 py-2 text-xs text-slate-500">More tools coming soon</li>
        </ul>
        <AccountLink user={user} className="mt-3 w-full justify-center" />
      </nav>
    </header>
  );
}
