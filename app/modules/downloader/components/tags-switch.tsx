import { OptionSwitch } from "./option-switch.tsx";

/**
 * The format picker's switch for tags (issue 33 §3): off by default, so MP3, M4A and AAC files get
 * their title, channel, date, link and cover art, and MP4 files their title, channel, date and
 * description; on, the files are left bare.
 */
export function TagsSwitch({ bare, onChange }: { bare: boolean; onChange: (bare: boolean) => void }) {
  return (
    <OptionSwitch
      checked={bare}
      onChange={onChange}
      label="Leave files bare"
      testId="tags-switch"
      hint={
        bare
          ? "No title, channel, date or cover art is written into the file."
          : "MP3, M4A and AAC files get the title, channel, date, link and cover art; MP4 files the title, channel, date and description."
      }
    />
  );
}
