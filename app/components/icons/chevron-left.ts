import * as lucide from "lucide-react/icons/chevron-left";
import { svgIcon, type LucideIconModule } from "./svg-icon.ts";

export const ChevronLeft = /* @__PURE__ */ svgIcon((lucide as unknown as LucideIconModule).__iconData);
