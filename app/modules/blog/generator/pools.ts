/**
 * The generated-article pools of spec §3 "Generated article": 25 tags, 35 title templates,
 * 11 images, 10 intro phrases and three sets of sentence templates, plus a fourth set particular
 * to each topic. No author names: generated articles are signed by the editorial team.
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

/**
 * Set 4: what is particular to each topic, so an article about MP3 says something an article
 * about playlists does not. Each sentence appears at most once in an article.
 */
export const TOPIC_SENTENCES: Partial<Record<Tag, readonly string[]>> = {
  YouTube: [
    "YouTube keeps each upload in several renditions, from 144p up to 4K or 8K where the creator uploaded that much.",
    "Above 720p, YouTube usually stores video and audio as separate streams, which a downloader joins into one file.",
    "YouTube Premium's own offline mode keeps videos inside the app for a limited time, and they cannot be moved to other devices.",
    "Creators can switch off embedding or restrict a video by age or region, and those settings also shape what can be saved.",
    "Shorts are ordinary vertical videos under the hood, usually at 1080 by 1920 pixels.",
    "Many channels publish under a Creative Commons license, which the video's description shows when it applies.",
    "A video's chapters come from timestamps in its description, and they make long recordings much easier to navigate offline.",
    "Live streams can only be saved once they have ended and YouTube has finished processing the recording.",
  ],
  "Video Download": [
    "A download is only as good as its source: no tool can add detail that the original upload never had.",
    "Resolving a link means asking the platform which streams exist, then fetching the one that matches your choice.",
    "A download that fails loudly is better than one that quietly leaves you with a truncated file.",
    "Downloading a stream copies its bytes; converting it to another format re-encodes them and takes longer.",
    "Most failed downloads trace back to expired links, a paused connection or a video that became private in the meantime.",
    "Starting a large download on a stable connection saves a restart halfway through.",
    "A sensible file name with the title and quality saves opening each file to find out what it is.",
    "Checking the length of a saved file against the original is the quickest test that nothing went missing.",
  ],
  MP4: [
    "MP4 is a container: it can hold H.264, H.265 or AV1 video alongside AAC audio, chapters and subtitles.",
    "The 'faststart' layout puts an MP4's index at the beginning, so a player can start before the whole file has arrived.",
    "An MP4 made by copying streams keeps the original quality exactly, because nothing is decoded and encoded again.",
    "Almost every video editor opens MP4 directly, which makes it the natural format for clips you plan to trim.",
    "H.264 in MP4 plays on devices a decade old, while AV1 in MP4 needs recent hardware to play smoothly.",
    "A 10-minute 1080p MP4 typically takes between 100 and 300 megabytes, depending on how busy the picture is.",
    "Renaming a WEBM file to .mp4 does not convert it; the player still finds WEBM data inside.",
    "MP4 files can carry a title, an artist and cover art in their metadata, which media libraries read.",
  ],
  MP3: [
    "MP3 is the most widely supported audio format, playing in cars, older music players and every phone.",
    "At 128 kbps an MP3 takes about one megabyte per minute, so an hour-long lecture fits in roughly 60 megabytes.",
    "Converting to MP3 re-encodes the audio, so it can never sound better than the stream it came from.",
    "For speech, a lower bitrate is rarely noticeable, while music benefits from 192 kbps or more.",
    "ID3 tags inside an MP3 hold the title, the artist and cover art that music apps display.",
    "An MP3 made from a video keeps only the sound, which makes it ideal for talks you listen to on the move.",
    "Variable bitrate MP3s spend more data on complex passages and less on silence, for a smaller file at the same quality.",
    "If an MP3 plays with a gap or a click at the start, the encoder's delay was not marked; most modern tools handle this.",
  ],
  "HD Quality": [
    "HD usually means 720p, and Full HD means 1080p; both are 16:9 frames of 1280 and 1920 pixels wide.",
    "The frame rate matters too: 60 frames per second looks smoother in games and sports than the common 30.",
    "A platform's HD stream is often already heavily compressed, so the bitrate tells you more than the label.",
    "Watching HD on a phone uses much more battery than SD, because there are more pixels to decode.",
    "HDR video carries a wider range of brightness and needs a screen that supports it to look right.",
    "Upscaling a low-resolution file to 1080p makes it bigger, not sharper.",
    "For a laptop screen, 1080p is usually the point where more resolution stops making a visible difference.",
    "HD downloads of long videos add up quickly, so it pays to check free space before saving a series.",
  ],
  "4K Download": [
    "A 4K frame has four times the pixels of 1080p, at 3840 by 2160, and the file size grows to match.",
    "Most 4K streams use VP9 or AV1, which older devices may not decode in hardware.",
    "An hour of 4K video can take ten gigabytes or more, so storage is the first thing to check.",
    "4K only shows its detail on a large screen viewed from a normal distance, or when you crop and zoom in an editor.",
    "Editing 4K footage needs a reasonably recent computer; a 1080p copy is often easier to work with.",
    "Some videos are offered in 4K only because the creator uploaded that; the original camera may have recorded less.",
    "Downloading 4K over mobile data can use a month's allowance in one evening.",
    "If a 4K file stutters, the player may be decoding in software; a different player or a 1080p copy usually helps.",
  ],
  "Audio Extraction": [
    "Extracting audio from a video keeps only the sound track, which is a fraction of the size.",
    "The best audio streams on most platforms are AAC or Opus, and copying them without conversion keeps their quality.",
    "M4A is simply AAC audio in an MP4 container, and Apple devices play it natively.",
    "Opus sounds excellent at low bitrates but is less widely supported than AAC or MP3 on older devices.",
    "Loudness differs a lot between videos, so a playlist of extracted tracks may need volume levelling.",
    "Extracted audio from a lecture is easier to skim at double speed than the video itself.",
    "When a video has several audio tracks, such as dubbed languages, each is a separate stream to choose from.",
    "Audio extraction is a good fit for interviews, sermons, language lessons and music you only need to hear.",
  ],
  Playlists: [
    "A playlist is a list of links, so saving it means saving each video in turn.",
    "Numbering files by their position keeps a course or an album in the intended order.",
    "Playlists change over time: videos are added, removed or made private after you first see them.",
    "Saving a long playlist is easier to follow with a summary of which items succeeded and which did not.",
    "Choosing one format for a whole playlist keeps the folder consistent and easy to play in sequence.",
    "A private or deleted video in the middle of a playlist should not stop the rest from being saved.",
    "Large playlists are kinder to your connection when saved a few items at a time.",
    "Keeping the playlist's link next to the saved files makes it easy to check for new additions later.",
  ],
  Subtitles: [
    "Subtitles come as separate text tracks with timings, most often in the SRT or VTT format.",
    "Automatic captions are generated by speech recognition and can miss names and technical terms.",
    "SRT files open in any text editor, so a wrong word can be fixed in seconds.",
    "Most video players load an SRT automatically when it has the same name as the video file.",
    "VTT is the web's caption format and supports simple styling and positioning.",
    "Many videos offer captions in several languages, added by the creator or by the community.",
    "Subtitles help language learners follow native speakers at full speed.",
    "Burned-in subtitles are part of the picture and cannot be switched off, unlike a separate track.",
  ],
  Thumbnails: [
    "A video's thumbnail is a still image chosen or designed by the creator, usually 1280 by 720 pixels.",
    "Platforms keep thumbnails in several sizes, and the largest is not always available for older uploads.",
    "Thumbnails are useful as cover images in a personal library or a course outline.",
    "A thumbnail is the creator's artwork, and the same respect for their rights applies as for the video.",
    "JPEG is the usual thumbnail format, small enough to save many without worrying about space.",
    "Designers study successful thumbnails for their use of faces, contrast and short text.",
    "When a thumbnail looks blurry, the creator may have uploaded a small image that was scaled up.",
    "A thumbnail saved next to the video makes a folder of files much easier to browse.",
  ],
  Transcripts: [
    "A transcript is the text of everything said in a video, without the timings that subtitles carry.",
    "Transcripts make a long video searchable: finding a quote takes seconds instead of scrubbing through.",
    "A transcript built from automatic captions is a good draft but needs checking before you quote it.",
    "Students often read a transcript first and then watch only the parts they need.",
    "A plain-text transcript is tiny, so a whole course of them fits in a few hundred kilobytes.",
    "Transcripts help people who are deaf or hard of hearing, and anyone who prefers reading.",
    "Quoting from a transcript still calls for crediting the speaker and linking to the source.",
    "Videos without captions have no transcript to save, though many creators add captions on request.",
  ],
  "Video Formats": [
    "A video format is two choices in one: the container that holds the streams and the codec that compresses them.",
    "H.264 is the most compatible video codec, while VP9 and AV1 give smaller files at the same quality.",
    "MKV can hold almost anything, including many audio and subtitle tracks, but fewer phones play it natively.",
    "MOV is Apple's container and behaves much like MP4 in most players.",
    "Converting between containers without re-encoding is fast and lossless; changing the codec is slow and loses a little.",
    "Hardware decoding support, not the file format itself, usually decides whether a video plays smoothly.",
    "Older smart TVs are often the pickiest players, and MP4 with H.264 and AAC is the safest choice for them.",
    "When in doubt, the format that plays on the device you will actually use is the right one.",
  ],
  WEBM: [
    "WEBM is an open container designed for the web, usually holding VP9 or AV1 video and Opus audio.",
    "Every modern browser plays WEBM, and so do most Android phones.",
    "Older iPhones and some video editors do not open WEBM files without extra software.",
    "At the same quality, a VP9 WEBM is often noticeably smaller than an H.264 MP4.",
    "Platforms often offer their highest resolutions only as WEBM streams.",
    "A WEBM can be repackaged as MKV without re-encoding, which some players prefer.",
    "If a WEBM will not play, a free player such as VLC or mpv usually solves it.",
    "WEBM audio-only files with Opus are a compact way to keep spoken-word recordings.",
  ],
  "Offline Viewing": [
    "Offline viewing turns a long flight or a train through tunnels into time for the videos you meant to watch.",
    "Saving over home Wi-Fi and watching later protects a limited mobile data plan.",
    "A small, well-chosen offline library is more useful than hundreds of files you never open.",
    "Lower resolutions are often the better choice offline, because they leave room for more videos on a phone.",
    "Teachers keep lesson clips offline so a class never depends on the school network.",
    "Checking that each file plays before you leave home avoids surprises when there is no connection.",
    "Offline copies are personal copies: sharing them onward is where the rules get strict.",
    "Deleting what you have watched keeps an offline library light and your device responsive.",
  ],
  Podcasts: [
    "Many podcasts are published as videos too, and the audio alone is usually all you need.",
    "Spoken-word audio sounds clear at modest bitrates, so podcast files can stay small.",
    "Listening at 1.25 or 1.5 times the normal speed is common for podcasts and saves a lot of time.",
    "Chapters in a long episode make it easy to jump to the part you care about.",
    "A podcast episode saved with its title and date is easy to find again in a music app.",
    "Video podcasts often include slides or screen shares that are worth keeping as video.",
    "Most podcast hosts allow personal listening offline, and many offer their own download feeds.",
    "Long interviews are easier to revisit with a transcript alongside the audio.",
  ],
};
