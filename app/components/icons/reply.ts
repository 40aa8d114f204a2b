import * as lucide from "lucide-react/icons/reply";
import { svgIcon, type LucideIconModule } from "./svg-icon.ts";

export const Reply = /* @__PURE__ */ svgIcon((lucide as unknown as LucideIconModule).__iconData);
