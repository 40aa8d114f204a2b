import * as lucide from "lucide-react/icons/file-text";
import { svgIcon, type LucideIconModule } from "./svg-icon.ts";

export const FileText = /* @__PURE__ */ svgIcon((lucide as unknown as LucideIconModule).__iconData);
