import type { Route } from "./+types/tools-text";
import { TextTools } from "#app/modules/tools/text/text-tools.tsx";
import { ToolPage } from "#app/modules/tools/shared/tool-page.tsx";
import { toolMeta } from "#app/modules/tools/shared/tool-meta.ts";

export const meta: Route.MetaFunction = ({ matches }) => toolMeta(matches, "/tools/text", "Text Tools");

export default function ToolsText() {
  return (
    <ToolPage
      title="Text Tools"
      intro="Count words and characters, change case, make slugs, find and replace, tidy lists of lines, and turn any title into a safe file name."
      howTo={[
        "Paste or type your text in the box: the counts update as you type.",
        "Pick a case, a line operation or Slugify, or fill in Find and replace and press Replace all.",
        "Copy the result, or press Use as my text to keep working on it.",
        "For a file name, type a title in Safe file name and copy the result.",
      ]}
      about={
        <>
          <p>
            Everything happens in this page: your text is never sent to our servers. Words, sentences and characters are counted the way your
            browser's language rules see them, so accented letters, emoji and scripts without spaces count correctly.
          </p>
          <p>Reading time assumes 200 words a minute, a typical silent reading speed.</p>
        </>
      }
    >
      <TextTools />
    </ToolPage>
  );
}
