import * as lucide from "lucide-react/icons/copy";
import { svgIcon, type LucideIconModule } from "./svg-icon.ts";

export const Copy = /* @__PURE__ */ svgIcon((lucide as unknown as LucideIconModule).__iconData);
