import { useId, useState } from "react";
import { Button } from "#app/components/ui/button.tsx";
import { Label } from "#app/components/ui/label.tsx";
import { FilePicker } from "../shared/file-picker.tsx";
import { ProgressPanel } from "../shared/progress-panel.tsx";
import { ResultDownload, type ToolResult } from "../shared/result-download.tsx";
import { TimeField } from "../shared/time-field.tsx";
import { ToolAlert, ToolCard } from "../shared/tool-page.tsx";
import { TOOL_ERROR_MESSAGES } from "../shared/tool-errors.ts";
import { useToolTask } from "../shared/use-tool-task.ts";
import { codecName, formatBitrate, formatFileSize, formatTime, outputFileName, parseTime } from "./media-format.ts";
import { callMedia } from "./media-client.ts";
import type { MediaInfo } from "./media-io.ts";

export const MEDIA_ACCEPT = "video/*,audio/*,.mkv,.mov,.mp4,.m4a,.webm,.ogg,.opus,.flac,.wav,.mp3,.aac,.ts";

export function MediaTools() {
  const [file, setFile] = useState<File | null>(null);
  const [info, setInfo] = useState<MediaInfo | null>(null);
  const task = useToolTask();

  const pick = async (f: File) => {
    setFile(f);
    setInfo(null);
    const result = await task.run(() => callMedia("info", { file: f }));
    setInfo(result);
  };

  return (
    <div className="space-y-6">
      <ToolCard id="media-file" title="Your file">
        <FilePicker label="Video or audio file" accept={MEDIA_ACCEPT} file={file} onFile={pick} />
        {task.running && !info ? <p className="mt-3 text-sm text-slate-700" role="status">Reading the file…</p> : null}
        <ToolAlert>{task.error}</ToolAlert>
      </ToolCard>
      {info && file ? (
        <>
          <InfoCard info={info} />
          <div className="grid gap-6 lg:grid-cols-2">
            <TrimCard file={file} duration={info.durationSeconds} />
            <FrameCard file={file} duration={info.durationSeconds} hasVideo={info.tracks.some((t) => t.type === "video")} />
          </div>
          <SheetCard file={file} hasVideo={info.tracks.some((t) => t.type === "video")} />
        </>
      ) : null}
    </div>
  );
}

function InfoCard({ info }: { info: MediaInfo }) {
  const rows: [string, string][] = [
    ["File", info.fileName],
    ["Size", formatFileSize(info.sizeBytes)],
    ["Container", `${info.container} (${info.mimeType})`],
    ["Duration", formatTime(info.durationSeconds)],
    ["Overall bitrate", formatBitrate(info.overallBitrate)],
  ];
  return (
    <ToolCard id="media-info" title="Media info">
      <InfoTable rows={rows} testId="media-info-general" />
      {info.tracks.map((t) => {
        const trackRows: [string, string][] = [
          ["Codec", `${codecName(t.codec)}${t.codecString ? ` (${t.codecString})` : ""}`],
          ...(t.type === "video"
            ? ([
                ["Resolution", `${t.width} × ${t.height}${t.rotation ? ` (rotated ${t.rotation}°)` : ""}`],
                ["Frame rate", t.frameRate ? `${t.frameRate.toFixed(2)} fps` : "unknown"],
              ] as [string, string][])
            : []),
          ...(t.type === "audio"
            ? ([
                ["Channels", String(t.channels)],
                ["Sample rate", `${t.sampleRate} Hz`],
              ] as [string, string][])
            : []),
          ["Bitrate", formatBitrate(t.bitrate)],
          ["Language", t.language === "und" ? "not set" : t.language],
          ...(t.name ? ([["Name", t.name]] as [string, string][]) : []),
          ["This browser can decode it", t.canDecode ? "Yes" : "No"],
        ];
        return (
          <div key={t.number} className="mt-5">
            <h3 className="font-medium text-slate-900">
              Stream {t.number}: {t.type}
            </h3>
            <InfoTable rows={trackRows} testId={`media-info-${t.type}`} />
          </div>
        );
      })}
      {info.tags.length > 0 ? (
        <div className="mt-5">
          <h3 className="font-medium text-slate-900">Metadata tags</h3>
          <InfoTable rows={info.tags} testId="media-info-tags" />
        </div>
      ) : null}
    </ToolCard>
  );
}

function InfoTable({ rows, testId }: { rows: [string, string][]; testId: string }) {
  return (
    <table className="mt-2 w-full text-sm" data-testid={testId}>
      <tbody>
        {rows.map(([k, v]) => (
          <tr key={k} className="border-t border-slate-100">
            <th scope="row" className="w-1/3 py-1.5 pr-3 text-left align-top font-medium text-slate-700">
              {k}
            </th>
            <td className="py-1.5 break-all text-slate-900">{v}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function TrimCard({ file, duration }: { file: File; duration: number }) {
  const [start, setStart] = useState("0:00.000");
  const [end, setEnd] = useState(formatTime(Math.min(duration, 10)));
  const [exact, setExact] = useState(false);
  const [result, setResult] = useState<ToolResult | null>(null);
  const task = useToolTask();
  const exactId = useId();
  return (
    <ToolCard id="media-trim" title="Trim or cut a clip" description="Keeps the part between two times. Fast mode copies the streams without re-encoding (the clip starts at the key frame at or before the start time); exact mode re-encodes.">
      <form
        className="space-y-3"
        onSubmit={async (e) => {
          e.preventDefault();
          const s = parseTime(start);
          const en = parseTime(end);
          if (s === null || en === null || en <= s || s >= duration) {
            task.fail(TOOL_ERROR_MESSAGES["tool.bad_time"]);
            return;
          }
          setResult(null);
          const r = await task.run((opts) => callMedia("trim", { file, start: s, end: en, exact }, opts));
          if (r) setResult({ blob: r.blob, name: outputFileName(file.name, " (trimmed)", r.extension) });
        }}
      >
        <div className="grid grid-cols-2 gap-3">
          <TimeField label="Start" value={start} onChange={setStart} />
          <TimeField label="End" value={end} onChange={setEnd} />
        </div>
        <label htmlFor={exactId} className="inline-flex items-center gap-2 text-sm text-slate-800">
          <input id={exactId} type="checkbox" checked={exact} onChange={(e) => setExact(e.target.checked)} className="size-4 accent-brand-600" />
          Exact cut (re-encode; slower)
        </label>
        <div>
          <Button type="submit" disabled={task.running}>
            Cut clip
          </Button>
        </div>
      </form>
      {task.running ? <ProgressPanel label="Cutting" progress={task.progress} startedAt={task.startedAt} onCancel={task.cancel} /> : null}
      <ToolAlert>{task.error}</ToolAlert>
      <ResultDownload result={result} />
    </ToolCard>
  );
}

function FrameCard({ file, duration, hasVideo }: { file: File; duration: number; hasVideo: boolean }) {
  const [time, setTime] = useState(formatTime(Math.min(1, duration / 2)));
  const [type, setType] = useState<"image/png" | "image/jpeg">("image/png");
  const [result, setResult] = useState<ToolResult | null>(null);
  const [shown, setShown] = useState("");
  const task = useToolTask();
  const typeId = useId();
  if (!hasVideo) {
    return (
      <ToolCard id="media-frame" title="Frame grab">
        <p className="text-sm text-slate-700">{TOOL_ERROR_MESSAGES["tool.no_video"]}</p>
      </ToolCard>
    );
  }
  return (
    <ToolCard id="media-frame" title="Frame grab" description="Saves the frame on screen at a time as a PNG or JPEG image, at the video's full size.">
      <form
        className="space-y-3"
        onSubmit={async (e) => {
          e.preventDefault();
          const t = parseTime(time);
          if (t === null || t > duration) {
            task.fail(TOOL_ERROR_MESSAGES["tool.bad_frame_time"]);
            return;
          }
          setResult(null);
          const r = await task.run(() => callMedia("frame", { file, time: t, type }));
          if (r) {
            const ext = type === "image/png" ? "png" : "jpg";
            setResult({ blob: r.blob, name: outputFileName(file.name, ` (frame ${formatTime(r.timestamp).replace(/:/g, "-")})`, ext) });
            setShown(`Frame at ${formatTime(r.timestamp)}, ${r.width} × ${r.height}`);
          }
        }}
      >
        <div className="grid grid-cols-2 gap-3">
          <TimeField label="Time" value={time} onChange={setTime} />
          <div>
            <Label htmlFor={typeId}>Image format</Label>
            <select id={typeId} value={type} onChange={(e) => setType(e.target.value as typeof type)} className="mt-1 h-10 w-full rounded-md border border-slate-300 bg-white px-2 text-sm">
              <option value="image/png">PNG (lossless)</option>
              <option value="image/jpeg">JPEG (smaller)</option>
            </select>
          </div>
        </div>
        <Button type="submit" disabled={task.running}>
          Grab frame
        </Button>
      </form>
      {task.running ? <p className="mt-3 text-sm text-slate-700" role="status">Decoding…</p> : null}
      <ToolAlert>{task.error}</ToolAlert>
      {shown && result ? <p className="mt-3 text-sm text-slate-700">{shown}</p> : null}
      <ResultDownload result={result} preview="image" />
    </ToolCard>
  );
}

const SHEET_COUNTS = [4, 6, 9, 12, 16, 20, 25];

function SheetCard({ file, hasVideo }: { file: File; hasVideo: boolean }) {
  const [count, setCount] = useState(9);
  const [result, setResult] = useState<ToolResult | null>(null);
  const task = useToolTask();
  const countId = useId();
  if (!hasVideo) return null;
  const columns = Math.ceil(Math.sqrt(count));
  return (
    <ToolCard id="media-sheet" title="Thumbnail sheet" description="A grid of evenly spaced frames from the whole video, each labelled with its time, saved as one JPEG.">
      <form
        className="flex flex-wrap items-end gap-3"
        onSubmit={async (e) => {
          e.preventDefault();
          setResult(null);
          const r = await task.run((opts) => callMedia("sheet", { file, opts: { count, columns, tileWidth: 320 } }, opts));
          if (r) setResult({ blob: r.blob, name: outputFileName(file.name, ` (${count} thumbnails)`, "jpg") });
        }}
      >
        <div>
          <Label htmlFor={countId}>Frames</Label>
          <select id={countId} value={count} onChange={(e) => setCount(Number(e.target.value))} className="mt-1 h-10 rounded-md border border-slate-300 bg-white px-2 text-sm">
            {SHEET_COUNTS.map((n) => (
              <option key={n} value={n}>
                {n} ({Math.ceil(Math.sqrt(n))} per row)
              </option>
            ))}
          </select>
        </div>
        <Button type="submit" disabled={task.running}>
          Make sheet
        </Button>
      </form>
      {task.running ? <ProgressPanel label="Making the sheet" progress={task.progress} startedAt={task.startedAt} onCancel={task.cancel} /> : null}
      <ToolAlert>{task.error}</ToolAlert>
      <ResultDownload result={result} preview="image" />
    </ToolCard>
  );
}
