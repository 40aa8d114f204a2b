import * as lucide from "lucide-react/icons/thumbs-up";
import { svgIcon, type LucideIconModule } from "./svg-icon.ts";

export const ThumbsUp = /* @__PURE__ */ svgIcon((lucide as unknown as LucideIconModule).__iconData);
