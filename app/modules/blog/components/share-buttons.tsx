import { Link2, Share2 } from "#app/components/icons.ts";
import type { MouseEvent } from "react";
import { toast } from "sonner";
import { Button } from "#app/components/ui/button.tsx";

export function shareLinks(url: string, title: string) {
  const u = encodeURIComponent(url);
  return {
    facebook: `https://www.facebook.com/sharer/sharer.php?u=${u}`,
    twitter: `https://twitter.com/intent/tweet?url=${u}&text=${encodeURIComponent(title)}`,
    linkedin: `https://www.linkedin.com/sharing/share-offsite/?url=${u}`,
  };
}

/** Open the network's share page in a small new window (a plain new tab without JavaScript). */
function openShareWindow(event: MouseEvent<HTMLAnchorElement>) {
  event.preventDefault();
  window.open(event.currentTarget.href, "_blank", "noopener,noreferrer,width=640,height=560");
}

/** Spec §2 "Blog article": Facebook, Twitter, LinkedIn (new window with the page URL) and Copy Link. */
export function ShareButtons({ url, title }: { url: string; title: string }) {
  const links = shareLinks(url, title);
  const linkClass = "inline-flex h-9 items-center gap-2 rounded-md border border-slate-300 bg-white px-3 text-sm font-medium text-slate-800 hover:bg-slate-50";

  async function copy() {
    try {
      await navigator.clipboard.writeText(url);
      toast.success("Link copied!", { description: "Article link has been copied to clipboard" });
    } catch {
      // clipboard refused (permissions, insecure origin): show the link so it can be copied by hand
      toast("Copy this link", { description: url });
    }
  }

  return (
    <div className="flex flex-wrap items-center gap-2" aria-label="Share this article" role="group">
      <span className="mr-1 text-sm font-semibold text-slate-700">Share:</span>
      <a href={links.facebook} target="_blank" rel="noopener noreferrer" onClick={openShareWindow} className={linkClass} data-testid="share-facebook">
        <Share2 aria-hidden className="size-4" /> Facebook
      </a>
      <a href={links.twitter} target="_blank" rel="noopener noreferrer" onClick={openShareWindow} className={linkClass} data-testid="share-twitter">
        <Share2 aria-hidden className="size-4" /> Tweet
      </a>
      <a href={links.linkedin} target="_blank" rel="noopener noreferrer" onClick={openShareWindow} className={linkClass} data-testid="share-linkedin">
        <Share2 aria-hidden className="size-4" /> LinkedIn
      </a>
      <Button type="button" variant="outline" size="sm" onClick={copy}>
        <Link2 aria-hidden /> Copy Link
      </Button>
    </div>
  );
}
