import * as lucide from "lucide-react/icons/shield-check";
import { svgIcon, type LucideIconModule } from "./svg-icon.ts";

export const ShieldCheck = /* @__PURE__ */ svgIcon((lucide as unknown as LucideIconModule).__iconData);
