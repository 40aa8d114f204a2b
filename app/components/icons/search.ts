import * as lucide from "lucide-react/icons/search";
import { svgIcon, type LucideIconModule } from "./svg-icon.ts";

export const Search = /* @__PURE__ */ svgIcon((lucide as unknown as LucideIconModule).__iconData);
