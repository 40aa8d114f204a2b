import * as lucide from "lucide-react/icons/film";
import { svgIcon, type LucideIconModule } from "./svg-icon.ts";

export const Film = /* @__PURE__ */ svgIcon((lucide as unknown as LucideIconModule).__iconData);
