import { type RouteConfig, index, route } from "@react-router/dev/routes";

/**
 * Routes by URL; route modules stay thin and call domain code in app/modules/<domain>.
 * Later features (home, shorts, blog, premium, accounts, tools) add their routes here.
 */
export default [
  // downloader (issue: home)
  index("routes/home.tsx"),
  route("shorts-downloader", "routes/shorts-downloader.tsx"),

  // information pages (issue: foundation)
  route("how-to-download", "routes/how-to-download.tsx"),
  route("supported-sites", "routes/supported-sites.tsx"),
  route("faq", "routes/faq.tsx"),
  route("about-us", "routes/about-us.tsx"),
  route("contact-us", "routes/contact-us.tsx"),
  route("privacy-policy", "routes/privacy-policy.tsx"),
  route("terms-and-conditions", "routes/terms-and-conditions.tsx"),
  route("disclaimer", "routes/disclaimer.tsx"),
  route("dmca", "routes/dmca.tsx"),
  route("sitemap", "routes/sitemap.tsx"),
  route("connection-status", "routes/connection-status.tsx"),
  route("search", "routes/search.tsx"),
  route("newsletter", "routes/newsletter.ts"),
  route("newsletter/confirm", "routes/newsletter-confirm.tsx"),
  route("newsletter/unsubscribe", "routes/newsletter-unsubscribe.tsx"),

  // blog (issue: blog)
  route("blog", "routes/blog.tsx"),
  route("blog/rss.xml", "routes/blog-rss-xml.ts"),
  route("blog/comment-images/:id", "routes/blog-comment-image.ts"),
  route("blog/:slug", "routes/blog-article.tsx"),

  // accounts (issue 9)
  route("login", "routes/login.tsx"),
  route("signup", "routes/signup.tsx"),
  route("logout", "routes/logout.ts"),
  route("dashboard", "routes/dashboard.tsx"),
  route("dashboard/export", "routes/dashboard-export.ts"),
  route("forgot-password", "routes/forgot-password.tsx"),
  route("reset-password", "routes/reset-password.tsx"),

  // the operators' area (issue 31 §5): a 404 for everyone but the verified ADMIN_EMAIL account
  route("admin", "routes/admin.tsx"),

  // plans and payments (issue 9 §2)
  route("premium", "routes/premium.tsx"),
  route("payment-success", "routes/payment-success.tsx"),
  route("billing/portal", "routes/billing-portal.ts"),
  route("billing/cancel", "routes/billing-cancel.ts"),

  // tools that run in the browser (issue 10)
  route("tools/converters", "routes/tools-converters.tsx"),
  route("tools/media", "routes/tools-media.tsx"),
  route("tools/colors", "routes/tools-colors.tsx"),
  route("tools/text", "routes/tools-text.tsx"),

  // machine-readable
  route("sitemap.xml", "routes/sitemap-xml.ts"),
  route("robots.txt", "routes/robots-txt.ts"),

  // everything else
  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
