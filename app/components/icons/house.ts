import * as lucide from "lucide-react/icons/house";
import { svgIcon, type LucideIconModule } from "./svg-icon.ts";

export const Home = /* @__PURE__ */ svgIcon((lucide as unknown as LucideIconModule).__iconData);
