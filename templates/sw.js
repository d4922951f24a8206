// Scorekeeper's service worker: keep the app shell, and when the signal drops show our own
// "offline, retrying" page instead of the browser's error page. Scores always come from the server;
// a page kept here is shown only without signal, and then says it is the page as of a time.
// A page that shows a key (an edit link, the club link) is never kept: it says "no-store", and
// the pages that take or show keys are left out by their address too.
// (The "3": caches made before are dropped, with any page they kept without a time or as a fragment.)
// The offline page and the pages kept are in the language this worker was fetched in (the
// worker varies by it, as every page does): the cache is named for that language, so a phone
// whose language changes fetches a worker that differs, and it fills a new cache in the new
// language and drops the old one on taking charge.
const CACHE = "scorekeeper-3-{{ locale_code() }}-{{ shell|join('|')|hash }}";
const KEYED = /^\/(club(\/|$)|games\/[0-9]+\/(share|join|seat)$)/;

function mayKeep(url, response) {
  const control = (response.headers.get("Cache-Control") || "").toLowerCase();
  return response.ok && !control.includes("no-store") && !KEYED.test(url.pathname) && !url.search.includes("key=");
}
const SHELL = {{ shell|tojson }};
importScripts({{ outbox_db|tojson }});
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
          if (mayKeep(url, response) && request.headers.get("HX-Request") !== "true") {
            event.waitUntil(keep(request, response.clone()));
          }
          return response;
        })
        .catch(() => caches.match(request).then((hit) => (hit ? marked(hit) : caches.match(OFFLINE))))
    );
  }
});

// Only whole pages are kept (never an htmx fragment: its page would show bare, unstyled), each
// with the time it was kept, so that the page can say how old it is when it is shown offline.
function keep(request, response) {
  return response.text().then((text) => {
    if (!/<html[\s>]/i.test(text)) {
      return undefined;
    }
    const headers = new Headers(response.headers);
    headers.set("X-Kept-At", String(Date.now()));
    const copy = new Response(text, { status: response.status, statusText: response.statusText, headers });
    return caches.open(CACHE).then((cache) => cache.put(request, copy));
  });
}

// A kept page served without signal says so: its body carries the time it was kept
// (data-kept-at), and the page's script (js/offline.js) shows "Offline: the scoreboard as of
// 21:04" and disables what cannot work without the server.
function marked(hit) {
  const at = hit.headers.get("X-Kept-At") || "0";
  return hit.text().then((text) => new Response(
    text.replace(/<body\b/i, '<body data-kept-at="' + at.replace(/[^0-9]/g, "") + '"'),
    { status: 200, headers: { "Content-Type": "text/html; charset=utf-8" } }
  ));
}

// Background sync, where the browser has it: the rounds waiting in the phone's outbox, and a
// player's own hand waiting on their phone (js/seat.js), are sent even when every page of the app
// is closed. With a page open, that page sends them (it shows the answer), so the worker only
// asks it to; a page opened before the worker took charge is still open, so it is asked too
// rather than raced.
self.addEventListener("sync", (event) => {
  if (event.tag === "outbox") {
    event.waitUntil(sendWaiting());
  }
});

function sendWaiting() {
  return self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((open) => {
    if (open.length) {
      open.forEach((client) => client.postMessage("send-outbox"));
      return undefined;
    }
    const rounds = OutboxDB.read("list").then((list) => {
      const games = {};
      (list || []).forEach((entry) => { (games[entry.game] = games[entry.game] || []).push(entry); });
      return Promise.all(Object.values(games).map(
        (entries) => sendInOrder(entries.sort((a, b) => Number(a.number) - Number(b.number)))));
    });
    const hands = OutboxDB.read("hands").then((list) => Promise.all((list || []).map(postHand)));
    return Promise.all([rounds, hands]);
  });
}

// A game's rounds one at a time, lowest number first. Only a plain "saved" (200) takes a round
// out of the outbox: a round refused (422) or differing from the stored one (409) stays for a
// page of the app to send again and show, and the game's later rounds wait behind it. Not
// reaching the server fails the sync, which the browser tries again later.
function sendInOrder(entries) {
  return entries.reduce((before, entry) => before.then((go) => (go ? post(entry) : false)), Promise.resolve(true));
}

function posted(entry) {
  const body = new URLSearchParams();
  let token = "";
  entry.fields.forEach(([name, value]) => {
    body.append(name, value);
    if (name === "csrf_token") { token = value; }
  });
  return fetch(entry.action, {
    method: "POST", body, credentials: "same-origin", headers: { "HX-Request": "true", "X-CSRFToken": token },
  });
}

function post(entry) {
  return posted(entry).then((response) => {
    if (response.status === 409 || response.status === 422) { return false; }
    if (response.status !== 200) { throw new Error(`not answered yet (${response.status})`); }
    return OutboxDB.change("list", (list) => (list || []).filter((e) => e.id !== entry.id))
      .then(() => OutboxDB.change("sent", (sent) => (sent || []).concat([entry.id])))
      .then(() => true);
  });
}

// A player's own hand, kept by the server once however often it comes. As for a round, only a
// plain "kept" (200) takes it out of the phone's outbox: a hand for a round saved meanwhile
// (409) or refused (422) stays for the player's page to send again and show what the server said.
function postHand(entry) {
  const key = `${entry.id}@${entry.at}`;
  return posted(entry).then((response) => {
    if (response.status === 409 || response.status === 422) { return undefined; }
    if (response.status !== 200) { throw new Error(`not answered yet (${response.status})`); }
    return OutboxDB.change("hands", (list) => (list || []).filter((e) => `${e.id}@${e.at}` !== key))
      .then(() => OutboxDB.change("sent-hands", (sent) => (sent || []).concat([key])));
  });
}
