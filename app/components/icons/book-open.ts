import * as lucide from "lucide-react/icons/book-open";
import { svgIcon, type LucideIconModule } from "./svg-icon.ts";

export const BookOpen = /* @__PURE__ */ svgIcon((lucide as unknown as LucideIconModule).__iconData);
