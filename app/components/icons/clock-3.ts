import * as lucide from "lucide-react/icons/clock-3";
import { svgIcon, type LucideIconModule } from "./svg-icon.ts";

export const Clock3 = /* @__PURE__ */ svgIcon((lucide as unknown as LucideIconModule).__iconData);
