import * as lucide from "lucide-react/icons/menu";
import { svgIcon, type LucideIconModule } from "./svg-icon.ts";

export const Menu = /* @__PURE__ */ svgIcon((lucide as unknown as LucideIconModule).__iconData);
