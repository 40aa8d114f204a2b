import * as lucide from "lucide-react/icons/server";
import { svgIcon, type LucideIconModule } from "./svg-icon.ts";

export const Server = /* @__PURE__ */ svgIcon((lucide as unknown as LucideIconModule).__iconData);
