import * as lucide from "lucide-react/icons/send";
import { svgIcon, type LucideIconModule } from "./svg-icon.ts";

export const Send = /* @__PURE__ */ svgIcon((lucide as unknown as LucideIconModule).__iconData);
