import * as lucide from "lucide-react/icons/gauge";
import { svgIcon, type LucideIconModule } from "./svg-icon.ts";

export const Gauge = /* @__PURE__ */ svgIcon((lucide as unknown as LucideIconModule).__iconData);
