import * as lucide from "lucide-react/icons/log-out";
import { svgIcon, type LucideIconModule } from "./svg-icon.ts";

export const LogOut = /* @__PURE__ */ svgIcon((lucide as unknown as LucideIconModule).__iconData);
