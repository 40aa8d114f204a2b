/**
 * The site's icons: lucide's drawings, rendered as one `<svg>` element whose inner markup is a
 * string made once per icon. lucide-react's own components rebuild their attributes and child
 * elements on every render (about 110 of the home page's ~560 elements were icon shapes); here
 * React renders one element per icon, on the server and when hydrating (docs/decisions/028).
 * The markup is lucide's: the same attributes, class names and `aria-hidden` rule.
 */
import { createElement, forwardRef, type ForwardRefExoticComponent, type RefAttributes, type SVGProps } from "react";

export interface IconData {
  name: string;
  node: readonly (readonly [tag: string, attrs: Readonly<Record<string, string | number>>])[];
  aliases?: readonly string[];
}

/** What a lucide icon module exports besides its component (its published types name only the component). */
export interface LucideIconModule {
  __iconData: IconData;
}

export interface IconProps extends Omit<SVGProps<SVGSVGElement>, "ref" | "children" | "dangerouslySetInnerHTML"> {
  size?: number | string;
}

export type Icon = ForwardRefExoticComponent<IconProps & RefAttributes<SVGSVGElement>>;

const escapeAttribute = (value: string) => value.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");

/** The inner markup of an icon: its shapes, with lucide's React keys left out. */
export function iconMarkup(node: IconData["node"]): string {
  return node
    .map(([tag, attrs]) => {
      const list = Object.entries(attrs)
        .filter(([name]) => name !== "key")
        .map(([name, value]) => ` ${name}="${escapeAttribute(String(value))}"`)
        .join("");
      return `<${tag}${list}></${tag}>`;
    })
    .join("");
}

/** lucide hides an icon from assistive technology unless it is given a label, a role or a title. */
function labelled(props: Record<string, unknown>): boolean {
  for (const key in props) if ((key.startsWith("aria-") || key === "role" || key === "title") && props[key] != null) return true;
  return false;
}

/** An icon component from the drawing a lucide icon module exports (`lucide-react/icons/<name>`). */
export function svgIcon(data: IconData): Icon {
  const inner = { __html: iconMarkup(data.node) };
  const classes = ["lucide", `lucide-${data.name}`, ...(data.aliases ?? []).map((alias) => `lucide-${alias}`)].join(" ");
  const component = forwardRef<SVGSVGElement, IconProps>(function SvgIcon({ size = 24, strokeWidth = 2, color = "currentColor", className, ...rest }, ref) {
    return createElement("svg", {
      ref,
      xmlns: "http://www.w3.org/2000/svg",
      width: size,
      height: size,
      viewBox: "0 0 24 24",
      fill: "none",
      stroke: color,
      strokeWidth,
      strokeLinecap: "round",
      strokeLinejoin: "round",
      className: className ? `${classes} ${className}` : classes,
      "aria-hidden": labelled(rest) ? undefined : "true",
      ...rest,
      dangerouslySetInnerHTML: inner,
    });
  });
  component.displayName = data.name;
  return component;
}
