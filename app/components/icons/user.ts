import * as lucide from "lucide-react/icons/user";
import { svgIcon, type LucideIconModule } from "./svg-icon.ts";

export const User = /* @__PURE__ */ svgIcon((lucide as unknown as LucideIconModule).__iconData);
