import * as lucide from "lucide-react/icons/x";
import { svgIcon, type LucideIconModule } from "./svg-icon.ts";

export const X = /* @__PURE__ */ svgIcon((lucide as unknown as LucideIconModule).__iconData);
