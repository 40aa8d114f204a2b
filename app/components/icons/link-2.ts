import * as lucide from "lucide-react/icons/link-2";
import { svgIcon, type LucideIconModule } from "./svg-icon.ts";

export const Link2 = /* @__PURE__ */ svgIcon((lucide as unknown as LucideIconModule).__iconData);
