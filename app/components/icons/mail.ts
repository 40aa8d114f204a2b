import * as lucide from "lucide-react/icons/mail";
import { svgIcon, type LucideIconModule } from "./svg-icon.ts";

export const Mail = /* @__PURE__ */ svgIcon((lucide as unknown as LucideIconModule).__iconData);
