import * as lucide from "lucide-react/icons/wifi-off";
import { svgIcon, type LucideIconModule } from "./svg-icon.ts";

export const WifiOff = /* @__PURE__ */ svgIcon((lucide as unknown as LucideIconModule).__iconData);
