import * as lucide from "lucide-react/icons/chevron-down";
import { svgIcon, type LucideIconModule } from "./svg-icon.ts";

export const ChevronDown = /* @__PURE__ */ svgIcon((lucide as unknown as LucideIconModule).__iconData);
