import * as lucide from "lucide-react/icons/circle-check";
import { svgIcon, type LucideIconModule } from "./svg-icon.ts";

export const CheckCircle2 = /* @__PURE__ */ svgIcon((lucide as unknown as LucideIconModule).__iconData);
