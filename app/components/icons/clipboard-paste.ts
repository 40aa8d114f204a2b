import * as lucide from "lucide-react/icons/clipboard-paste";
import { svgIcon, type LucideIconModule } from "./svg-icon.ts";

export const ClipboardPaste = /* @__PURE__ */ svgIcon((lucide as unknown as LucideIconModule).__iconData);
