import * as lucide from "lucide-react/icons/arrow-left";
import { svgIcon, type LucideIconModule } from "./svg-icon.ts";

export const ArrowLeft = /* @__PURE__ */ svgIcon((lucide as unknown as LucideIconModule).__iconData);
