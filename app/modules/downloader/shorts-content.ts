/** The Shorts page's fixed content (spec §2 "Shorts downloader"). */
export const SHORTS_PAGE = {
  path: "/shorts-downloader",
  title: "YouTube Shorts Downloader: Save Shorts as MP4 or MP3",
  description: "Paste a Shorts link and save the clip as MP4 up to 1080p, WEBM, or its audio as MP3, M4A or AAC. Free, no sign-up, no download limit.",
};

export const SHORTS_STEPS = [
  { title: "Open the Short", text: "Find the Short in the app or on the website." },
  { title: "Copy its link", text: "Tap Share, then Copy link (the link contains /shorts/)." },
  { title: "Paste it here", text: "Paste the link into the field above and press Download." },
  { title: "Pick a format and save", text: "Choose MP4, WEBM or an audio format; your browser saves the file." },
];

export const SHORTS_BENEFITS = [
  "Free, with no download limit",
  "Up to 1080p, in the Short's own vertical format",
  "Audio only as MP3, M4A or AAC",
  "Works on phones, tablets and computers, nothing to install",
  "No watermark added, nothing stored on our servers",
];

export const SHORTS_FORMATS = {
  video: ["MP4 HD", "MP4 SD", "WEBM"],
  audio: ["MP3", "M4A", "AAC"],
};

export const SHORTS_FAQ = [
  { q: "Is the Shorts downloader free?", a: "Yes. Downloading Shorts is free, with light advertising on the page." },
  { q: "What quality can I get?", a: "Up to 1080p, depending on the quality the Short was uploaded in." },
  { q: "Is there a download limit?", a: "No. Download as many Shorts as you need for personal use." },
];

export const SHORTS_TIPS = [
  { title: "Batch downloads", text: "Premium users can download several Shorts at once with bulk downloads." },
  { title: "Audio extraction", text: "Choose MP3, M4A or AAC under Audio Only to keep just the sound of a Short." },
];
