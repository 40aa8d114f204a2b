/**
 * The generated-article pools of spec §3 "Generated article": 25 tags, 35 title templates,
 * 15 authors, 11 images, 10 intro phrases and three sets of sentence templates.
 * Placeholders: {topic} (a tag, title case, for titles and headings), {topic:mod} (the topic as
 * it reads before a noun: "Playlist Mistakes", never "Playlists Mistakes"), {A} ("A" or "An"
 * for the {topic:mod} that follows), {Singular|Plural} (the verb form that agrees with the
 * topic: "How MP4 {Has|Have} Changed"), {t} (the same topic as a phrase inside a sentence),
 * {other} (a second tag as a phrase), {year}.
 * Changing any list changes what future days generate; articles already stored stay as they are.
 */

/** The 25 tags. The first ten are the ones the spec names. */
export const TAGS = [
  "YouTube",
  "Video Download",
  "MP4",
  "MP3",
  "Tutorial",
  "Guide",
  "HD Quality",
  "Mobile",
  "4K Download",
  "Audio Extraction",
  "Playlists",
  "Subtitles",
  "Thumbnails",
  "Transcripts",
  "Video Formats",
  "WEBM",
  "Offline Viewing",
  "Copyright",
  "Fair Use",
  "Privacy",
  "Online Safety",
  "Android",
  "iPhone",
  "Desktop",
  "Podcasts",
] as const;

export type Tag = (typeof TAGS)[number];

/**
 * Tags that read well as the subject of a title. `plural`: the tag is a plural noun, so verbs
 * take the plural form; `modifier`: how it reads in front of a noun; `article`: "A" or "An"
 * before the modifier (by sound: "An MP4", "An HD", "A WEBM"); `phrase`: the (plural) phrase
 * used inside sentences.
 */
export interface Topic {
  tag: Tag;
  plural: boolean;
  modifier: string;
  article: "A" | "An";
  phrase: string;
}

export const TOPICS: Topic[] = [
  { tag: "YouTube", plural: false, modifier: "YouTube", article: "A", phrase: "YouTube videos" },
  { tag: "Video Download", plural: false, modifier: "Video Download", article: "A", phrase: "video downloads" },
  { tag: "MP4", plural: false, modifier: "MP4", article: "An", phrase: "MP4 files" },
  { tag: "MP3", plural: false, modifier: "MP3", article: "An", phrase: "MP3 files" },
  { tag: "HD Quality", plural: false, modifier: "HD Quality", article: "An", phrase: "HD-quality downloads" },
  { tag: "4K Download", plural: false, modifier: "4K Download", article: "A", phrase: "4K downloads" },
  { tag: "Audio Extraction", plural: false, modifier: "Audio Extraction", article: "An", phrase: "audio extraction tools" },
  { tag: "Playlists", plural: true, modifier: "Playlist", article: "A", phrase: "playlists" },
  { tag: "Subtitles", plural: true, modifier: "Subtitle", article: "A", phrase: "subtitles" },
  { tag: "Thumbnails", plural: true, modifier: "Thumbnail", article: "A", phrase: "thumbnails" },
  { tag: "Transcripts", plural: true, modifier: "Transcript", article: "A", phrase: "transcripts" },
  { tag: "Video Formats", plural: true, modifier: "Video Format", article: "A", phrase: "video formats" },
  { tag: "WEBM", plural: false, modifier: "WEBM", article: "A", phrase: "WEBM files" },
  { tag: "Offline Viewing", plural: false, modifier: "Offline Viewing", article: "An", phrase: "offline video collections" },
  { tag: "Podcasts", plural: true, modifier: "Podcast", article: "A", phrase: "podcasts" },
];

/** How a tag reads inside a sentence when it is not the main topic. */
export const TAG_PHRASES: Record<Tag, string> = {
  YouTube: "YouTube",
  "Video Download": "video downloads",
  MP4: "MP4",
  MP3: "MP3",
  Tutorial: "step-by-step tutorials",
  Guide: "practical guides",
  "HD Quality": "HD quality",
  Mobile: "mobile devices",
  "4K Download": "4K video",
  "Audio Extraction": "audio extraction",
  Playlists: "playlists",
  Subtitles: "subtitles",
  Thumbnails: "thumbnails",
  Transcripts: "transcripts",
  "Video Formats": "video formats",
  WEBM: "WEBM",
  "Offline Viewing": "offline viewing",
  Copyright: "copyright",
  "Fair Use": "fair use",
  Privacy: "privacy",
  "Online Safety": "online safety",
  Android: "Android phones",
  iPhone: "the iPhone",
  Desktop: "desktop computers",
  Podcasts: "podcasts",
};

/** 35 title templates. */
export const TITLE_TEMPLATES = [
  "The Complete Guide to {topic} in {year}",
  "{topic} Explained: Everything You Need to Know",
  "10 Tips for Getting the Most Out of {topic}",
  "How to Handle {topic} Like a Pro",
  "{topic} for Beginners: A Step-by-Step Walkthrough",
  "Common {topic:mod} Mistakes and How to Avoid Them",
  "Why {topic} {Matters|Matter} More Than You Think",
  "{topic}: Best Practices for Safe, Legal Use",
  "A Practical Checklist for {topic}",
  "What Nobody Tells You About {topic}",
  "{topic} on Mobile: What Works and What Doesn't",
  "The Quick Guide to {topic} on Desktop",
  "{topic} vs. Streaming: When Saving a Copy Makes Sense",
  "Troubleshooting {topic}: Fixes for Frequent Problems",
  "5 Myths About {topic}, Debunked",
  "Getting Started with {topic} Today",
  "How {topic} {Has|Have} Changed in {year}",
  "{topic} and Copyright: Staying on the Right Side",
  "Organizing Your Library: {topic} Made Simple",
  "The Essential {topic:mod} Glossary",
  "Saving Time with {topic}: A Workflow That Sticks",
  "{topic:mod} Quality Settings Demystified",
  "Before You Start with {topic}: Read This First",
  "Understanding {topic}: A Plain-English Overview",
  "Smart Ways to Use {topic} for Study and Work",
  "{topic} on a Slow Connection: Tips That Help",
  "Keeping Your Device Safe While Exploring {topic}",
  "The Do's and Don'ts of {topic}",
  "{topic:mod} Questions Answered",
  "From Link to File: {topic} in Practice",
  "Storage-Friendly {topic}: Save Space Without Losing Quality",
  "{topic} for Teachers and Students",
  "A Weekend Project: Building an Offline Library with {topic}",
  "Choosing the Right Format: {A} {topic:mod} Perspective",
  "{topic} in {year}: Trends Worth Watching",
] as const;

/** 15 made-up author names. */
export const AUTHORS = [
  "Maya Thornton",
  "Daniel Okafor",
  "Priya Raman",
  "Lucas Bergström",
  "Hannah Whitfield",
  "Mateo Alvarez",
  "Grace Liang",
  "Oliver Kennedy",
  "Amara Nwosu",
  "Felix Hartmann",
  "Chloe Dubois",
  "Samuel Reyes",
  "Ingrid Solberg",
  "Noah Patel",
  "Elena Moreau",
] as const;

/** 11 self-hosted artworks (public/blog/generated), 800×450. */
export const IMAGES = [
  "/blog/generated/video-player.svg",
  "/blog/generated/audio-waves.svg",
  "/blog/generated/mobile-phone.svg",
  "/blog/generated/film-strip.svg",
  "/blog/generated/ultra-hd.svg",
  "/blog/generated/headphones.svg",
  "/blog/generated/playlist.svg",
  "/blog/generated/subtitles.svg",
  "/blog/generated/cloud-download.svg",
  "/blog/generated/shield.svg",
  "/blog/generated/laptop.svg",
] as const;

/** Images that suit a topic; the generator picks among them (any image when a topic has none). */
export const TOPIC_IMAGES: Partial<Record<Tag, (typeof IMAGES)[number][]>> = {
  YouTube: ["/blog/generated/video-player.svg", "/blog/generated/laptop.svg", "/blog/generated/shield.svg"],
  "Video Download": ["/blog/generated/cloud-download.svg", "/blog/generated/video-player.svg", "/blog/generated/shield.svg"],
  MP4: ["/blog/generated/film-strip.svg", "/blog/generated/video-player.svg"],
  MP3: ["/blog/generated/audio-waves.svg", "/blog/generated/headphones.svg"],
  "HD Quality": ["/blog/generated/ultra-hd.svg", "/blog/generated/film-strip.svg"],
  "4K Download": ["/blog/generated/ultra-hd.svg"],
  "Audio Extraction": ["/blog/generated/audio-waves.svg", "/blog/generated/headphones.svg"],
  Playlists: ["/blog/generated/playlist.svg"],
  Subtitles: ["/blog/generated/subtitles.svg"],
  Thumbnails: ["/blog/generated/film-strip.svg", "/blog/generated/laptop.svg"],
  Transcripts: ["/blog/generated/subtitles.svg", "/blog/generated/laptop.svg"],
  "Video Formats": ["/blog/generated/film-strip.svg", "/blog/generated/video-player.svg"],
  WEBM: ["/blog/generated/film-strip.svg", "/blog/generated/laptop.svg"],
  "Offline Viewing": ["/blog/generated/mobile-phone.svg", "/blog/generated/cloud-download.svg"],
  Podcasts: ["/blog/generated/headphones.svg", "/blog/generated/audio-waves.svg"],
};

/** 10 intro phrases; each opens the first paragraph. */
export const INTROS = [
  "If you have ever wanted to keep a video for a flight, a commute or a classroom without Wi-Fi, you already know why {t} deserve a closer look.",
  "Few topics cause as much confusion among everyday viewers as {t}, and most of that confusion comes from outdated advice.",
  "Whether you are a student, a teacher or someone who simply likes to watch on your own schedule, {t} can make your life noticeably easier.",
  "Most people only think about {t} when something goes wrong: a file that will not play, audio out of sync, or a download that never finishes.",
  "Getting {t} right is less about fancy software and more about a few good habits that anyone can learn in an afternoon.",
  "There is a lot of noise online about {t}, so this article sticks to what actually works and what keeps you on the right side of the rules.",
  "A little knowledge about {t} goes a long way, especially when storage space, data plans and battery life are limited.",
  "Creators, learners and casual viewers all run into {t} sooner or later, and each group needs slightly different answers.",
  "Before you save anything, it helps to understand how {t} work behind the scenes and which choices really affect the result.",
  "The way we watch has changed, and {t} have changed with it, which is why a fresh look at the basics is worthwhile.",
] as const;

/** Set 1: context and explanation. */
export const CONTEXT_SENTENCES = [
  "At its core, the topic comes down to matching the file you save with the device and the situation you will watch it in.",
  "Streaming platforms adapt quality on the fly, but a saved file is fixed, so the choice you make at download time is the one you live with.",
  "Container formats such as MP4 and WEBM decide how video and audio are packaged, while codecs decide how they are compressed.",
  "MP4 with H.264 video remains the most widely compatible choice, playing on almost every phone, tablet, laptop and smart TV.",
  "Higher resolutions look sharper on large screens, yet on a phone held at arm's length the difference between 720p and 1080p is often hard to see.",
  "Audio-only files are a fraction of the size of video files, which makes them ideal for lectures, interviews and music you only need to hear.",
  "Bitrate matters as much as resolution: a well-encoded 720p file can look better than a starved 1080p one.",
  "Most platforms store several versions of each upload, and a good downloader simply lets you pick the one that suits you.",
  "Thumbnails, subtitles and transcripts are small files, but they often carry exactly the information people are looking for.",
  "The platform's terms of service and local copyright law both shape what you may do with a saved copy.",
  "Content you created yourself, public-domain material and videos released under permissive licenses are the clearest cases for saving a copy.",
  "Personal, non-commercial use is the common thread in most guidance about keeping copies of online videos.",
  "Every extra step between the original upload and your saved file is a chance for quality to drop, so fewer conversions are better.",
  "Modern phones handle MP4 and M4A natively, which is why those formats avoid most playback surprises on mobile.",
  "WEBM files often use the VP9 or AV1 codecs, which are efficient but not supported by every older device.",
  "File size grows roughly in line with bitrate and duration, so an hour-long 1080p video can easily take over a gigabyte.",
  "Offline viewing is not only about convenience; it also saves mobile data and works where coverage is poor.",
  "Captions make videos accessible to deaf and hard-of-hearing viewers and help everyone follow along in noisy places.",
  "Many educators keep short clips offline so a lesson never depends on the school network behaving on the day.",
  "A reliable tool does the heavy lifting on the server and hands you a clean file, without installing anything on your device.",
  "Working with {other} follows the same principles, even if the details differ slightly.",
  "Knowing the difference between {t} and {other} saves a lot of trial and error.",
] as const;

/** Set 2: practical steps and tips. */
export const TIP_SENTENCES = [
  "Start by copying the video's link from the address bar or the share menu rather than retyping it.",
  "Paste the link, wait for the preview to load, and check the title and duration before choosing a format.",
  "Pick MP4 at 720p as a sensible default when you are unsure which device you will watch on.",
  "Choose 1080p only when you plan to watch on a large screen and have the storage to spare.",
  "For music and spoken-word content, an MP3 at 128 to 192 kbps is usually indistinguishable from higher settings on everyday headphones.",
  "Rename files as soon as they arrive so you can find them again without opening each one.",
  "Keep a simple folder structure, for example by topic or by course, instead of one crowded downloads folder.",
  "Check that your device has enough free space before starting a large download, especially on phones.",
  "Use Wi-Fi for big files to protect your mobile data allowance.",
  "If a download stalls, try a lower quality first; it often succeeds where the highest setting times out.",
  "Play the first few seconds of a saved file to confirm that audio and video are both present and in sync.",
  "Delete copies you no longer need so your library stays small and easy to back up.",
  "Back up anything important to a second location, such as an external drive or a personal cloud folder.",
  "When a video offers captions, save them alongside the video so they are available offline too.",
  "Avoid websites that ask you to install extensions or run unknown programs just to save a video.",
  "Close pop-up windows that claim your device is infected; legitimate tools never need to scare you.",
  "Update your media player now and then, because newer versions play more formats smoothly.",
  "If a file will not play, try a different player before downloading it again.",
  "On iPhone, saved files usually land in the Files app, where you can move them to the folder you prefer.",
  "On Android, the Downloads folder is the first place to look, and most gallery apps will pick up MP4 files automatically.",
  "For {other}, apply the same checks before you rely on a file for something important.",
  "Write down the original link next to each saved file so you can always credit the creator.",
] as const;

/** Set 3: safety, responsibility and wrapping up. */
export const CLOSING_SENTENCES = [
  "Always respect the creator's rights: save videos for personal use, and ask permission before sharing or reusing them.",
  "If you plan to use a clip in your own work, check whether fair use or a license applies, and credit the source.",
  "Never re-upload someone else's video as your own; it harms the creator and can get your account suspended.",
  "A trustworthy service does not store your files or ask for personal details just to process a link.",
  "Keep your browser and operating system up to date, since most security problems start with outdated software.",
  "When in doubt about whether a download is allowed, the safest choice is to watch online instead.",
  "Supporting creators through subscriptions, likes and legitimate purchases keeps the content you enjoy coming.",
  "With a few good habits, {t} become quick, predictable and stress-free.",
  "The best setup is the one you will actually keep using, so start simple and refine it over time.",
  "Treat these tips as a starting point and adjust them to your devices, your connection and the content you care about.",
  "Good organization today saves a frustrating search through hundreds of files later.",
  "Used responsibly, saved copies are a practical way to learn, revisit favorite moments and watch where the internet cannot reach.",
  "Share what you learn with friends and family, especially those who are less comfortable with technology.",
  "If something in this article did not match your experience, the troubleshooting steps above are the place to start.",
  "Above all, remember that the goal is convenience without cutting corners on legality or safety.",
] as const;

/** Section headings for long-form guides. */
export const SECTION_HEADINGS = [
  "Why {topic} {Matters|Matter}",
  "How {topic} {Works|Work}",
  "Choosing the Right Format and Quality",
  "Step-by-Step: From Link to File",
  "Tips for Better Results",
  "Common Mistakes to Avoid",
  "Using {topic} on Phones and Tablets",
  "Staying Safe and Legal",
  "Keeping Your Library Organized",
  "Troubleshooting Problems",
  "Saving Storage and Data",
  "Frequently Asked Questions",
] as const;

/** The download terms added to every generated article's keywords (the brand is added with the site name). */
export const DOWNLOAD_KEYWORDS = ["video downloader", "free video download", "download videos online"] as const;
