import * as lucide from "lucide-react/icons/download";
import { svgIcon, type LucideIconModule } from "./svg-icon.ts";

export const Download = /* @__PURE__ */ svgIcon((lucide as unknown as LucideIconModule).__iconData);
