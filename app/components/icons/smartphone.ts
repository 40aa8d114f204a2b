import * as lucide from "lucide-react/icons/smartphone";
import { svgIcon, type LucideIconModule } from "./svg-icon.ts";

export const Smartphone = /* @__PURE__ */ svgIcon((lucide as unknown as LucideIconModule).__iconData);
