import * as lucide from "lucide-react/icons/eye";
import { svgIcon, type LucideIconModule } from "./svg-icon.ts";

export const Eye = /* @__PURE__ */ svgIcon((lucide as unknown as LucideIconModule).__iconData);
