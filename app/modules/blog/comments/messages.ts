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
  imageRejected: { title: "Image rejected", description: "This image could not be accepted. Please choose another image" },
  submitted: { title: "Comment submitted", description: "Your comment has been posted successfully" },
  error: { title: "Error", description: "There was a problem submitting your comment" },
} as const;

export function messageText(m: CommentMessage): string {
  return `${m.title}: ${m.description}`;
}

/** Spec §9: comment image max 2 MB (2*1024*1024 bytes). */
export const MAX_COMMENT_IMAGE_BYTES = 2 * 1024 * 1024;
export const MAX_NAME_LENGTH = 80;
export const MAX_EMAIL_LENGTH = 254;
export const MAX_COMMENT_LENGTH = 5000;
