import * as lucide from "lucide-react/icons/lock";
import { svgIcon, type LucideIconModule } from "./svg-icon.ts";

export const Lock = /* @__PURE__ */ svgIcon((lucide as unknown as LucideIconModule).__iconData);
