import { BadgeDollarSign, Calendar, Clock, Eye, ThumbsUp } from "#app/components/icons.ts";
import { useState } from "react";
import type { VideoDetails as Details } from "#engine/types.ts";

const MAX_TAGS = 8;

function ChannelAvatar({ video }: { video: Details }) {
  const [broken, setBroken] = useState(false);
  if (video.channelThumbnail && !broken) {
    return <img src={video.channelThumbnail} alt="" width={40} height={40} onError={() => setBroken(true)} className="size-10 shrink-0 rounded-full bg-slate-200 object-cover" />;
  }
  return (
    <span aria-hidden className="flex size-10 shrink-0 items-center justify-center rounded-full bg-brand-100 font-semibold text-brand-700">
      {(video.channelTitle || "?").slice(0, 1).toUpperCase()}
    </span>
  );
}

/** Spec §3 "Video details": everything the lookup found, laid out for a quick check. */
export function VideoDetails({ video }: { video: Details }) {
  const stats = [
    { icon: Calendar, label: "Published", value: video.publishedAt },
    { icon: Clock, label: "Duration", value: video.duration },
    { icon: Eye, label: "Views", value: video.viewCount },
    { icon: ThumbsUp, label: "Likes", value: video.likeCount },
  ].filter((s) => s.value);
  return (
    <div className="flex min-w-0 flex-col gap-3">
      <h2 className="text-xl leading-snug font-semibold text-slate-900 [overflow-wrap:anywhere]" data-testid="video-title">
        {video.title}
      </h2>
      <div className="flex items-center gap-3">
        <ChannelAvatar video={video} />
        <div className="min-w-0">
          <p className="truncate font-medium text-slate-900">{video.channelTitle || "Unknown channel"}</p>
          <p className="text-sm text-slate-600">{video.subscriberCount === "Unknown" ? "Subscribers: Unknown" : `${video.subscriberCount} subscribers`}</p>
        </div>
      </div>
      <dl className="grid grid-cols-2 gap-2 text-sm">
        {stats.map(({ icon: Icon, label, value }) => (
          <div key={label} className="flex items-center gap-2 rounded-md bg-slate-50 px-2 py-1.5">
            <Icon aria-hidden className="size-4 shrink-0 text-slate-500" />
            <dt className="sr-only">{label}</dt>
            <dd className="truncate text-slate-800">{value}</dd>
          </div>
        ))}
      </dl>
      <p className="flex items-center gap-2 text-sm">
        <BadgeDollarSign aria-hidden className={video.isMonetized ? "size-4 text-emerald-700" : "size-4 text-slate-500"} />
        <span className={video.isMonetized ? "font-medium text-emerald-800" : "text-slate-600"}>{video.isMonetized ? "Monetized channel" : "Not monetized"}</span>
      </p>
      {video.tags.length > 0 ? (
        <ul aria-label="Tags" className="flex flex-wrap gap-1.5">
          {video.tags.slice(0, MAX_TAGS).map((tag) => (
            <li key={tag} className="rounded-full bg-brand-50 px-2 py-0.5 text-xs text-brand-900">
              #{tag}
            </li>
          ))}
        </ul>
      ) : null}
      {video.description ? <p className="text-sm leading-6 text-slate-700 [overflow-wrap:anywhere]">{video.description}</p> : null}
    </div>
  );
}
