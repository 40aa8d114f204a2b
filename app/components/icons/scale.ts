import * as lucide from "lucide-react/icons/scale";
import { svgIcon, type LucideIconModule } from "./svg-icon.ts";

export const Scale = /* @__PURE__ */ svgIcon((lucide as unknown as LucideIconModule).__iconData);
