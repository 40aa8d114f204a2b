import type { Route } from "./+types/tools-colors";
import { ColorPicker } from "#app/modules/tools/colors/color-picker.tsx";
import { ToolPage } from "#app/modules/tools/shared/tool-page.tsx";
import { toolMeta } from "#app/modules/tools/shared/tool-meta.ts";

export const meta: Route.MetaFunction = ({ matches }) => toolMeta(matches, "/tools/colors", "Color Picker");

export default function ToolsColors() {
  return (
    <ToolPage
      title="Color Picker"
      intro="Pick a colour from a palette, from an image or from anywhere on your screen, copy it in every CSS notation, check the contrast of text on a background, and build matching palettes."
      howTo={[
        "Pick a swatch, use the colour wheel, type any CSS colour, or open an image and click a pixel.",
        "Copy the notation you need: HEX, RGB, HSL, HWB, OKLCH or CMYK.",
        "In the contrast checker, set the text and background colours and read the AA and AAA verdicts.",
        "Click a swatch in Palettes to continue from that colour.",
      ]}
      about={
        <>
          <p>
            Conversions use the culori colour library in your browser; images you open are drawn on this page only and never uploaded. The contrast
            ratio follows WCAG 2 and is shown cut (not rounded) to two decimals, so a colour pair never looks like it passes when it does not.
          </p>
          <p>OKLCH is perceptually even: the shade ramp keeps the hue while lightness steps evenly.</p>
        </>
      }
    >
      <ColorPicker />
    </ToolPage>
  );
}
