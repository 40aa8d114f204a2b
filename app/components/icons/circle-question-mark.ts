import * as lucide from "lucide-react/icons/circle-question-mark";
import { svgIcon, type LucideIconModule } from "./svg-icon.ts";

export const HelpCircle = /* @__PURE__ */ svgIcon((lucide as unknown as LucideIconModule).__iconData);
