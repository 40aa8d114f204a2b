import * as lucide from "lucide-react/icons/arrow-right";
import { svgIcon, type LucideIconModule } from "./svg-icon.ts";

export const ArrowRight = /* @__PURE__ */ svgIcon((lucide as unknown as LucideIconModule).__iconData);
