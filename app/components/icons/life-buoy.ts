import * as lucide from "lucide-react/icons/life-buoy";
import { svgIcon, type LucideIconModule } from "./svg-icon.ts";

export const LifeBuoy = /* @__PURE__ */ svgIcon((lucide as unknown as LucideIconModule).__iconData);
