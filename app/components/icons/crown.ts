import * as lucide from "lucide-react/icons/crown";
import { svgIcon, type LucideIconModule } from "./svg-icon.ts";

export const Crown = /* @__PURE__ */ svgIcon((lucide as unknown as LucideIconModule).__iconData);
