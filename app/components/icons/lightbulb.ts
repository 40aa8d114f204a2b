import * as lucide from "lucide-react/icons/lightbulb";
import { svgIcon, type LucideIconModule } from "./svg-icon.ts";

export const Lightbulb = /* @__PURE__ */ svgIcon((lucide as unknown as LucideIconModule).__iconData);
