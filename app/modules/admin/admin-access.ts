/** Who may open /admin (issue 31 §5): the signed-in account whose verified email is ADMIN_EMAIL. */
export interface AdminCandidate {
  user: { id: string; email: string; emailVerified: boolean };
}

/** True only for the verified ADMIN_EMAIL account (case-insensitive); never when ADMIN_EMAIL is unset. */
export function isAdmin(viewer: AdminCandidate | null | undefined, config: { ADMIN_EMAIL?: string | undefined }): boolean {
  const adminEmail = config.ADMIN_EMAIL?.trim().toLowerCase();
  if (!adminEmail || !viewer) return false;
  return viewer.user.emailVerified && viewer.user.email.trim().toLowerCase() === adminEmail;
}
