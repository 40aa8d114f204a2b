import * as lucide from "lucide-react/icons/loader-circle";
import { svgIcon, type LucideIconModule } from "./svg-icon.ts";

export const LoaderCircle = /* @__PURE__ */ svgIcon((lucide as unknown as LucideIconModule).__iconData);
