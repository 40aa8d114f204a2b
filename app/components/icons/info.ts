import * as lucide from "lucide-react/icons/info";
import { svgIcon, type LucideIconModule } from "./svg-icon.ts";

export const Info = /* @__PURE__ */ svgIcon((lucide as unknown as LucideIconModule).__iconData);
