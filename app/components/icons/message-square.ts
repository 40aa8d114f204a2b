import * as lucide from "lucide-react/icons/message-square";
import { svgIcon, type LucideIconModule } from "./svg-icon.ts";

export const MessageSquare = /* @__PURE__ */ svgIcon((lucide as unknown as LucideIconModule).__iconData);
