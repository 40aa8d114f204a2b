import * as lucide from "lucide-react/icons/wifi";
import { svgIcon, type LucideIconModule } from "./svg-icon.ts";

export const Wifi = /* @__PURE__ */ svgIcon((lucide as unknown as LucideIconModule).__iconData);
