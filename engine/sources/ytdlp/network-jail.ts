/**
 * yt-dlp may connect to our forwarding proxy and nowhere else (issue 27, docs/decisions/039).
 * Its `--proxy` covers http and https only: a page that redirected to `ftp://127.0.0.1:21/`
 * made it read an internal FTP service directly. yt-dlp is Python (Debian's package, the release
 * zipapp, pip), so a `sitecustomize` module put first on its PYTHONPATH runs before yt-dlp's
 * code and replaces the socket calls: a connection to anything but the proxy's loopback address
 * and port is refused, datagrams are refused, and no name but the proxy's is looked up. Child
 * Python processes inherit the environment and so the jail. A yt-dlp that does not load the
 * module (a frozen single-file build) does not say so at start and is not used (locate.ts).
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

/** The line the jail prints on stderr when VIDFETCH_JAIL_REPORT is set: the proof that it is loaded. */
export const JAIL_ACTIVE_LINE = "vidfetch-network-jail: active";

const SITECUSTOMIZE = `# Written by VidFetch (engine/sources/ytdlp/network-jail.ts): yt-dlp may connect to its proxy only.
import os as _os
import socket as _socket
import sys as _sys


def _vidfetch_jail():
    allowed = _os.environ.get("VIDFETCH_ONLY_CONNECT", "")
    host, _, port = allowed.rpartition(":")
    if not host or not port.isdigit():
        # no proxy named: nothing may connect at all
        host, port = "", "0"
    port = int(port)
    endpoints = {(host, port)}
    names = {host}
    real_getaddrinfo = _socket.getaddrinfo
    # the operator's own services a plugin reaches directly (the PO-token provider): their
    # addresses are looked up once, here, before the lookups close
    for item in _os.environ.get("VIDFETCH_ALSO_CONNECT", "").split(","):
        extra_host, _, extra_port = item.strip().rpartition(":")
        extra_host = extra_host.strip("[]")
        if not extra_host or not extra_port.isdigit():
            continue
        names.add(extra_host)
        try:
            for info in real_getaddrinfo(extra_host, int(extra_port), 0, _socket.SOCK_STREAM):
                endpoints.add((info[4][0], int(extra_port)))
        except OSError:
            pass

    def permitted(sock, address):
        return (
            sock.family in (_socket.AF_INET, _socket.AF_INET6)
            and isinstance(address, tuple)
            and len(address) >= 2
            and (address[0], address[1]) in endpoints
        )

    def refused(what):
        return ConnectionRefusedError(111, "refused by VidFetch: yt-dlp may only connect to its proxy, not %r" % (what,))

    real_connect = _socket.socket.connect
    real_connect_ex = _socket.socket.connect_ex

    def connect(self, address):
        if not permitted(self, address):
            raise refused(address)
        return real_connect(self, address)

    def connect_ex(self, address):
        if not permitted(self, address):
            return 111
        return real_connect_ex(self, address)

    def no_datagrams(self, *args, **kwargs):
        raise refused("a datagram")

    def getaddrinfo(name, *args, **kwargs):
        if (name.decode() if isinstance(name, bytes) else name) not in names:
            raise _socket.gaierror(_socket.EAI_NONAME, "refused by VidFetch: no name lookups but the proxy's")
        return real_getaddrinfo(name, *args, **kwargs)

    def no_lookup(*args, **kwargs):
        raise _socket.gaierror(_socket.EAI_NONAME, "refused by VidFetch: no name lookups")

    _socket.socket.connect = connect
    _socket.socket.connect_ex = connect_ex
    _socket.socket.sendto = no_datagrams
    _socket.socket.sendmsg = no_datagrams
    _socket.getaddrinfo = getaddrinfo
    _socket.gethostbyname = no_lookup
    _socket.gethostbyname_ex = no_lookup
    _socket.gethostbyaddr = no_lookup
    if _os.environ.get("VIDFETCH_JAIL_REPORT"):
        _sys.stderr.write("${JAIL_ACTIVE_LINE}\\n")
        _sys.stderr.flush()


_vidfetch_jail()
del _vidfetch_jail
`;

let folder: string | null = null;

/** The folder holding the jail's sitecustomize.py, written once per process (removed at exit). */
export function jailFolder(): string {
  if (folder) return folder;
  const dir = mkdtempSync(path.join(tmpdir(), "vidfetch-ytdlp-jail-"));
  writeFileSync(path.join(dir, "sitecustomize.py"), SITECUSTOMIZE, { mode: 0o644 });
  process.once("exit", () => rmSync(dir, { recursive: true, force: true }));
  folder = dir;
  return dir;
}

/** "host:port" of a URL, with the scheme's port when it names none */
function endpointOf(url: URL): string {
  return `${url.hostname}:${url.port || (url.protocol === "https:" ? "443" : "80")}`;
}

/**
 * The environment additions that confine a yt-dlp run to `proxyUrl` (host and port); without a
 * proxy (`--version`) it may connect nowhere. `alsoConnect`: operator services a yt-dlp plugin
 * reaches directly rather than through the proxy (the PO-token provider, decision 055), trusted
 * like the proxy itself. PYTHONNOUSERSITE keeps a user's site folder from adding code of its own.
 */
export function jailEnv(proxyUrl?: string, opts: { report?: boolean; alsoConnect?: string[] } = {}): NodeJS.ProcessEnv {
  const proxy = proxyUrl ? new URL(proxyUrl) : null;
  const also = (opts.alsoConnect ?? []).map((u) => endpointOf(new URL(u)));
  return {
    PYTHONPATH: jailFolder(),
    PYTHONNOUSERSITE: "1",
    VIDFETCH_ONLY_CONNECT: proxy ? `${proxy.hostname}:${proxy.port}` : "",
    ...(also.length > 0 ? { VIDFETCH_ALSO_CONNECT: also.join(",") } : {}),
    ...(opts.report ? { VIDFETCH_JAIL_REPORT: "1" } : {}),
  };
}
