import * as lucide from "lucide-react/icons/heart";
import { svgIcon, type LucideIconModule } from "./svg-icon.ts";

export const Heart = /* @__PURE__ */ svgIcon((lucide as unknown as LucideIconModule).__iconData);
