/**
 * Comment messages, worded as spec §5/§8 say ("Title: description"). Shared by the server
 * (validation) and the form (client-side pre-checks and toasts).
 */
export interface CommentMessage {
  title: string;
  description: string;
}

export const COMMENT_MESSAGES = {
  missing: { title: "Missing information", description: "Please fill out all required fields" },
  rejected: (word: string): CommentMessage => ({ title: "Comment rejected", description: `Your comment contains inappropriate content (${word})` }),
  imageTooLarge: { title: "Image too large", description: "Please select an image under 2MB" },
  invalidFileType: { title: "Invalid file type", description: "Please select an image file" },
  imagePixels: (width: number, height: number): CommentMessage => ({
    title: "Image too large",
    description: `This image is too large (${width}×${height}). Please use an image of at most ${MAX_COMMENT_IMAGE_PIXELS / 1_000_000} megapixels.`,
  }),
  imageBusy: { title: "Server busy", description: "The server is busy processing images. Please try again in a moment." },
  imageTimeout: { title: "Image not processed", description: "Processing this image took too long. Please try a smaller or simpler image." },
  imageFailed: { title: "Image not processed", description: "We couldn't process this image. It may be damaged or saved in an unusual way. Please try another image." },
  badRequest: { title: "Error", description: "The comment form could not be read. Please reload the page and try again." },
  likeNeedsVisitor: { title: "Like not counted", description: "Please try again. If this keeps happening, allow cookies for this site." },
  likeNotFound: { title: "Error", description: "This comment is no longer available." },
  likeRateLimited: { title: "Too many likes", description: "You have liked a lot of comments here recently. Please try again later." },
  submitted: { title: "Comment submitted", description: "Your comment has been posted successfully" },
  error: { title: "Error", description: "There was a problem submitting your comment" },
} as const;

export function messageText(m: CommentMessage): string {
  return `${m.title}: ${m.description}`;
}

/** Spec §9: comment image max 2 MB (2*1024*1024 bytes). */
export const MAX_COMMENT_IMAGE_BYTES = 2 * 1024 * 1024;
/** Decoded size limit (a 6000×4000 camera photo fits; a small file claiming 6000×6000 does not). */
export const MAX_COMMENT_IMAGE_PIXELS = 24_000_000;
export const MAX_NAME_LENGTH = 80;
export const MAX_EMAIL_LENGTH = 254;
export const MAX_COMMENT_LENGTH = 5000;
