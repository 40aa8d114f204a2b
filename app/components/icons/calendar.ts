import * as lucide from "lucide-react/icons/calendar";
import { svgIcon, type LucideIconModule } from "./svg-icon.ts";

export const Calendar = /* @__PURE__ */ svgIcon((lucide as unknown as LucideIconModule).__iconData);
