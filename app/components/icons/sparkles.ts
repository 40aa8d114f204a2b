import * as lucide from "lucide-react/icons/sparkles";
import { svgIcon, type LucideIconModule } from "./svg-icon.ts";

export const Sparkles = /* @__PURE__ */ svgIcon((lucide as unknown as LucideIconModule).__iconData);
