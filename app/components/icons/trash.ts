import * as lucide from "lucide-react/icons/trash";
import { svgIcon, type LucideIconModule } from "./svg-icon.ts";

export const Trash2 = /* @__PURE__ */ svgIcon((lucide as unknown as LucideIconModule).__iconData);
