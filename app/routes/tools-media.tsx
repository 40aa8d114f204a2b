import type { Route } from "./+types/tools-media";
import { MediaTools } from "#app/modules/tools/media/media-tools.tsx";
import { ToolPage } from "#app/modules/tools/shared/tool-page.tsx";
import { toolMeta } from "#app/modules/tools/shared/tool-meta.ts";

export const meta: Route.MetaFunction = ({ matches }) => toolMeta(matches, "/tools/media", "Media Tools");

export default function ToolsMedia() {
  return (
    <ToolPage
      title="Media Tools"
      intro="Look inside a video or audio file, cut a clip without re-encoding, save a frame as an image, or make a thumbnail sheet of the whole video."
      howTo={[
        "Choose or drop a video or audio file: its media info appears at once.",
        "To cut, enter a start and end time (seconds or m:ss.sss) and press Cut clip, then save the clip.",
        "To save a frame, enter a time, pick PNG or JPEG and press Grab frame.",
        "For an overview, choose how many frames and press Make sheet.",
      ]}
      about={
        <>
          <p>
            The file is read in your browser, piece by piece, with the WebCodecs decoders built into it: it is never uploaded, and even very
            large files open without being loaded into memory whole.
          </p>
          <p>
            Cutting copies the original streams when it can, so it is fast and loses no quality. If your browser cannot decode a codec (some
            browsers lack H.265 or AC-3), the page says so.
          </p>
        </>
      }
    >
      <MediaTools />
    </ToolPage>
  );
}
