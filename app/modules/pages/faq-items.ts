import type { FaqEntry } from "./faq-accordion.tsx";

/**
 * The eight questions of /faq (spec §2: free, legality, quality, formats, limits, storage,
 * speed, safety). Plain-text answers double as the FAQPage structured data.
 */
export function faqItems(siteName: string): FaqEntry[] {
  return [
    {
      id: "free",
      question: `Is ${siteName} free to use?`,
      answer: `Yes. Downloading videos, audio, thumbnails and transcripts is free, with no sign-up and nothing to install. Light, clearly labelled advertising pays for the servers. Premium plans (from $4.99 a month, cancel anytime) are optional: they remove ads and add 1440p, 4K and 8K video, subtitles as SRT or VTT, and scheduled downloads.`,
    },
    {
      id: "legal",
      question: "Is it legal to download videos?",
      answer:
        "It depends on the video and where you live. Saving a copy for personal, offline viewing of content you are allowed to watch is widely tolerated, and downloading your own uploads or videos under a Creative Commons or public-domain licence is fine. Re-uploading, selling or publicly sharing someone else's work without permission is not. Platforms' own terms may also forbid downloading. You are responsible for how you use what you download; our Disclaimer and DMCA pages explain more.",
    },
    {
      id: "quality",
      question: "What video quality can I download?",
      answer:
        "Free downloads go up to 1080p Full HD: you can pick 360p, 480p, 720p or 1080p when the video offers them. Premium adds 1440p, 4K (2160p) and 8K (4320p) when the original was uploaded in that quality. We never upscale: a video uploaded in 720p is offered up to 720p. Audio goes up to MP3 at 320 kbps.",
    },
    {
      id: "formats",
      question: "Which formats are available?",
      answer:
        "Video as MP4 (360p to 1080p) or WEBM in its original quality; audio only as MP3 (128, 256 or 320 kbps), AAC 256 or M4A; the HD thumbnail as a JPG image; and the transcript as a TXT file when the video has captions. Premium members can also save subtitles as SRT or VTT.",
    },
    {
      id: "limits",
      question: "Is there a limit on how many videos I can download?",
      answer:
        "There is no daily download quota and no limit on video length. To keep the service fast for everyone, a fair-use limit applies per network address: if one address starts a very large number of downloads in a short time, further requests are paused for a while with the message \"You've made too many requests. Please wait a moment and try again.\" Normal use never reaches it. Premium plans (Basic, Pro and Ultimate) are not subject to this limit.",
    },
    {
      id: "storage",
      question: "Do you store the videos I download?",
      answer:
        "No. When you click a format, our server fetches the video from the platform and streams it straight to your browser, converting it on the fly when needed (for example to MP3). The file is never saved on our servers, and nothing is kept once your download finishes or you cancel it. We do not keep a list of the videos you downloaded.",
    },
    {
      id: "speed",
      question: "Why is my download slow?",
      answer:
        "Speed depends on three things: how fast the platform delivers the video to our server, how much converting the format needs, and your own connection. MP4 1080p and MP3 need the most work, because video and audio are merged or converted while they stream. Large files take longer over mobile data or busy Wi-Fi. If a download crawls, try a lower quality or try again a few minutes later.",
    },
    {
      id: "safe",
      question: "Is it safe to use?",
      answer:
        "Yes. You do not install anything, there are no pop-ups and no fake download buttons, and every ad is marked as an advertisement. The file comes from the platform through our server over an encrypted HTTPS connection, and we never ask for your platform password. Only run files you downloaded in a media player: a real video or audio file never needs to be \"installed\".",
    },
  ];
}
