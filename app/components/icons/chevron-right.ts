import * as lucide from "lucide-react/icons/chevron-right";
import { svgIcon, type LucideIconModule } from "./svg-icon.ts";

export const ChevronRight = /* @__PURE__ */ svgIcon((lucide as unknown as LucideIconModule).__iconData);
