import * as lucide from "lucide-react/icons/upload";
import { svgIcon, type LucideIconModule } from "./svg-icon.ts";

export const Upload = /* @__PURE__ */ svgIcon((lucide as unknown as LucideIconModule).__iconData);
