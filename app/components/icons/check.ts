import * as lucide from "lucide-react/icons/check";
import { svgIcon, type LucideIconModule } from "./svg-icon.ts";

export const Check = /* @__PURE__ */ svgIcon((lucide as unknown as LucideIconModule).__iconData);
