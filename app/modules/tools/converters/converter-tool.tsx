import { useEffect, useId, useState } from "react";
import { Button } from "#app/components/ui/button.tsx";
import { Label } from "#app/components/ui/label.tsx";
import { callMedia } from "../media/media-client.ts";
import { formatFileSize, formatTime, outputFileName, parseTime } from "../media/media-format.ts";
import { MEDIA_ACCEPT } from "../media/media-tools.tsx";
import { FilePicker } from "../shared/file-picker.tsx";
import { ProgressPanel } from "../shared/progress-panel.tsx";
import { ResultDownload, type ToolResult } from "../shared/result-download.tsx";
import { TimeField } from "../shared/time-field.tsx";
import { ToolAlert, ToolCard } from "../shared/tool-page.tsx";
import { MAX_OUTPUT_SOURCE_BYTES, TOO_LARGE_FOR_MEMORY_NOTE, TOO_LARGE_TO_WRITE, TOOL_ERROR_MESSAGES, toolErrorMessage } from "../shared/tool-errors.ts";
import { useToolTask } from "../shared/use-tool-task.ts";
import { GIF_FRAME_RATES, GIF_WIDTHS, HEIGHTS, MAX_ANIMATION_SECONDS, QUALITIES, TARGETS, findTarget, type HeightChoice, type QualityChoice, type TargetId } from "./convert-targets.ts";
import { canSaveToDisk, pickSaveFile } from "./save-to-disk.ts";

const selectClass = "mt-1 h-10 w-full rounded-md border border-slate-300 bg-white px-2 text-sm";

export function ConverterTool() {
  const [file, setFile] = useState<File | null>(null);
  const [duration, setDuration] = useState<number | null>(null);
  const [target, setTarget] = useState<TargetId>("webm");
  const [height, setHeight] = useState<HeightChoice>("source");
  const [quality, setQuality] = useState<QualityChoice>("medium");
  const [start, setStart] = useState("");
  const [end, setEnd] = useState("");
  const [gifFps, setGifFps] = useState(10);
  const [gifWidth, setGifWidth] = useState(480);
  const [result, setResult] = useState<ToolResult | null>(null);
  const [saved, setSaved] = useState<{ name: string; size: number } | null>(null);
  // known only in the browser (not during server rendering)
  const [diskSave, setDiskSave] = useState(false);
  useEffect(() => setDiskSave(canSaveToDisk()), []);
  const probe = useToolTask();
  const task = useToolTask();
  const ids = { target: useId(), height: useId(), quality: useId(), fps: useId(), width: useId() };
  const spec = findTarget(target)!;

  const pick = async (f: File) => {
    setFile(f);
    setResult(null);
    setSaved(null);
    setDuration(null);
    task.fail(null);
    const info = await probe.run(() => callMedia("info", { file: f }));
    if (info) setDuration(info.durationSeconds);
    // say it now rather than after the visitor has picked a format (the worker refuses it too)
    if (info && f.size > MAX_OUTPUT_SOURCE_BYTES && !canSaveToDisk()) task.fail(TOO_LARGE_TO_WRITE);
  };
  // where a save dialog exists, a file too large for memory is converted only through it
  const tooLargeForMemory = diskSave && file !== null && file.size > MAX_OUTPUT_SOURCE_BYTES;

  /** In memory (a download link at the end), or, in browsers that can, straight into a file the visitor picks first. */
  const convert = async (toDisk: boolean) => {
    if (!file || duration === null) return;
    const s = start.trim() === "" ? null : parseTime(start);
    const e = end.trim() === "" ? null : parseTime(end);
    if ((start.trim() !== "" && s === null) || (end.trim() !== "" && e === null) || (s !== null && e !== null && e <= s)) {
      task.fail(TOOL_ERROR_MESSAGES["tool.bad_time"]);
      return;
    }
    setResult(null);
    setSaved(null);
    const suffix = spec.video && !spec.needsRange && height !== "source" ? ` (${height}p)` : "";
    const name = outputFileName(file.name, suffix, spec.extension);
    let saveTo: FileSystemFileHandle | undefined;
    if (toDisk) {
      try {
        saveTo = await pickSaveFile(name, spec);
      } catch (err) {
        task.fail(toolErrorMessage(err));
        return;
      }
    }
    const written = await task.run((opts) => callMedia("convert", { file, target, settings: { height, quality, start: s, end: e, gifFps, gifWidth }, saveTo }, opts));
    if (written?.kind === "blob") setResult({ blob: written.blob, name });
    if (written?.kind === "file") setSaved({ name: written.name, size: written.size });
  };

  return (
    <div className="space-y-6">
      <ToolCard id="convert-file" title="1. Your file">
        <FilePicker label="Video or audio file" accept={MEDIA_ACCEPT} file={file} onFile={pick} />
        {probe.running ? <p className="mt-3 text-sm text-slate-700" role="status">Reading the file…</p> : null}
        {duration !== null ? <p className="mt-3 text-sm text-slate-700">Duration: {formatTime(duration)}</p> : null}
        <ToolAlert>{probe.error}</ToolAlert>
      </ToolCard>

      <ToolCard id="convert-settings" title="2. Format and settings">
        <form
          className="grid gap-4 sm:grid-cols-2"
          onSubmit={(ev) => {
            ev.preventDefault();
            if (!tooLargeForMemory) void convert(false);
          }}
        >
          <div>
            <Label htmlFor={ids.target}>Convert to</Label>
            <select id={ids.target} value={target} onChange={(ev) => setTarget(ev.target.value as TargetId)} className={selectClass}>
              {TARGETS.map((t) => (
                <option key={t.id} value={t.id}>
                  {t.label}
                </option>
              ))}
            </select>
          </div>
          {spec.video && !spec.needsRange ? (
            <div>
              <Label htmlFor={ids.height}>Resolution</Label>
              <select id={ids.height} value={height} onChange={(ev) => setHeight(ev.target.value as HeightChoice)} className={selectClass}>
                {HEIGHTS.map((h) => (
                  <option key={h} value={h}>
                    {h === "source" ? "Same as the original" : `${h}p (never larger than the original)`}
                  </option>
                ))}
              </select>
            </div>
          ) : null}
          {spec.needsRange ? (
            <>
              <div>
                <Label htmlFor={ids.width}>Width</Label>
                <select id={ids.width} value={gifWidth} onChange={(ev) => setGifWidth(Number(ev.target.value))} className={selectClass}>
                  {GIF_WIDTHS.map((w) => (
                    <option key={w} value={w}>
                      {w} px
                    </option>
                  ))}
                </select>
              </div>
              <div>
                <Label htmlFor={ids.fps}>Frames per second</Label>
                <select id={ids.fps} value={gifFps} onChange={(ev) => setGifFps(Number(ev.target.value))} className={selectClass}>
                  {GIF_FRAME_RATES.map((f) => (
                    <option key={f} value={f}>
                      {f}
                    </option>
                  ))}
                </select>
              </div>
            </>
          ) : null}
          {target !== "gif" ? (
            <div>
              <Label htmlFor={ids.quality}>Quality</Label>
              <select id={ids.quality} value={quality} onChange={(ev) => setQuality(ev.target.value as QualityChoice)} className={selectClass}>
                {QUALITIES.map((q) => (
                  <option key={q} value={q}>
                    {q === "low" ? "Low (smallest file)" : q === "medium" ? "Medium" : "High (largest file)"}
                  </option>
                ))}
              </select>
            </div>
          ) : null}
          <fieldset className="sm:col-span-2">
            <legend className="text-sm font-medium text-slate-800">
              Range {spec.needsRange ? `(at most ${MAX_ANIMATION_SECONDS} seconds; empty = from the start)` : "(optional; empty = the whole file)"}
            </legend>
            <div className="mt-1 grid grid-cols-2 gap-3">
              <TimeField label="From" value={start} onChange={setStart} />
              <TimeField label="To" value={end} onChange={setEnd} />
            </div>
          </fieldset>
          <div className="flex flex-wrap gap-3 sm:col-span-2">
            <Button type="submit" disabled={!file || duration === null || task.running || tooLargeForMemory}>
              Convert
            </Button>
            {diskSave ? (
              <Button type="button" variant="outline" disabled={!file || duration === null || task.running} onClick={() => void convert(true)}>
                Convert and save to a file…
              </Button>
            ) : null}
          </div>
          {diskSave ? (
            <p className="text-sm text-slate-600 sm:col-span-2">
              &ldquo;Convert and save to a file&rdquo; asks where to save first, then writes the result straight to your disk as it is made: it works for files of any size.
            </p>
          ) : null}
          {tooLargeForMemory ? (
            <p role="status" className="rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900 sm:col-span-2">
              {TOO_LARGE_FOR_MEMORY_NOTE}
            </p>
          ) : null}
        </form>
        {task.running ? <ProgressPanel label={`Converting to ${spec.label}`} progress={task.progress} startedAt={task.startedAt} onCancel={task.cancel} /> : null}
        <ToolAlert>{task.error}</ToolAlert>
      </ToolCard>

      {saved ? (
        <ToolCard id="convert-result" title="3. Saved">
          <p role="status" data-testid="tool-saved" className="text-sm text-slate-800">
            Saved {saved.name} ({formatFileSize(saved.size)}) where you chose.
          </p>
        </ToolCard>
      ) : null}
      {result ? (
        <ToolCard id="convert-result" title="3. Save the result">
          <ResultDownload result={result} preview={spec.needsRange ? "image" : spec.video ? "video" : "audio"} />
        </ToolCard>
      ) : null}
    </div>
  );
}
