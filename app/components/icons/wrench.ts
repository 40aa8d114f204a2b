import * as lucide from "lucide-react/icons/wrench";
import { svgIcon, type LucideIconModule } from "./svg-icon.ts";

export const Wrench = /* @__PURE__ */ svgIcon((lucide as unknown as LucideIconModule).__iconData);
