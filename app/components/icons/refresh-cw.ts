import * as lucide from "lucide-react/icons/refresh-cw";
import { svgIcon, type LucideIconModule } from "./svg-icon.ts";

export const RefreshCw = /* @__PURE__ */ svgIcon((lucide as unknown as LucideIconModule).__iconData);
