import * as lucide from "lucide-react/icons/image";
import { svgIcon, type LucideIconModule } from "./svg-icon.ts";

export const ImageIcon = /* @__PURE__ */ svgIcon((lucide as unknown as LucideIconModule).__iconData);
