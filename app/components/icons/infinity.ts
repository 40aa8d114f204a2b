import * as lucide from "lucide-react/icons/infinity";
import { svgIcon, type LucideIconModule } from "./svg-icon.ts";

export const InfinityIcon = /* @__PURE__ */ svgIcon((lucide as unknown as LucideIconModule).__iconData);
