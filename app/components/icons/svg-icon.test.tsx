import { renderToStaticMarkup } from "react-dom/server";
import { createElement, type ComponentType } from "react";
import { describe, expect, it } from "vitest";
import * as lucide from "lucide-react";
import * as icons from "../icons.ts";
import { iconMarkup, svgIcon } from "./svg-icon.ts";

// lucide's own components, under the names the site uses
const lucideName: Record<string, string> = { ImageIcon: "Image", InfinityIcon: "Infinity" };
const render = (component: unknown, props: Record<string, unknown> = {}) => renderToStaticMarkup(createElement(component as ComponentType, props));

describe("site icons", () => {
  const names = Object.keys(icons).filter((k) => typeof (icons as Record<string, unknown>)[k] === "object");

  it("export every icon the site imports", () => {
    expect(names.length).toBeGreaterThan(60);
  });

  it.each([
    {},
    { className: "size-5 text-brand-600" },
    { size: 16, strokeWidth: 1.5 },
    { "aria-label": "Download" },
    { role: "img", title: "x" },
    { color: "red", "data-x": "1" },
  ])("draw the same markup as lucide-react's components (props %j)", (props) => {
    for (const name of names) {
      const ours = render((icons as Record<string, unknown>)[name], props);
      const theirs = render((lucide as Record<string, unknown>)[lucideName[name] ?? name], props);
      expect(ours, name).toBe(theirs);
    }
  });

  it("escape attribute values in the inner markup", () => {
    expect(iconMarkup([["path", { d: 'a"<&', key: "k" }]])).toBe('<path d="a&quot;&lt;&amp;"></path>');
    const Custom = svgIcon({ name: "custom", node: [["circle", { cx: 1, cy: 2, r: 3, key: "c" }]], aliases: ["round"] });
    expect(render(Custom)).toContain('class="lucide lucide-custom lucide-round"');
    expect(render(Custom)).toContain('<circle cx="1" cy="2" r="3"></circle>');
  });
});
