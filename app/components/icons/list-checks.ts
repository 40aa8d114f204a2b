import * as lucide from "lucide-react/icons/list-checks";
import { svgIcon, type LucideIconModule } from "./svg-icon.ts";

export const ListChecks = /* @__PURE__ */ svgIcon((lucide as unknown as LucideIconModule).__iconData);
