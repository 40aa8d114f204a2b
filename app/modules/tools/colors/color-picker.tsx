import { Pipette } from "#app/components/icons.ts";
import { useEffect, useId, useRef, useState, type KeyboardEvent, type PointerEvent } from "react";
import { Button } from "#app/components/ui/button.tsx";
import { Input } from "#app/components/ui/input.tsx";
import { Label } from "#app/components/ui/label.tsx";
import { formatFileSize } from "../media/media-format.ts";
import { CopyButton } from "../shared/copy-button.tsx";
import { FilePicker } from "../shared/file-picker.tsx";
import { ToolAlert, ToolCard } from "../shared/tool-page.tsx";
import { colorFormats, contrast, hexFromBytes, palettes, parseToHex, type ColorFormats, type Hex } from "./color-formats.ts";

const PRESETS: [string, Hex][] = [
  ["Red", "#ef4444"], ["Orange", "#f97316"], ["Amber", "#f59e0b"], ["Yellow", "#eab308"], ["Lime", "#84cc16"], ["Green", "#22c55e"],
  ["Emerald", "#10b981"], ["Teal", "#14b8a6"], ["Cyan", "#06b6d4"], ["Sky", "#0ea5e9"], ["Blue", "#3b82f6"], ["Indigo", "#6366f1"],
  ["Violet", "#8b5cf6"], ["Purple", "#a855f7"], ["Fuchsia", "#d946ef"], ["Pink", "#ec4899"], ["Rose", "#f43f5e"], ["Brown", "#92400e"],
  ["Black", "#000000"], ["Dark grey", "#374151"], ["Grey", "#6b7280"], ["Light grey", "#d1d5db"], ["Off-white", "#f9fafb"], ["White", "#ffffff"],
];

const FORMAT_LABELS: [keyof ColorFormats, string][] = [
  ["hex", "HEX"], ["rgb", "RGB"], ["hsl", "HSL"], ["hwb", "HWB"], ["oklch", "OKLCH"], ["cmyk", "CMYK"],
];

interface EyeDropperLike {
  open(): Promise<{ sRGBHex: string }>;
}

export function ColorPicker() {
  const [color, setColor] = useState<Hex>("#3366cc");
  const formats = colorFormats(color);
  return (
    <div className="space-y-6">
      <div className="grid gap-6 lg:grid-cols-[1fr_1fr]">
        <ToolCard id="color-pick" title="Pick a colour">
          <PalettePicker color={color} onPick={setColor} />
        </ToolCard>
        <ToolCard id="color-values" title="Colour values">
          <div className="flex items-center gap-4">
            <div className="size-20 shrink-0 rounded-xl border border-slate-300" style={{ backgroundColor: color }} role="img" aria-label={`Current colour ${color}`} />
            <p className="text-sm text-slate-600">Copy any notation. OKLCH and HWB are CSS Color 4; CMYK is the plain conversion without a print profile.</p>
          </div>
          <table className="mt-4 w-full text-sm">
            <tbody>
              {FORMAT_LABELS.map(([key, label]) => (
                <tr key={key} className="border-t border-slate-100">
                  <th scope="row" className="w-20 py-2 text-left font-medium text-slate-700">
                    {label}
                  </th>
                  <td className="py-2 font-mono break-all text-slate-900" data-testid={`color-${key}`}>
                    {formats[key]}
                  </td>
                  <td className="py-2 text-right">
                    <CopyButton value={formats[key]} label={`Copy ${label}`} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </ToolCard>
      </div>
      <ImagePicker onPick={setColor} />
      <ContrastChecker foreground={color} />
      <PaletteList color={color} onPick={setColor} />
    </div>
  );
}

function PalettePicker({ color, onPick }: { color: Hex; onPick: (c: Hex) => void }) {
  const [typed, setTyped] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [eyeDropper, setEyeDropper] = useState<boolean | null>(null);
  const ids = { native: useId(), typed: useId() };
  useEffect(() => setEyeDropper("EyeDropper" in window), []);
  return (
    <>
      <div role="group" aria-label="Palette" className="grid grid-cols-6 gap-2 sm:grid-cols-8">
        {PRESETS.map(([name, hex]) => (
          <button
            key={hex}
            type="button"
            aria-label={`${name} ${hex}`}
            aria-pressed={color === hex}
            onClick={() => onPick(hex)}
            className="aspect-square rounded-md border border-slate-300 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 aria-pressed:ring-2 aria-pressed:ring-brand-600"
            style={{ backgroundColor: hex }}
          />
        ))}
      </div>
      <div className="mt-4 flex flex-wrap items-end gap-3">
        <div>
          <Label htmlFor={ids.native}>Colour wheel</Label>
          <input id={ids.native} type="color" value={color} onChange={(e) => onPick(e.target.value as Hex)} className="mt-1 block h-10 w-16 cursor-pointer rounded border border-slate-300" />
        </div>
        <form
          className="flex min-w-0 flex-1 items-end gap-2"
          onSubmit={(e) => {
            e.preventDefault();
            const hex = parseToHex(typed);
            if (!hex) {
              setError(`"${typed}" is not a colour. Try #3366cc, rgb(51 102 204), hsl(220 60% 50%), oklch(…) or a name such as tomato.`);
              return;
            }
            setError(null);
            onPick(hex);
          }}
        >
          <div className="min-w-0 flex-1">
            <Label htmlFor={ids.typed}>Any CSS colour</Label>
            <Input id={ids.typed} value={typed} onChange={(e) => setTyped(e.target.value)} placeholder="#3366cc, tomato, oklch(70% 0.1 200)" aria-invalid={error ? true : undefined} className="mt-1 font-mono" />
          </div>
          <Button type="submit" variant="outline">
            Use
          </Button>
        </form>
      </div>
      <ToolAlert>{error}</ToolAlert>
      <div className="mt-4">
        {eyeDropper ? (
          <Button
            type="button"
            variant="secondary"
            onClick={async () => {
              try {
                const picked = await new (window as unknown as { EyeDropper: new () => EyeDropperLike }).EyeDropper().open();
                const hex = parseToHex(picked.sRGBHex);
                if (hex) onPick(hex);
              } catch {
                // Escape closes the eyedropper without a colour: nothing to do
              }
            }}
          >
            <Pipette aria-hidden /> Pick from the screen
          </Button>
        ) : eyeDropper === false ? (
          <p className="text-sm text-slate-600">Picking from anywhere on the screen needs a browser with the EyeDropper API (Chrome, Edge or Opera on a computer).</p>
        ) : null}
      </div>
    </>
  );
}

/** Largest image drawn for picking (pixels); bigger images are scaled down to fit. */
const MAX_IMAGE_PIXELS = 16_000_000;
/**
 * Largest image opened at all. Decoding needs 4 bytes a pixel before it can be scaled down, so a
 * 100-megapixel image already takes 400 MB; a bigger one (or a file past 256 MB) is refused
 * before decoding rather than freezing or crashing the tab.
 */
const MAX_DECODED_PIXELS = 100_000_000;
const MAX_IMAGE_FILE_BYTES = 256_000_000;
const NOT_AN_IMAGE = "This file is not an image your browser can open. Try a PNG, JPEG, WebP, GIF or AVIF image.";

/** An image's pixel size from its header: the browser reads it on load and decodes only when drawn. */
function imageSize(file: File): Promise<{ width: number; height: number }> {
  const url = URL.createObjectURL(file);
  return new Promise<{ width: number; height: number }>((resolve, reject) => {
    const img = new Image();
    img.onload = () => resolve({ width: img.naturalWidth, height: img.naturalHeight });
    img.onerror = () => reject(new Error(NOT_AN_IMAGE));
    img.src = url;
  }).finally(() => URL.revokeObjectURL(url));
}
const LOUPE_RADIUS = 5;
const LOUPE_SCALE = 12;

function ImagePicker({ onPick }: { onPick: (c: Hex) => void }) {
  const [file, setFile] = useState<File | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [cursor, setCursorState] = useState<{ x: number; y: number } | null>(null);
  // the latest position, for key presses that come faster than renders: each arrow moves on
  // from where the one before it left the cursor, and Enter picks where the arrows stopped
  const cursorNow = useRef<{ x: number; y: number } | null>(null);
  const setCursor = (p: { x: number; y: number } | null) => {
    cursorNow.current = p;
    setCursorState(p);
  };
  const [hover, setHover] = useState<Hex | null>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const loupe = useRef<HTMLCanvasElement>(null);

  const load = async (f: File) => {
    setFile(f);
    setError(null);
    setCursor(null);
    if (f.size > MAX_IMAGE_FILE_BYTES) {
      setError(`This file is ${formatFileSize(f.size)}. The colour picker opens image files up to ${MAX_IMAGE_FILE_BYTES / 1e6} MB; save a smaller copy and try that.`);
      setFile(null);
      return;
    }
    try {
      const { width, height } = await imageSize(f);
      if (width * height > MAX_DECODED_PIXELS) {
        setError(
          `This image is ${width} × ${height} pixels (${Math.round((width * height) / 1e6)} megapixels). The colour picker opens images up to ${MAX_DECODED_PIXELS / 1e6} megapixels, so your browser does not run out of memory; save a smaller copy and try that.`,
        );
        setFile(null);
        return;
      }
      const bitmap = await createImageBitmap(f);
      const scale = Math.min(1, Math.sqrt(MAX_IMAGE_PIXELS / (bitmap.width * bitmap.height)));
      const c = canvas.current!;
      c.width = Math.max(1, Math.round(bitmap.width * scale));
      c.height = Math.max(1, Math.round(bitmap.height * scale));
      c.getContext("2d", { willReadFrequently: true })!.drawImage(bitmap, 0, 0, c.width, c.height);
      bitmap.close();
      setCursor({ x: Math.floor(c.width / 2), y: Math.floor(c.height / 2) });
    } catch {
      setError(NOT_AN_IMAGE);
      setFile(null);
    }
  };

  const pixelAt = (x: number, y: number): Hex => {
    const [r, g, b] = canvas.current!.getContext("2d", { willReadFrequently: true })!.getImageData(x, y, 1, 1).data;
    return hexFromBytes(r!, g!, b!);
  };

  // draw the loupe around the cursor: nearest-neighbour zoom of the pixels around it
  useEffect(() => {
    const src = canvas.current;
    const dst = loupe.current;
    if (!src || !dst || !cursor || !file) return;
    const size = (LOUPE_RADIUS * 2 + 1) * LOUPE_SCALE;
    dst.width = size;
    dst.height = size;
    const ctx = dst.getContext("2d")!;
    ctx.imageSmoothingEnabled = false;
    ctx.fillStyle = "#ffffff";
    ctx.fillRect(0, 0, size, size);
    ctx.drawImage(src, cursor.x - LOUPE_RADIUS, cursor.y - LOUPE_RADIUS, LOUPE_RADIUS * 2 + 1, LOUPE_RADIUS * 2 + 1, 0, 0, size, size);
    ctx.strokeStyle = "#ef4444";
    ctx.lineWidth = 2;
    ctx.strokeRect(LOUPE_RADIUS * LOUPE_SCALE, LOUPE_RADIUS * LOUPE_SCALE, LOUPE_SCALE, LOUPE_SCALE);
    setHover(pixelAt(cursor.x, cursor.y));
  }, [cursor, file]);

  const toPixel = (e: PointerEvent<HTMLCanvasElement>) => {
    const c = e.currentTarget;
    const rect = c.getBoundingClientRect();
    return {
      x: Math.min(c.width - 1, Math.max(0, Math.floor(((e.clientX - rect.left) / rect.width) * c.width))),
      y: Math.min(c.height - 1, Math.max(0, Math.floor(((e.clientY - rect.top) / rect.height) * c.height))),
    };
  };

  const onKey = (e: KeyboardEvent<HTMLCanvasElement>) => {
    const cursor = cursorNow.current;
    if (!cursor) return;
    const step = e.shiftKey ? 10 : 1;
    const c = e.currentTarget;
    const moves: Record<string, [number, number]> = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] };
    const move = moves[e.key];
    if (move) {
      e.preventDefault();
      setCursor({ x: Math.min(c.width - 1, Math.max(0, cursor.x + move[0])), y: Math.min(c.height - 1, Math.max(0, cursor.y + move[1])) });
    } else if (e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      onPick(pixelAt(cursor.x, cursor.y));
    }
  };

  return (
    <ToolCard id="color-image" title="Pick from an image" description="Open an image, then click a pixel. With the keyboard: focus the image, move with the arrow keys (Shift for 10 pixels) and press Enter.">
      <FilePicker label="Image file" accept="image/*" file={file} onFile={load} hint="Choose an image or drop it here. It stays on your device." />
      <ToolAlert>{error}</ToolAlert>
      <div className={file ? "mt-4 grid gap-4 md:grid-cols-[1fr_auto]" : "hidden"}>
        <canvas
          ref={canvas}
          tabIndex={0}
          role="img"
          aria-label={cursor ? `Your image. Pixel ${cursor.x}, ${cursor.y} is ${hover ?? ""}. Arrow keys move, Enter picks.` : "Your image"}
          onPointerMove={(e) => setCursor(toPixel(e))}
          onClick={(e) => {
            const p = toPixel(e as unknown as PointerEvent<HTMLCanvasElement>);
            setCursor(p);
            onPick(pixelAt(p.x, p.y));
          }}
          onKeyDown={onKey}
          data-testid="image-canvas"
          className="max-h-[480px] w-full cursor-crosshair rounded-lg border border-slate-300 object-contain focus-visible:outline-2 focus-visible:outline-brand-600"
        />
        <div className="flex flex-col items-center gap-2">
          <canvas ref={loupe} aria-hidden className="size-[132px] rounded-full border-2 border-slate-300" />
          <p className="font-mono text-sm text-slate-800" aria-live="polite">
            {cursor ? `${cursor.x}, ${cursor.y}: ${hover ?? ""}` : ""}
          </p>
        </div>
      </div>
    </ToolCard>
  );
}

function ContrastChecker({ foreground }: { foreground: Hex }) {
  const [fg, setFg] = useState<Hex>(foreground);
  const [bg, setBg] = useState<Hex>("#ffffff");
  useEffect(() => setFg(foreground), [foreground]);
  const r = contrast(fg, bg);
  const verdicts: [string, boolean][] = [
    ["AA normal text (4.5:1)", r.aaNormal],
    ["AA large text (3:1)", r.aaLarge],
    ["AAA normal text (7:1)", r.aaaNormal],
    ["AAA large text (4.5:1)", r.aaaLarge],
  ];
  return (
    <ToolCard id="color-contrast" title="Contrast checker (WCAG 2)" description="Text colour on a background colour. Large text is 24 px, or 18.66 px bold.">
      <div className="grid gap-4 sm:grid-cols-[auto_1fr]">
        <div className="space-y-3">
          <ColorField label="Text colour" value={fg} onChange={setFg} />
          <ColorField label="Background" value={bg} onChange={setBg} />
        </div>
        <div>
          <div className="rounded-lg border border-slate-200 p-4" style={{ color: fg, backgroundColor: bg }}>
            <p className="text-2xl font-semibold">Large sample text</p>
            <p className="text-base">Normal sample text for reading.</p>
          </div>
          <p className="mt-3 text-lg text-slate-900">
            Contrast ratio: <strong data-testid="contrast-ratio">{r.label}</strong>
          </p>
          <ul className="mt-2 grid gap-1 sm:grid-cols-2">
            {verdicts.map(([label, pass]) => (
              <li key={label} className={pass ? "text-emerald-800" : "text-red-800"} data-testid="contrast-verdict">
                {pass ? "Pass" : "Fail"}: {label}
              </li>
            ))}
          </ul>
        </div>
      </div>
    </ToolCard>
  );
}

function ColorField({ label, value, onChange }: { label: string; value: Hex; onChange: (c: Hex) => void }) {
  const [text, setText] = useState<string>(value);
  const [invalid, setInvalid] = useState(false);
  const id = useId();
  useEffect(() => {
    setText(value);
    setInvalid(false);
  }, [value]);
  return (
    <div>
      <Label htmlFor={id}>{label}</Label>
      <div className="mt-1 flex items-center gap-2">
        <input type="color" aria-label={`${label} picker`} value={value} onChange={(e) => onChange(e.target.value as Hex)} className="h-10 w-12 cursor-pointer rounded border border-slate-300" />
        <Input
          id={id}
          value={text}
          aria-invalid={invalid || undefined}
          onChange={(e) => {
            setText(e.target.value);
            const hex = parseToHex(e.target.value);
            setInvalid(!hex);
            if (hex) onChange(hex);
          }}
          className="w-40 font-mono"
        />
      </div>
      {invalid ? <p className="mt-1 text-xs text-red-800">Not a colour yet.</p> : null}
    </div>
  );
}

function PaletteList({ color, onPick }: { color: Hex; onPick: (c: Hex) => void }) {
  const p = palettes(color);
  const rows: [string, Hex[]][] = [
    ["Shades", p.shades],
    ["Complementary", p.complementary],
    ["Analogous", p.analogous],
    ["Triadic", p.triadic],
  ];
  return (
    <ToolCard id="color-palettes" title="Palettes" description="Shades keep the hue and step through perceptual lightness (OKLCH); the harmonies turn the HSL colour wheel. Pick a swatch to use it.">
      <div className="space-y-4">
        {rows.map(([name, colors]) => (
          <div key={name} role="group" aria-label={name} data-testid={`palette-${name.toLowerCase()}`}>
            <h3 className="text-sm font-medium text-slate-700">{name}</h3>
            <div className="mt-1 flex flex-wrap gap-2">
              {colors.map((c, i) => (
                <button
                  key={`${c}-${i}`}
                  type="button"
                  onClick={() => onPick(c)}
                  className="flex w-20 flex-col items-center rounded-md border border-slate-200 p-1 text-xs focus-visible:outline-2 focus-visible:outline-brand-600"
                >
                  <span className="block h-10 w-full rounded" style={{ backgroundColor: c }} aria-hidden />
                  <span className="mt-1 font-mono text-slate-800">{c}</span>
                </button>
              ))}
            </div>
          </div>
        ))}
      </div>
    </ToolCard>
  );
}
