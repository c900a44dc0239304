// The viewer's service worker: it keeps what the reader read, so that the viewer and the
// documents it showed open without a network.
//
// Every GET of this server that the viewer makes goes to the network first; what comes back
// is kept once the viewer pauses (the viewer's own files in `SHELL_CACHE`, the API's answers
// in `KEPT_CACHE`), and when the network fails the kept copy answers. A document is thus kept as it was read: its
// pages at the zoom they were drawn, their text, its outline, its annotations. The API's
// answers are kept within the reader's storage budget, the least recently used given up first.
// The API marks its answers `no-store` for HTTP caches, which this worker is not: it keeps what
// the viewer shows, but never a download (an answer with `Content-Disposition`: the file, an
// attachment, an image taken out) nor a stream (a search's hits); and it touches nothing but
// GETs of this origin: edits go to the server as they are.
//
// The viewer posts `{ keep: [addresses] }` for what it loaded without this worker (before the
// worker took the page over, on a first visit), so that that is kept too, and
// `{ keepWaiting: true }` before it reads or trims what is kept.

importScripts("/viewer/offline-store.js");
const { KEPT_CACHE, SHELL_CACHE, budget, noteKept, touchKept } = self.offlineStore;

self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  // A tab's presence (`hostapp view` ends with its last tab) is sent as the tab goes: this
  // worker sends it itself, since it outlives the tab.
  if (url.origin === self.location.origin && url.pathname.startsWith("/api/viewer/")) {
    event.respondWith(fetch(request));
    return;
  }
  if (request.method !== "GET" || url.origin !== self.location.origin || !keepable(url) || request.headers.has("Range")) return;
  event.respondWith(fromNetworkOrKept(request, event));
});

self.addEventListener("message", (event) => {
  // `{ keepWaiting: true }`: the answers waiting for the viewer to pause are kept now, and
  // the port sent with the message is told once they are (the page reads what is kept).
  if (event.data && event.data.keepWaiting) {
    keepWaiting();
    const told = () => { if (event.ports[0]) event.ports[0].postMessage("kept"); };
    event.waitUntil(turn.then(told, told));
    return;
  }
  if (!event.data || !Array.isArray(event.data.keep)) return;
  event.waitUntil(Promise.all(event.data.keep.map(async (address) => {
    const url = new URL(address, self.location.origin);
    if (url.origin !== self.location.origin || !keepable(url)) return;
    try {
      const request = new Request(url, { credentials: "same-origin" });
      await keep(request, await fetch(request));
    } catch (_) { /* offline again: kept next time */ }
  })));
});

/** Whether responses to `url` may be kept: the viewer's page and files, and the API's reads but its presence calls. */
function keepable(url) {
  if (url.pathname === "/" || url.pathname.startsWith("/viewer/")) return true;
  return url.pathname.startsWith("/api/") && !url.pathname.startsWith("/api/viewer/") && url.pathname !== "/api/openapi.json";
}

function isShell(url) {
  return url.pathname === "/" || url.pathname.startsWith("/viewer/");
}

/** The network's answer (kept on the way), or the kept copy when the network fails. */
async function fromNetworkOrKept(request, event) {
  try {
    const response = await fetch(request);
    event.waitUntil(keepWhenQuiet(request, response.clone()).catch(() => {}));
    return response;
  } catch (error) {
    const url = new URL(request.url);
    // The viewer's page is one, whatever its query (the token it came with once).
    const kept = await caches.match(isShell(url) ? new Request(url.origin + url.pathname) : request, { cacheName: isShell(url) ? SHELL_CACHE : KEPT_CACHE });
    if (!kept) return Response.error();
    if (!isShell(url)) event.waitUntil(touchKept(request.url).catch(() => {}));
    return kept;
  }
}

/**
 * The answers waiting to be kept: they are kept once the viewer has asked for nothing for
 * `QUIET` milliseconds, so that keeping (the cache, the budget's records) never shares the
 * processors with a page the reader waits for; at most `MOST_WAITING` wait, so that reading
 * without a pause holds few of them in memory.
 */
const QUIET = 300;
const MOST_WAITING = 24;
let waiting = [];
let quietTimer = null;

/** Keeps `response` to `request` (as `keep`) once the viewer is quiet; resolves when kept. */
function keepWhenQuiet(request, response) {
  return new Promise((resolve) => {
    waiting.push(() => keep(request, response).then(resolve, resolve));
    clearTimeout(quietTimer);
    if (waiting.length >= MOST_WAITING) keepWaiting();
    else quietTimer = setTimeout(keepWaiting, QUIET);
  });
}

function keepWaiting() {
  clearTimeout(quietTimer);
  const kept = waiting;
  waiting = [];
  for (const each of kept) each();
}

let turn = Promise.resolve();

/** Keeps `response` to `request` when it may be kept, within the budget (one keep at a time). */
function keep(request, response) {
  const work = async () => {
    if (!response.ok || response.type !== "basic" || response.headers.has("Content-Disposition")) return;
    if (/^application\/x-ndjson/i.test(response.headers.get("Content-Type") || "")) return;
    const url = new URL(request.url);
    if (isShell(url)) {
      await (await caches.open(SHELL_CACHE)).put(url.origin + url.pathname, response);
      return;
    }
    const body = await response.arrayBuffer();
    if (body.byteLength > await budget()) return;
    await (await caches.open(KEPT_CACHE)).put(request.url, new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers }));
    await noteKept(request.url, body.byteLength);
  };
  turn = turn.then(work, work);
  return turn;
}
