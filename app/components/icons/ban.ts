import * as lucide from "lucide-react/icons/ban";
import { svgIcon, type LucideIconModule } from "./svg-icon.ts";

export const Ban = /* @__PURE__ */ svgIcon((lucide as unknown as LucideIconModule).__iconData);
