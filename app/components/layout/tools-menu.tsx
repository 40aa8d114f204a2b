import { ChevronDown } from "#app/components/icons.ts";
import { useEffect, useId, useRef, useState, type KeyboardEvent } from "react";
import { useLocation } from "react-router";
import { SiteLink } from "#app/components/ui/site-link.tsx";
import { cn } from "#app/lib/cn.ts";
import { TOOLS_LINKS } from "#app/modules/site/page-links.ts";

/** Typeahead letters are forgotten after this pause (the interface default the spec mentions). */
const TYPEAHEAD_RESET_MS = 1000;

/**
 * The header's Tools menu: a WAI-ARIA menu button written for this one use. It replaced a
 * general dropdown library to keep the first page load small (docs/decisions/007). Keyboard:
 * Enter/Space/ArrowDown open on the first item, ArrowUp on the last; ArrowUp/ArrowDown/Home/End
 * move; letters jump; Escape closes and returns focus; Tab or a click outside closes.
 */
export function ToolsMenu({ className, active }: { className: string; active: boolean }) {
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const buttonRef = useRef<HTMLButtonElement>(null);
  const itemRefs = useRef<(HTMLAnchorElement | null)[]>([]);
  const rootRef = useRef<HTMLDivElement>(null);
  const typed = useRef({ text: "", at: 0 });
  const { pathname } = useLocation();

  const focusItem = (index: number) => {
    const count = TOOLS_LINKS.length;
    itemRefs.current[((index % count) + count) % count]?.focus();
  };
  const openAt = (index: number) => {
    setOpen(true);
    // the items exist once the menu renders open
    requestAnimationFrame(() => focusItem(index));
  };
  const close = (returnFocus: boolean) => {
    setOpen(false);
    if (returnFocus) buttonRef.current?.focus();
  };

  useEffect(() => setOpen(false), [pathname]);

  useEffect(() => {
    if (!open) return;
    const onPointerDown = (e: PointerEvent) => {
      if (!rootRef.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener("pointerdown", onPointerDown);
    return () => document.removeEventListener("pointerdown", onPointerDown);
  }, [open]);

  const onButtonKeyDown = (e: KeyboardEvent<HTMLButtonElement>) => {
    if (e.key === "ArrowDown" || e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      openAt(0);
    } else if (e.key === "ArrowUp") {
      e.preventDefault();
      openAt(TOOLS_LINKS.length - 1);
    } else if (e.key === "Escape" && open) {
      close(true);
    }
  };

  const onMenuKeyDown = (e: KeyboardEvent<HTMLUListElement>) => {
    const current = itemRefs.current.indexOf(document.activeElement as HTMLAnchorElement);
    if (e.key === "ArrowDown") focusItem(current + 1);
    else if (e.key === "ArrowUp") focusItem(current - 1);
    else if (e.key === "Home") focusItem(0);
    else if (e.key === "End") focusItem(TOOLS_LINKS.length - 1);
    else if (e.key === "Escape") close(true);
    else if (e.key === "Tab") return setOpen(false);
    else if (e.key.length === 1 && /\S/.test(e.key)) {
      const now = Date.now();
      typed.current = { text: (now - typed.current.at > TYPEAHEAD_RESET_MS ? "" : typed.current.text) + e.key.toLowerCase(), at: now };
      const match = TOOLS_LINKS.findIndex((t) => t.label.toLowerCase().startsWith(typed.current.text));
      if (match >= 0) focusItem(match);
    } else return;
    e.preventDefault();
  };

  return (
    <div ref={rootRef} className="relative">
      <button
        ref={buttonRef}
        type="button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        className={cn(className, "inline-flex items-center gap-1")}
        data-active={active || undefined}
        onClick={() => (open ? close(false) : openAt(0))}
        onKeyDown={onButtonKeyDown}
      >
        Tools <ChevronDown aria-hidden className={cn("size-4 transition-transform", open && "rotate-180")} />
      </button>
      {open ? (
        <ul
          id={menuId}
          role="menu"
          aria-label="Tools"
          onKeyDown={onMenuKeyDown}
          className="absolute right-0 z-50 mt-1.5 min-w-52 rounded-lg border border-slate-200 bg-white p-1 shadow-lg"
        >
          {TOOLS_LINKS.map((t, i) => (
            <li key={t.to} role="none">
              <SiteLink
                ref={(el) => {
                  itemRefs.current[i] = el;
                }}
                to={t.to}
                role="menuitem"
                tabIndex={-1}
                onClick={() => setOpen(false)}
                className="flex items-center gap-2 rounded-md px-3 py-2 text-sm text-slate-800 outline-none hover:bg-brand-50 hover:text-brand-900 focus:bg-brand-50 focus:text-brand-900"
              >
                {t.label}
              </SiteLink>
            </li>
          ))}
          <li role="none" className="mt-1 border-t border-slate-200 px-3 py-2 text-xs text-slate-500">
            More tools coming soon
          </li>
        </ul>
      ) : null}
    </div>
  );
}
