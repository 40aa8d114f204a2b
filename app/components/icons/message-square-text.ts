import * as lucide from "lucide-react/icons/message-square-text";
import { svgIcon, type LucideIconModule } from "./svg-icon.ts";

export const MessageSquareText = /* @__PURE__ */ svgIcon((lucide as unknown as LucideIconModule).__iconData);
