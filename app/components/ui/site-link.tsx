import { forwardRef, useEffect, useRef, useState, type AnchorHTMLAttributes, type MouseEvent } from "react";
import { PrefetchPageLinks, useNavigate } from "react-router";

export interface SiteLinkProps extends Omit<AnchorHTMLAttributes<HTMLAnchorElement>, "href"> {
  /** a page of this site by its absolute path, with any query or fragment: "/faq", "/blog?tag=x" */
  to: `/${string}`;
}

/** A plain left click without modifier keys, on a link that opens in this tab: the router takes it. */
function isRouterClick(event: MouseEvent<HTMLAnchorElement>, target: string | undefined): boolean {
  return !event.defaultPrevented && event.button === 0 && (!target || target === "_self") && !(event.metaKey || event.altKey || event.ctrlKey || event.shiftKey);
}

/**
 * A link to a page of this site, for the site's navigation (header, footer, menus): the
 * browser's link, and React Router's client-side navigation on a plain click, as `<Link>`
 * does. It renders with one hook where `<Link>` resolves its path against the route tree on
 * every render (about 20 hooks per link: 7% of the CPU of a home-page render, which has ~50 links;
 * docs/decisions/028). For prefetching on intent, `IntentSiteLink`; for relative paths, view
 * transitions or navigation state, use `<Link>`.
 */
export const SiteLink = forwardRef<HTMLAnchorElement, SiteLinkProps>(function SiteLink({ to, onClick, target, ...rest }, ref) {
  const navigate = useNavigate();
  return (
    <a
      {...rest}
      ref={ref}
      href={to}
      target={target}
      // React Router's lazy route discovery looks for this attribute, as on its own links
      data-discover="true"
      onClick={(event) => {
        onClick?.(event);
        if (!isRouterClick(event, target)) return;
        event.preventDefault();
        const { pathname, search, hash } = window.location;
        // a link to the page already shown replaces the history entry instead of adding one
        void navigate(to, { replace: to === pathname + search + hash });
      }}
    />
  );
});

/** the caller's own event handler, then ours */
const after =
  <E,>(own: ((event: E) => void) | undefined, then: () => void) =>
  (event: E) => {
    own?.(event);
    then();
  };

/** How long the pointer rests on a link before its page is prefetched (as `<Link prefetch="intent">`). */
const INTENT_DELAY_MS = 100;

/**
 * A SiteLink that fetches its page's modules and data ahead when the visitor shows the intent to
 * follow it (pointer resting on it, keyboard focus, a touch), as `<Link prefetch="intent">` does,
 * for a fraction of its render cost: article cards use it (docs/decisions/030).
 */
export const IntentSiteLink = forwardRef<HTMLAnchorElement, SiteLinkProps>(function IntentSiteLink({ onMouseEnter, onMouseLeave, onFocus, onBlur, onTouchStart, ...props }, ref) {
  const [prefetching, setPrefetching] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const want = (delay: number) => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setPrefetching(true), delay);
  };
  const drop = () => {
    clearTimeout(timer.current);
    setPrefetching(false);
  };
  return (
    <>
      <SiteLink
        {...props}
        ref={ref}
        onMouseEnter={after(onMouseEnter, () => want(INTENT_DELAY_MS))}
        onMouseLeave={after(onMouseLeave, drop)}
        onFocus={after(onFocus, () => want(INTENT_DELAY_MS))}
        onBlur={after(onBlur, drop)}
        onTouchStart={after(onTouchStart, () => want(0))}
      />
      {prefetching ? <PrefetchPageLinks page={props.to} /> : null}
    </>
  );
});
