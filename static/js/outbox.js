// The outbox: a round saved on this phone stays here (localStorage: it outlives a reload, a
// closed tab, a browser restart) until the server has answered it. It is sent by itself, from
// any page of the app, as soon as the server can be reached; one send at a time for each round,
// and a resend is safe (the server recognises the phone's own round).
// createOutbox is the whole of that, on the storage, fetch and clock it is handed, so that it
// runs in Node as well (tests/js/outbox.test.mjs); below it, the page's side: the notes that
// show it, on every page (the round screen's Save fills it: drafts.js). Nothing happens at import.
import { backOnline, el, inSentence, lose, roundWord, say, word } from "./banner.js";

export var OUTBOX = "scorekeeper-outbox";
// A round's draft (drafts.js) is kept under its round's action and number: the same round in
// another tab is the same draft, and a round number that comes again after an undo is another
// round once the first was saved. Its entry here has the same id, and its answer forgets it.
export var DRAFT = "scorekeeper-draft:";
export function draftId(action, number) { return action + "#" + number; }
export function formDraftId(form) {
  var number = form.querySelector("input[name=number]");
  return draftId(form.getAttribute("action"), number ? number.value : "");
}
// One tab sends a round at a time: the others leave it while its send is this fresh.
export var CLAIM_MS = 20000;
// A send that failed is tried again this much later.
export var RETRY_MS = 3000;

// deps: storage and session (localStorage and sessionStorage; null where they cannot be had),
// fetch, online() (false only when the phone knows it has no network), now() and random(),
// setTimeout and clearTimeout, db() (the IndexedDB copy the service worker sends from, if any),
// and what the page does about it: changed(list), forgetDraft(id), notSent(entry) (not sent,
// tried again by itself) and answered(entry, response, html) (the server's answer, taken).
// The scorekeeper's rounds are the outbox of that name; a player's own hand (seat.js) waits in
// another, named by deps.name, whose entries the service worker lists as sent under
// deps.sentList ("sent" by default), each by deps.sentKey(entry) (by default its id).
export function createOutbox(deps) {
  var sending = {}, retry = null;
  var name = deps.name || OUTBOX, sentList = deps.sentList || "sent";
  var sentKey = deps.sentKey || function (entry) { return entry.id; };

  function list() {
    try { return JSON.parse(deps.storage.getItem(name) || "[]"); } catch (e) { return []; }
  }
  function write(entries) {
    try { deps.storage.setItem(name, JSON.stringify(entries)); } catch (e) { /* private mode */ }
  }
  function put(entries) {
    write(entries);
    deps.changed(entries);
  }
  function find(id) { return list().filter(function (e) { return e.id === id; })[0] || null; }
  function drop(id) { put(list().filter(function (e) { return e.id !== id; })); }

  // A round saved (again: its form changed while it waited). rev tells a send in flight that
  // what it sent is no longer what waits; at, where given, is when it was saved.
  function keep(round) {
    var entries = list();
    var entry = entries.filter(function (e) { return e.id === round.id; })[0];
    if (!entry) {
      entry = { id: round.id, action: round.action, game: round.game, number: round.number, word: round.word,
                own: round.own, rev: 0 };
      entries.push(entry);
    }
    entry.fields = round.fields;
    entry.correction = round.correction;
    entry.round = round.round;
    entry.holds = round.holds;
    entry.at = round.at;
    entry.rev += 1;
    put(entries);
  }

  // A game's rounds are sent in order: the lowest number first, the next once it is answered.
  function flush() {
    var first = {};
    list().forEach(function (e) {
      if (!first[e.game] || Number(e.number) < Number(first[e.game].number)) { first[e.game] = e; }
    });
    // A phone that knows it has no network does not try: going online sends it. (A send that
    // fails while the phone believes it is online is retried the same way, below.)
    Object.keys(first).forEach(function (game) {
      if (deps.online() === false) { notSent(first[game]); } else { send(first[game]); }
    });
  }
  function later() {
    deps.clearTimeout(retry);
    retry = deps.setTimeout(flush, RETRY_MS);
  }

  var tab = String(deps.random());
  try {
    tab = deps.session.getItem("scorekeeper-tab") || tab;  // the same tab after a reload
    deps.session.setItem("scorekeeper-tab", tab);
  } catch (e) { /* private mode */ }
  function claim(entry) {
    var entries = list(), mine = entries.filter(function (e) { return e.id === entry.id; })[0];
    if (!mine || (mine.tab && mine.tab !== tab && deps.now() - mine.claimed < CLAIM_MS)) { return false; }
    mine.tab = tab;
    mine.claimed = deps.now();
    write(entries);
    return true;
  }
  function release(entry) {
    var entries = list();
    entries.forEach(function (e) { if (e.id === entry.id && e.tab === tab) { e.tab = null; } });
    write(entries);
  }
  // The page is going (its tab closed, the app put away, another page opened): what it was
  // sending is let go, or the page opened next would leave it for CLAIM_MS as another tab's.
  // A send still on its way may then go twice, which is safe.
  function leave() {
    var entries = list();
    if (!entries.some(function (e) { return e.tab === tab; })) { return; }
    entries.forEach(function (e) { if (e.tab === tab) { e.tab = null; } });
    write(entries);
  }

  function send(entry) {
    if (sending[entry.id] || !claim(entry)) { return; }
    sending[entry.id] = true;
    var body = new URLSearchParams(), token = "";
    entry.fields.forEach(function (f) { body.append(f[0], f[1]); if (f[0] === "csrf_token") { token = f[1]; } });
    deps.fetch(entry.action, { method: "POST", body: body, credentials: "same-origin",
                               headers: { "HX-Request": "true", "X-CSRFToken": token } })
      .then(function (response) {
        return response.text().then(function (html) { answered(entry, response, html); });
      })
      .catch(function () {
        delete sending[entry.id];
        release(entry);
        notSent(entry);
      });
  }
  function notSent(entry) {
    deps.notSent(entry);
    later();
  }
  // Saved (200), refused (422: the form comes back with the server's words, and its draft
  // stays) or differing from what the server holds (409): answered, so out of the outbox.
  // Anything else is no answer yet.
  function answered(entry, response, html) {
    delete sending[entry.id];
    var status = response.status;
    if (status !== 200 && status !== 409 && status !== 422) { release(entry); later(); return; }
    var now = find(entry.id);
    if (now && now.rev !== entry.rev) { send(now); return; }  // changed meanwhile: the server compares
    drop(entry.id);
    if (status !== 422) { deps.forgetDraft(entry.id); }
    deps.setTimeout(flush, 0);  // the game's next round, if one waits
    deps.answered(entry, response, html);
  }

  // Rounds the service worker sent while no page was open leave the outbox (and their drafts).
  function takeSent() {
    var db = deps.db();
    if (!db || !db.works) { return Promise.resolve(); }
    return db.read(sentList).then(function (keys) {
      if (!keys || !keys.length) { return undefined; }
      var isSent = function (e) { return keys.indexOf(sentKey(e)) >= 0; };
      var gone = list().filter(isSent);
      put(list().filter(function (e) { return !isSent(e); }));
      gone.forEach(function (e) { deps.forgetDraft(e.id); });
      return db.change(sentList, function (sent) {
        return (sent || []).filter(function (key) { return keys.indexOf(key) < 0; });
      });
    }).catch(function () { /* nothing to take */ });
  }

  return {
    list: list, find: find, keep: keep, drop: drop, flush: flush, takeSent: takeSent, leave: leave,
    isSending: function (id) { return !!sending[id]; }
  };
}

// ---- The page's side.
var box = null;
var hooks = { redraw: function () {}, showKeptBoard: function () { return false; }, shown: function () {} };

export function outbox() { return box ? box.list() : []; }
export function flush() { box.flush(); }
export function drop(id) { box.drop(id); }
export function isSending(id) { return box.isSending(id); }
export function takeSent() { return box.takeSent(); }
export function keep(round) { box.keep(round); }

export function waiting(form) {
  if (!form.hasAttribute("data-outbox")) { return null; }
  return box.find(formDraftId(form));
}
export function gameOf(action) { var m = /\/games\/([0-9]+)\//.exec(action); return m ? m[1] : ""; }
export function gameInAddress() {
  var m = /^\/games\/([0-9]+)(\/|$)/.exec(location.pathname);
  return m ? m[1] : "";
}
export function describe(entry, full) {
  var here = !full && entry.game === gameInAddress();
  var values = { round: entry.correction ? inSentence(entry.word) : entry.word, number: entry.number, game: entry.game };
  if (entry.correction) {
    return here ? roundWord("correction_waiting", entry.own, "Correction of {round} {number}: waiting to send", values)
      : roundWord("correction_waiting_game", entry.own, "Correction of {round} {number} of game {game}: waiting to send", values);
  }
  return here ? roundWord("waiting", entry.own, "{round} {number}: waiting to send", values)
    : roundWord("waiting_game", entry.own, "{round} {number} of game {game}: waiting to send", values);
}

// The service worker cannot read localStorage: for its background sync (sw.js) the outbox is
// mirrored into IndexedDB (outbox-db.js: "list", a player's own hands "hands"), and the worker
// is asked to send it when it can.
export function mirror(list, key) {
  if (!window.OutboxDB || !window.OutboxDB.works) { return; }
  window.OutboxDB.write(key || "list", list).then(function () {
    if (!list.length || !navigator.serviceWorker) { return undefined; }
    return navigator.serviceWorker.ready.then(function (reg) { return reg.sync && reg.sync.register("outbox"); });
  }).catch(function () { /* no IndexedDB or no sync here: the pages send it */ });
}

function notSent(entry) {
  lose(roundWord("not_sent", entry.own, "Offline, retrying\u2026 {round} {number} is kept on this phone and sent by itself when the " +
            "signal returns.", { round: inSentence(entry.word), number: entry.number }));
  // The round just saved waits, and the phone knows it has no network: the scoreboard this
  // phone kept takes the form's place (with what waits, worked out on the phone), at the
  // game's own address, so that a reload or Back leads to the game rather than to a form
  // already saved. (A send that failed with the network up, an answer lost, is tried again in
  // a moment: the form stays, and a card missed can still be added to what is sent.)
  var form = document.querySelector("form.round-form[data-replay]");
  if (navigator.onLine === false && form && waiting(form) && gameOf(form.getAttribute("action")) === entry.game) {
    hooks.showKeptBoard(entry.game, true);
  }
}

function answered(entry, response, html) {
  backOnline();
  var form = document.querySelector("form.round-form[data-outbox]");
  if (form && gameOf(form.getAttribute("action")) === entry.game &&
      Number(form.querySelector("input[name=number]").value) > Number(entry.number)) {
    // The scorekeeper is already entering a later round: it stays on screen.
    say(roundWord("sent", entry.own, "{round} {number} sent.", { round: entry.word, number: entry.number }));
    showOutbox();
    return;
  }
  var mine = (form && formDraftId(form) === entry.id) || entry.game === gameInAddress() ||
    document.querySelector("[data-offline-page]");
  var main = document.querySelector("#main");
  if (!mine || !main || !window.htmx) {
    say(roundWord("sent_game", entry.own, "{round} {number} of game {game} sent.", { round: entry.word, number: entry.number, game: entry.game }));
    return;
  }
  window.htmx.swap(main, html, { swapStyle: "innerHTML", swapDelay: 0, settleDelay: 0 });
  var url = response.headers.get("HX-Push-Url");
  if (url && url !== location.pathname) { history.pushState({ htmx: true }, "", url); }
  hooks.redraw(main);
}

// On screen: a note for each round waiting, and the Save of a waiting round shows it waits.
export function showOutbox() {
  var main = document.querySelector("#main");
  if (!main) { return; }
  main.querySelectorAll(".outbox-note").forEach(function (n) { n.remove(); });
  var list = outbox();
  if (list.length && !document.querySelector("[data-offline-page]")) {
    var note = el("div", "outbox-note");
    note.setAttribute("role", "status");
    list.forEach(function (entry) {
      var line = el("p");
      line.appendChild(el("strong", "", describe(entry)));
      line.appendChild(el("span", "small", " " + entry.holds));
      note.appendChild(line);
    });
    main.insertBefore(note, main.firstChild);
  }
  document.querySelectorAll("form.round-form[data-outbox]").forEach(function (form) {
    var save = form.querySelector("button[name=save]");
    if (!save._words) { save._words = save.textContent; }
    var pending = waiting(form);
    save.disabled = !!pending;
    save.classList.toggle("is-waiting", !!pending);
    save.textContent = pending ? word("save_waiting", "Waiting to send\u2026") : save._words;
  });
  waitingList();
  hooks.shown();
}

// The offline page: what this phone still has to send (nothing, or the rounds in its outbox).
export function waitingList() {
  var spot = document.querySelector("[data-waiting]");
  if (!spot) { return; }
  // Every offline page leads back: to this address again, and to each game this phone knows.
  var again = document.querySelector("[data-try-again]");
  if (again) { again.setAttribute("href", location.pathname + location.search); }
  var back = document.querySelector("[data-way-back]");
  if (back && !back.querySelector("[data-game-link]")) {
    var games = [gameInAddress()].concat(outbox().map(function (e) { return e.game; })).filter(function (id, i, all) {
      return id && all.indexOf(id) === i;
    });
    games.forEach(function (id) {
      var link = el("a", "button primary", word("back_to_game", "Back to game {game}", { game: id }));
      link.href = "/games/" + id;
      link.setAttribute("data-game-link", id);
      back.insertBefore(link, back.firstChild);
    });
  }
  var list = outbox();
  spot.textContent = "";
  if (!list.length) { spot.textContent = word("nothing_waiting", "Nothing from this phone is waiting to be sent."); return; }
  var items = el("ul", "waiting");
  list.forEach(function (entry) { items.appendChild(el("li", "", describe(entry, true) + " (" + entry.holds + ")")); });
  spot.appendChild(el("strong", "", word("waiting_list", "Waiting to be sent from this phone:")));
  spot.appendChild(items);
}

// What an outbox takes from the browser it runs in: its network, clock, timers and the outbox
// the service worker shares (outbox-db.js). The tests hand createOutbox their own instead.
export function browserParts() {
  return {
    fetch: function (url, options) { return window.fetch(url, options); },
    online: function () { return navigator.onLine; },
    now: Date.now, random: Math.random,
    setTimeout: function (fn, ms) { return window.setTimeout(fn, ms); },
    clearTimeout: function (id) { window.clearTimeout(id); },
    db: function () { return window.OutboxDB; },
  };
}

// storage, session: the phone's localStorage and sessionStorage (null where they cannot be
// had). redraw(root): a page part drawn anew (main.js's init); showKeptBoard(game, replace):
// the scoreboard kept on the phone in the form's place; shown(): after the outbox is drawn.
export function install(storage, session, pageHooks) {
  hooks = pageHooks;
  box = createOutbox({
    ...browserParts(),
    storage: storage, session: session,
    changed: function (list) { mirror(list); showOutbox(); },
    forgetDraft: function (id) {
      try { storage.removeItem(DRAFT + id); } catch (e) { /* no storage, or private mode */ }
    },
    notSent: notSent,
    answered: answered
  });

  window.addEventListener("online", flush);
  window.addEventListener("pagehide", function () { box.leave(); });
  if (navigator.serviceWorker) {
    navigator.serviceWorker.addEventListener("message", function (event) { if (event.data === "send-outbox") { flush(); } });
  }
  window.addEventListener("storage", function (event) { if (event.key === OUTBOX) { showOutbox(); } });
  setInterval(function () { if (outbox().length) { flush(); } }, 5000);
}
