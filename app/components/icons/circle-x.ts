import * as lucide from "lucide-react/icons/circle-x";
import { svgIcon, type LucideIconModule } from "./svg-icon.ts";

export const CircleX = /* @__PURE__ */ svgIcon((lucide as unknown as LucideIconModule).__iconData);
