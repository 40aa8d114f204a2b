/**
 * Cross-site scripting payloads, written for this suite. Each one, if the page ever let it run,
 * calls a hooked function (alert, confirm, prompt, print, eval, Function, setTimeout with a
 * string) or sets the global marker `__vfXss`. Markup payloads carry a `data-vfx` attribute, so
 * an element that reached the DOM is caught even where nothing could execute.
 *
 * They cover the contexts a value can land in: element text, quoted and unquoted attributes,
 * URL attributes, inline script and JSON data, style, SVG and MathML, template and comment
 * breaking, encodings and parser quirks, plus polyglots that try several at once.
 */
const RUN = "alert('vfx')";

const html = [
  `<script data-vfx>${RUN}</script>`,
  `<script data-vfx>window.__vfXss=1</script>`,
  `<img data-vfx src=x onerror="${RUN}">`,
  `<img data-vfx src=x onerror=window.__vfXss=1>`,
  `<svg data-vfx onload="${RUN}">`,
  `<svg data-vfx><script>${RUN}</script></svg>`,
  `<body data-vfx onload="${RUN}">`,
  `<iframe data-vfx src="javascript:top.alert('vfx')"></iframe>`,
  `<iframe data-vfx srcdoc="<script>parent.alert('vfx')</script>"></iframe>`,
  `<details data-vfx open ontoggle="${RUN}">`,
  `<video data-vfx><source onerror="${RUN}"></video>`,
  `<audio data-vfx src=x onerror="${RUN}">`,
  `<input data-vfx autofocus onfocus="${RUN}">`,
  `<select data-vfx autofocus onfocus="${RUN}"></select>`,
  `<textarea data-vfx autofocus onfocus="${RUN}"></textarea>`,
  `<marquee data-vfx onstart="${RUN}">x</marquee>`,
  `<object data-vfx data="javascript:alert('vfx')"></object>`,
  `<embed data-vfx src="javascript:alert('vfx')">`,
  `<a data-vfx href="javascript:alert('vfx')" id=vfxlink>x</a><img src=x onerror="document.getElementById('vfxlink').click()">`,
  `<form data-vfx><button formaction="javascript:alert('vfx')">x</button></form>`,
  `<math data-vfx><mtext><table><mglyph><style><img src=x onerror="${RUN}">`,
  `<svg data-vfx><animate onbegin="${RUN}" attributeName=x dur=1s>`,
  `<svg data-vfx><a xlink:href="javascript:alert('vfx')"><text x=20 y=20>x</text></a></svg>`,
  `<svg data-vfx><set attributeName=onmouseover to="${RUN}"/></svg>`,
  `<style data-vfx>@import 'javascript:alert("vfx")';</style>`,
  `<link data-vfx rel=import href="data:text/html,<script>alert('vfx')</script>">`,
  `<meta data-vfx http-equiv="refresh" content="0;url=javascript:alert('vfx')">`,
  `<base data-vfx href="javascript:alert('vfx')//">`,
  `<isindex data-vfx type=image src=1 onerror="${RUN}">`,
  `<img data-vfx src="x" onerror="eval('al'+'ert(\\'vfx\\')')">`,
  `<img data-vfx src=x onerror="Function('alert(\\'vfx\\')')()">`,
  `<img data-vfx src=x onerror="setTimeout('alert(\\'vfx\\')')">`,
  `<img data-vfx src=x onerror="top['al'+'ert']('vfx')">`,
  `<img data-vfx src=x onerror="[1].find(alert)">`,
  `<img data-vfx src=x onerror="import('data:text/javascript,alert(%22vfx%22)')">`,
  `<img data-vfx src=x onerror=alert\`vfx\`>`,
  `<img data-vfx src=x onerror="&#97;&#108;&#101;&#114;&#116;('vfx')">`,
  `<img data-vfx src=x onerror="\\u0061lert('vfx')">`,
  `<img data-vfx src=x oNeRrOr="${RUN}">`,
  `<IMG DATA-VFX SRC=x ONERROR="${RUN}">`,
  `<img data-vfx/src=x/onerror="${RUN}">`,
  `<img\tdata-vfx\nsrc=x\ronerror="${RUN}">`,
  `<img data-vfx src=x onerror="${RUN}"//`,
  `<<script data-vfx>${RUN};//<</script>`,
  `<scr<script>ipt data-vfx>${RUN}</scr</script>ipt>`,
  `<script data-vfx src="data:text/javascript,alert('vfx')"></script>`,
  `<script data-vfx>/*</script><script>*/${RUN}</script>`,
  `<noscript><p title="</noscript><img data-vfx src=x onerror=${RUN}>">`,
  `<noembed><img title="</noembed><img data-vfx src=x onerror=${RUN}>"></noembed>`,
  `<xmp><p title="</xmp><img data-vfx src=x onerror=${RUN}>">`,
  `<template><img data-vfx src=x onerror="${RUN}"></template><div id=vfxt></div>`,
  `<!--><img data-vfx src=x onerror="${RUN}">-->`,
  `<![CDATA[><img data-vfx src=x onerror="${RUN}">]]>`,
  `<div data-vfx style="background:url(javascript:alert('vfx'))">x</div>`,
  `<div data-vfx style="x:expression(alert('vfx'))">x</div>`,
  `<x data-vfx contenteditable onfocus="${RUN}" autofocus>x</x>`,
  `<a data-vfx href="&#106;avascript:alert('vfx')">x</a>`,
  `<a data-vfx href=" javascript:alert('vfx')">x</a>`,
  `<a data-vfx href="java\tscript:alert('vfx')">x</a>`,
  `<a data-vfx href="data:text/html;base64,PHNjcmlwdD5hbGVydCgndmZ4Jyk8L3NjcmlwdD4=">x</a>`,
  `<form data-vfx action="javascript:alert('vfx')"><input type=submit id=vfxs></form><img src=x onerror="vfxs.click()">`,
  `<img data-vfx src=x onerror="window.__vfXss=1" onload="window.__vfXss=1">`,
  `<picture data-vfx><source srcset=x><img src=x onerror="${RUN}"></picture>`,
  `<table data-vfx background="javascript:alert('vfx')">`,
  `<frameset data-vfx onload="${RUN}">`,
  `<svg data-vfx><foreignObject><img src=x onerror="${RUN}"></foreignObject></svg>`,
  `<svg data-vfx><style><img src=x onerror="${RUN}"></style></svg>`,
  `<math data-vfx><style><img src=x onerror="${RUN}"></style></math>`,
  `<form data-vfx><math><mtext></form><form><mglyph><svg><mtext><style><path id="</style><img onerror=${RUN} src>">`,
  `<img data-vfx src="x` + "`" + `onerror="${RUN}"` + "`" + `>`,
];

/** Breaking out of an attribute value or a tag the value was placed in. */
const attribute = [
  `" data-vfx onmouseover="${RUN}" autofocus onfocus="${RUN}" x="`,
  `' data-vfx onfocus='${RUN}' autofocus x='`,
  `" data-vfx autofocus onfocus=${RUN} "`,
  `"><img data-vfx src=x onerror="${RUN}">`,
  `'><img data-vfx src=x onerror="${RUN}">`,
  `"/><svg data-vfx onload="${RUN}">`,
  `x onerror=${RUN} data-vfx`,
  `" style="animation-name:x" onanimationstart="${RUN}" data-vfx="`,
  `"></textarea><img data-vfx src=x onerror="${RUN}">`,
  `"></title><img data-vfx src=x onerror="${RUN}">`,
  `</title><script data-vfx>${RUN}</script>`,
  `"></option></select><img data-vfx src=x onerror="${RUN}">`,
  `"></a><img data-vfx src=x onerror="${RUN}">`,
  `" accesskey="x" onclick="${RUN}" data-vfx="`,
  `&quot; data-vfx onfocus=&quot;${RUN}&quot; autofocus x=&quot;`,
  `%22%3E%3Cimg%20data-vfx%20src%3Dx%20onerror%3D${encodeURIComponent(RUN)}%3E`,
  `%3Cscript%20data-vfx%3E${encodeURIComponent(RUN)}%3C%2Fscript%3E`,
  `\\u0022\\u003e\\u003cimg data-vfx src=x onerror=${RUN}\\u003e`,
];

/** Breaking out of inline script or JSON data the value was serialised into. */
const script = [
  `</script><script data-vfx>${RUN}</script>`,
  `</script><img data-vfx src=x onerror="${RUN}">`,
  `</SCRIPT ><script data-vfx>${RUN}</script>`,
  `"-alert('vfx')-"`,
  `'-alert('vfx')-'`,
  `";alert('vfx');//`,
  `';alert('vfx');//`,
  `\\";alert('vfx');//`,
  `\`;alert('vfx');//`,
  `\${alert('vfx')}`,
  `</script><!--<script data-vfx>${RUN}</script>`,
  `\u2028alert('vfx')\u2029`,
  `</script\t><script data-vfx>window.__vfXss=1</script>`,
  `"}];alert('vfx');[{"`,
  `{"__proto__":{"innerHTML":"<img data-vfx src=x onerror=${RUN}>"}}`,
];

/** URLs: links, shared links, redirect targets. */
const url = [
  `javascript:alert('vfx')`,
  `JaVaScRiPt:alert('vfx')`,
  `javascript://%0aalert('vfx')`,
  `javascript:window.__vfXss=1`,
  `data:text/html,<script>alert('vfx')</script>`,
  `vbscript:msgbox("vfx")`,
  `https://www.youtube.com/watch?v=vidfetchAll"><img data-vfx src=x onerror="${RUN}">`,
  `https://youtu.be/<img data-vfx src=x onerror="${RUN}">`,
  `https://media.example.test/files/"onerror="${RUN}".mp4`,
  `https://x.example/#<img data-vfx src=x onerror="${RUN}">`,
  `http://x.example/?q=</script><script data-vfx>${RUN}</script>`,
];

/** Parser and encoding quirks, and polyglots. */
const quirks = [
  `\\u003cimg data-vfx src=x onerror="${RUN}"\\u003e`,
  `＜img data-vfx src=x onerror="${RUN}"＞`,
  `<img data-vfx src=x onerror="${RUN}"\u0000>`,
  `<scr\u0000ipt data-vfx>${RUN}</scr\u0000ipt>`,
  `%3Csvg%20data-vfx%20onload%3Dalert('vfx')%3E`,
  `%253Cscript%2520data-vfx%253Ealert('vfx')%253C%252Fscript%253E`,
  `&lt;img data-vfx src=x onerror="${RUN}"&gt;`,
  `+ADw-script+AD4-alert('vfx')+ADw-/script+AD4-`,
  `\u202e<img data-vfx src=x onerror="${RUN}">`,
  `jaVasCript:/*-/*\`/*\\\`/*'/*"/**/(/* */oNcliCk=alert('vfx') )//%0D%0A%0d%0a//</stYle/</titLe/</teXtarEa/</scRipt/--!>\\x3csVg/<sVg data-vfx/oNloAd=alert('vfx')//>\\x3e`,
  `'"--></style></script><svg data-vfx onload="${RUN}">`,
  `"'><svg/onload=alert('vfx') data-vfx>\`</textarea></title></noscript></style></script><img data-vfx src=x onerror="${RUN}">`,
  `{{constructor.constructor('alert("vfx")')()}}`,
  `[[${RUN}]]`,
  `<img data-vfx src=x onerror="${RUN}"> `.repeat(20),
];

export const XSS_PAYLOADS: readonly string[] = [...html, ...attribute, ...script, ...url, ...quirks];

/** Short payloads fit fields with a small limit (a comment's name is at most 80 characters). */
export function fitsIn(max: number): string[] {
  return XSS_PAYLOADS.filter((p) => p.length <= max);
}

/**
 * Installed in every page before its scripts run: anything a payload could execute reports
 * here. The app never calls these itself; eval/Function/setTimeout are only counted when the
 * code they are given mentions a payload's call (the app's own bundle may probe `Function`).
 */
export const XSS_HOOKS = `(() => {
  if (window.__vfHits) return;
  const hits = [];
  Object.defineProperty(window, "__vfHits", { value: hits, configurable: false });
  const hit = (kind, arg) => hits.push(kind + ": " + String(arg).slice(0, 120) + " @ " + location.href.slice(0, 200));
  for (const name of ["alert", "confirm", "prompt", "print"]) {
    window[name] = function (arg) { hit(name, arg); };
  }
  const suspicious = (code) => /vfx|alert|confirm|prompt|__vfXss/.test(String(code));
  const realEval = window.eval;
  window.eval = function (code) { if (suspicious(code)) hit("eval", code); return realEval(code); };
  const RealFunction = window.Function;
  window.Function = new Proxy(RealFunction, {
    apply(target, self, args) { if (args.some(suspicious)) hit("Function", args.join(",")); return Reflect.apply(target, self, args); },
    construct(target, args) { if (args.some(suspicious)) hit("Function", args.join(",")); return Reflect.construct(target, args); },
  });
  for (const name of ["setTimeout", "setInterval"]) {
    const real = window[name];
    window[name] = function (code, ...rest) { if (typeof code === "string" && suspicious(code)) hit(name, code); return real.call(this, code, ...rest); };
  }
  Object.defineProperty(window, "__vfXss", { configurable: false, get() { return undefined; }, set(v) { hit("marker", v); } });
})();`;
