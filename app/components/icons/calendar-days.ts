import * as lucide from "lucide-react/icons/calendar-days";
import { svgIcon, type LucideIconModule } from "./svg-icon.ts";

export const CalendarDays = /* @__PURE__ */ svgIcon((lucide as unknown as LucideIconModule).__iconData);
