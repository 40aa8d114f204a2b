import * as lucide from "lucide-react/icons/hard-drive-download";
import { svgIcon, type LucideIconModule } from "./svg-icon.ts";

export const HardDriveDownload = /* @__PURE__ */ svgIcon((lucide as unknown as LucideIconModule).__iconData);
