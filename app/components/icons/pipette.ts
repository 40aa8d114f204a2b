import * as lucide from "lucide-react/icons/pipette";
import { svgIcon, type LucideIconModule } from "./svg-icon.ts";

export const Pipette = /* @__PURE__ */ svgIcon((lucide as unknown as LucideIconModule).__iconData);
