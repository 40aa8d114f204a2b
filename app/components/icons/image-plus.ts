import * as lucide from "lucide-react/icons/image-plus";
import { svgIcon, type LucideIconModule } from "./svg-icon.ts";

export const ImagePlus = /* @__PURE__ */ svgIcon((lucide as unknown as LucideIconModule).__iconData);
