/** What a visitor sees of a comment: never the email. */
export interface PublicComment {
  id: string;
  name: string;
  content: string;
  /** ISO 8601 */
  date: string;
  likes: number;
  likedByMe: boolean;
  /** site-relative URL of the stored image */
  imageUrl: string | null;
  replies: PublicComment[];
}
