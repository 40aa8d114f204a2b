export { fetchTranscript, fetchCues, pickCaptionTrack, renderTranscript, trackUrl, type TranscriptKind } from "./fetch-transcript.ts";
export { parseTimedText, decodeEntities, type Cue } from "./parse-timedtext.ts";
export { toSrt, toTxt, toVtt } from "./render.ts";
