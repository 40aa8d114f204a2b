import { Download } from "#app/components/icons.ts";
import { Button } from "#app/components/ui/button.tsx";
import { formatFileSize } from "../media/media-format.ts";
import { useObjectUrl } from "./use-object-url.ts";

export interface ToolResult {
  blob: Blob;
  name: string;
}

/** The save link for a file a tool made in the page (an object URL: nothing is fetched). */
export function ResultDownload({ result, preview }: { result: ToolResult | null; preview?: "image" | "video" | "audio" }) {
  const url = useObjectUrl(result?.blob ?? null);
  if (!result || !url) return null;
  return (
    <div className="mt-4 space-y-3" data-testid="tool-result">
      {preview === "image" ? <img src={url} alt={`Preview of ${result.name}`} className="max-h-96 rounded-lg border border-slate-200" /> : null}
      {preview === "video" ? <video src={url} controls className="max-h-80 w-full rounded-lg bg-black" aria-label={`Preview of ${result.name}`} /> : null}
      {preview === "audio" ? <audio src={url} controls className="w-full" aria-label={`Preview of ${result.name}`} /> : null}
      <Button asChild variant="success">
        <a href={url} download={result.name}>
          <Download aria-hidden /> Save {result.name} ({formatFileSize(result.blob.size)})
        </a>
      </Button>
    </div>
  );
}
