/** The guide on /how-to-download: five illustrated steps, seven tips, troubleshooting (spec §2). */
export interface GuideStep {
  title: string;
  image: string;
  alt: string;
  body: string[];
}

export const GUIDE_STEPS: GuideStep[] = [
  {
    title: "Find the video",
    image: "/images/how-to/step-1-find-video.svg",
    alt: "A browser showing a video page with a large play button",
    body: [
      "Open YouTube (or another platform from the supported sites list) in your browser or app and open the video you want to keep.",
      "Any public video works: regular videos, Shorts and music videos. Private, members-only and paid videos cannot be downloaded.",
    ],
  },
  {
    title: "Copy the URL",
    image: "/images/how-to/step-2-copy-url.svg",
    alt: "The video link selected in the browser's address bar with a Copy menu open",
    body: [
      "On a computer, click the address bar, select the whole link and press Ctrl+C (Cmd+C on a Mac).",
      "In a mobile app, tap Share under the video and choose Copy link. Short youtu.be links, Shorts links and links with a timestamp all work.",
    ],
  },
  {
    title: "Paste it into the downloader",
    image: "/images/how-to/step-3-paste-url.svg",
    alt: "The link pasted into the downloader's input field next to the Download button",
    body: [
      "Go to the home page, click the link box and press Ctrl+V (Cmd+V on a Mac), or long-press and choose Paste on a phone. Then press Download.",
      "After a moment you see the video's title, thumbnail, channel, length and a player, so you can check it is the right one.",
    ],
  },
  {
    title: "Choose the format and quality",
    image: "/images/how-to/step-4-choose-format.svg",
    alt: "A format picker with Video, Audio Only and Other tabs and MP4 1080p selected",
    body: [
      "The Video tab offers MP4 in 360p, 480p, 720p and 1080p plus WEBM in the original quality. Audio Only offers MP3 at 128, 256 or 320 kbps, AAC and M4A. Other has the HD thumbnail and the transcript.",
      "Each option shows its approximate file size. Only the qualities the video really has are offered; Premium adds 1440p, 4K and 8K.",
    ],
  },
  {
    title: "Download the file",
    image: "/images/how-to/step-5-download.svg",
    alt: "A file streaming into the Downloads folder with a progress bar",
    body: [
      "Click the format you want. Our server fetches the video, converts it when needed and streams it straight to your browser, which saves it in your Downloads folder under the video's title.",
      "Keep the tab open until the download finishes. Nothing is stored on our side, so if it is interrupted, simply start it again.",
    ],
  },
];

export const GUIDE_TIPS: { title: string; text: string }[] = [
  { title: "Match the quality to the screen", text: "720p looks sharp on a phone and saves space; choose 1080p for a laptop or TV." },
  { title: "Choose Audio Only for music and podcasts", text: "MP3 320 kbps sounds best; MP3 128 kbps is plenty for talks and keeps files small." },
  { title: "Check the size on mobile data", text: "A 1080p video can be 250 MB or more. The size is shown next to each option before you start." },
  { title: "Keep the tab open", text: "The file streams while you wait. Closing the tab or losing the connection cancels the download." },
  { title: "Use the transcript for notes", text: "The transcript comes as a plain TXT file, handy for quotes, study notes or searching a long video." },
  { title: "Grab the HD thumbnail", text: "Use Other → Thumbnail HD for a cover image of your own videos or a playlist." },
  { title: "Respect the creator", text: "Download for personal, offline viewing. Ask the owner before you reuse or share someone else's work." },
];

export const GUIDE_TROUBLESHOOTING: { title: string; causes: string[] }[] = [
  {
    title: "The video is not downloading",
    causes: [
      "Check that the link opens the video in a private browser window: private, deleted, age-restricted and members-only videos cannot be downloaded.",
      "Live streams can only be downloaded after they have ended.",
      "Make sure your browser allows downloads from this site, and pause extensions that block downloads or scripts.",
      "Try another format: if MP4 1080p fails, 720p or WEBM may still work.",
    ],
  },
  {
    title: "The quality is lower than expected",
    causes: [
      "We never offer more than the original: a video uploaded in 720p cannot be downloaded in 1080p.",
      "Make sure you picked the highest MP4 option in the Video tab; WEBM keeps the original quality as well.",
      "Recently uploaded videos can show only low qualities while the platform is still processing them. Try again later.",
      "1440p, 4K and 8K are part of Premium.",
    ],
  },
  {
    title: "The download is slow",
    causes: [
      "MP4 1080p and MP3 are converted while they stream, which takes a little longer than other formats.",
      "The platform sometimes slows delivery at busy times. Try again in a few minutes.",
      "Move closer to your Wi-Fi router or use a wired connection; on mobile data, choose a lower quality.",
    ],
  },
];
