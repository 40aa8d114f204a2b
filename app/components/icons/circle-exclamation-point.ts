import * as lucide from "lucide-react/icons/circle-exclamation-point";
import { svgIcon, type LucideIconModule } from "./svg-icon.ts";

export const CircleAlert = /* @__PURE__ */ svgIcon((lucide as unknown as LucideIconModule).__iconData);
