import type { Route } from "./+types/tools-converters";
import { ConverterTool } from "#app/modules/tools/converters/converter-tool.tsx";
import { ToolPage } from "#app/modules/tools/shared/tool-page.tsx";
import { toolMeta } from "#app/modules/tools/shared/tool-meta.ts";

export const meta: Route.MetaFunction = ({ matches }) => toolMeta(matches, "/tools/converters", "Video Converters");

export default function ToolsConverters() {
  return (
    <ToolPage
      title="Video Converters"
      intro="Turn a video or audio file into MP4, WEBM, MP3, M4A, WAV or an animated GIF or WebP, at the resolution and quality you choose."
      howTo={[
        "Choose or drop a video or audio file.",
        "Pick the format, then the resolution and quality (or, for an animated GIF or WebP, the range, width and frame rate).",
        "Optionally enter a range to convert only part of the file.",
        "Press Convert, watch the progress (you can cancel), then save the result. In Chrome or Edge you can instead press Convert and save to a file, choose where it goes, and the result is written there as it is made.",
      ]}
      about={
        <>
          <p>
            Conversion runs in your browser with its built-in WebCodecs encoders, so your file is never uploaded. Streams that are already in the
            right codec are copied without re-encoding. MP3 uses the LAME encoder compiled to WebAssembly when the browser has no MP3 encoder. An animated WebP is made
            of frames compressed by your browser's own WebP image encoder.
          </p>
          <p>
            Which encoders exist depends on your browser: WEBM (VP9 + Opus) and WAV work wherever WebCodecs does; H.264 and AAC for MP4 and M4A
            are missing from some browsers (for example Chromium on Linux), and the page tells you when that is the case.
          </p>
          <p>
            Your file is read piece by piece, never loaded into memory whole. With Convert, the result is kept in memory until you save it, so
            files up to 2 GB can be converted. Browsers that can write to a file you choose (Chrome, Edge, Opera) also offer Convert and save to a
            file: the result goes straight to your disk as it is made, so files of any size work. If you cancel, or the conversion fails,
            the half-made result is dropped rather than saved.
          </p>
        </>
      }
    >
      <ConverterTool />
    </ToolPage>
  );
}
