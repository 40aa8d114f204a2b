import * as lucide from "lucide-react/icons/globe";
import { svgIcon, type LucideIconModule } from "./svg-icon.ts";

export const Globe = /* @__PURE__ */ svgIcon((lucide as unknown as LucideIconModule).__iconData);
