import * as lucide from "lucide-react/icons/badge-dollar-sign";
import { svgIcon, type LucideIconModule } from "./svg-icon.ts";

export const BadgeDollarSign = /* @__PURE__ */ svgIcon((lucide as unknown as LucideIconModule).__iconData);
