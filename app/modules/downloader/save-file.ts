/**
 * Hand a signed download link to the browser's own download manager. The response carries
 * `Content-Disposition: attachment`, so following the link saves the file without leaving the
 * page, and the bytes never pass through page memory (no blob, no fetch).
 */
export function saveWithBrowser(downloadUrl: string, filename: string, doc: Document = document): void {
  const a = doc.createElement("a");
  a.href = downloadUrl;
  // Same-origin link: the attribute keeps the click a download even if a header were missing.
  a.download = filename;
  a.rel = "noopener";
  a.style.display = "none";
  doc.body.appendChild(a);
  a.click();
  a.remove();
}
