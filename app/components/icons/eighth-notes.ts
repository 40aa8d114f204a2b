import * as lucide from "lucide-react/icons/eighth-notes";
import { svgIcon, type LucideIconModule } from "./svg-icon.ts";

export const Music = /* @__PURE__ */ svgIcon((lucide as unknown as LucideIconModule).__iconData);
