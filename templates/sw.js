// Scorekeeper's service worker: keep the app shell, and when the signal drops show our own
// "offline, retrying" page instead of the browser's error page. Scores always come from the server.
// A page that shows a key (an edit link, the club link) is never kept: it says "no-store", and
// the pages that take or show keys are left out by their address too.
// (The "2": caches made before that rule are dropped, with any such page they kept.)
const CACHE = "scorekeeper-2-{{ shell|join('|')|hash }}";
const KEYED = /^\/(club(\/|$)|games\/[0-9]+\/(share|join)$)/;

function mayKeep(url, response) {
  const control = (response.headers.get("Cache-Control") || "").toLowerCase();
  return response.ok && !control.includes("no-store") && !KEYED.test(url.pathname) && !url.search.includes("key=");
}
const SHELL = {{ shell|tojson }};
const OFFLINE = {{ offline|tojson }};

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(SHELL)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys.filter((k) => k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim())
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || new URL(request.url).origin !== self.location.origin) {
    return;
  }
  const url = new URL(request.url);
  if (url.pathname.startsWith("/static/")) {
    event.respondWith(caches.match(request).then((hit) => hit || fetch(request)));
    return;
  }
  if (request.mode === "navigate") {
    event.respondWith(
      fetch(request)
        .then((response) => {
          if (mayKeep(url, response)) {
            const copy = response.clone();
            caches.open(CACHE).then((cache) => cache.put(request, copy));
          }
          return response;
        })
        .catch(() => caches.match(request).then((hit) => hit || caches.match(OFFLINE)))
    );
  }
});
