import * as lucide from "lucide-react/icons/users";
import { svgIcon, type LucideIconModule } from "./svg-icon.ts";

export const Users = /* @__PURE__ */ svgIcon((lucide as unknown as LucideIconModule).__iconData);
