import * as lucide from "lucide-react/icons/image-off";
import { svgIcon, type LucideIconModule } from "./svg-icon.ts";

export const ImageOff = /* @__PURE__ */ svgIcon((lucide as unknown as LucideIconModule).__iconData);
