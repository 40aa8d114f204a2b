import * as lucide from "lucide-react/icons/clock";
import { svgIcon, type LucideIconModule } from "./svg-icon.ts";

export const Clock = /* @__PURE__ */ svgIcon((lucide as unknown as LucideIconModule).__iconData);
