import * as lucide from "lucide-react/icons/layers";
import { svgIcon, type LucideIconModule } from "./svg-icon.ts";

export const Layers = /* @__PURE__ */ svgIcon((lucide as unknown as LucideIconModule).__iconData);
