import * as lucide from "lucide-react/icons/flag";
import { svgIcon, type LucideIconModule } from "./svg-icon.ts";

export const Flag = /* @__PURE__ */ svgIcon((lucide as unknown as LucideIconModule).__iconData);
