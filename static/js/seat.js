// A player's own phone (their seat link): the hand tapped on the round screen's keypad
// (keypad.js does the keys, chips and penalty) is sent to the scorekeeper from an outbox on this
// phone until the server has it. It is the outbox the scorekeeper's rounds wait in
// (outbox.js's createOutbox), under a name of its own: it outlives a reload and a lost signal,
// and the service worker sends it too, by background sync, with every page of the app closed.
// The page asks the server, conditionally, whether the round was saved or the hand changed on
// the seat's other phone. Without this script the form posts and the server answers the same.
// main.js installs it where the page is a player's own hand, before the keypad: it sees a tap
// on a key or a chip before the keypad redraws the chips.
import { word } from "./banner.js";
import { DRAFT, browserParts, createOutbox, draftId, formDraftId, gameOf, mirror } from "./outbox.js";

export var SEAT_OUTBOX = "scorekeeper-seat-outbox";
// Each hand the service worker sent is known by its id and the moment it was sent: one the
// player sent again since (a later moment) still waits.
export function sentKey(entry) { return entry.id + "@" + entry.at; }
// The outbox a player's hands wait in: its name in the phone's storage, and the list the
// service worker names the hands it sent in (outbox-db.js), each by sentKey.
export var HANDS = { name: SEAT_OUTBOX, sentList: "sent-hands", sentKey: sentKey };
export var POLL_MS = 1000;
export var RETRY_MS = 3000;

// Where the phone refuses to keep anything (private mode, storage switched off) the hand waits
// in this page's memory instead, and is still sent while the page is open.
export function keptOrInMemory(storage) {
  var memory = {}, refused = !storage;
  return {
    getItem: function (key) {
      if (!refused) {
        try { return storage.getItem(key); } catch (e) { refused = true; }
      }
      return Object.prototype.hasOwnProperty.call(memory, key) ? memory[key] : null;
    },
    setItem: function (key, value) {
      memory[key] = String(value);
      if (!refused) {
        try { storage.setItem(key, value); } catch (e) { refused = true; }
      }
    },
    removeItem: function (key) {
      delete memory[key];
      if (!refused) {
        try { storage.removeItem(key); } catch (e) { refused = true; }
      }
    }
  };
}

// The hand a seat form sends (entries: its FormData): every field but the row picked, and "send".
export function handOf(form, entries, now) {
  var fields = [];
  entries.forEach(function (value, name) { if (name !== "seat") { fields.push([name, String(value)]); } });
  fields.push(["send", "1"]);
  var action = form.getAttribute("action"), number = form.querySelector("input[name=number]").value;
  return { id: draftId(action, number), action: action, game: gameOf(action), number: number,
           word: form.getAttribute("data-word"), own: form.hasAttribute("data-own-word"), fields: fields, at: now };
}

var box = null, storage = null, taken = false, dirty = false, tag = null, polling = null;

function page() { return document.querySelector("[data-own-hand]"); }
function form() { return document.querySelector("form[data-seat-form]"); }
function say(text) {
  var line = document.querySelector("[data-sent-line]");
  if (line) { line.textContent = text; }
}
function forgetDraft(id) {
  try { storage.removeItem(DRAFT + id); } catch (e) { /* no storage, or private mode */ }
}
function notSent() {
  say(word("hand_not_sent", "Not sent yet: no signal. Your hand is kept on this phone and goes to the scorekeeper by " +
           "itself when the signal returns."));
}

function swap(html) {
  var main = document.querySelector("#main");
  if (!main) { return; }
  if (window.htmx) {
    window.htmx.swap(main, html, { swapStyle: "innerHTML", swapDelay: 0, settleDelay: 0 });
  } else {
    main.innerHTML = html;
  }
  dirty = false;
  var holder = page();
  if (holder && holder.getAttribute("data-tag")) { tag = holder.getAttribute("data-tag"); }
}

// The server's answer (the hand kept, refused, or the round saved meanwhile) takes the page's
// place, unless the player is already changing the hand it kept. A draft of the form on the
// page is forgotten whatever the answer: the page the server sent is the one to go on from.
function answered(entry, response, html) {
  var f = form();
  if (f && formDraftId(f) === entry.id) { forgetDraft(entry.id); }
  if (page() && !(dirty && response.status === 200)) { swap(html); }
}

// Nothing is sent before the hands the service worker sent while no page was open have left
// the outbox: each is sent once.
function flush() { if (taken) { box.flush(); } }

// Has the round been saved, or the hand changed on the seat's other phone or entered by the
// scorekeeper? One small question every second, as the round screen asks (304 while nothing
// changed), so the scorekeeper's entry shows here within a second or two of their last tap;
// the answer replaces the page unless the player is changing their hand for the same round.
function poll() {
  var holder = page();
  if (!holder || document.hidden || box.list().length || navigator.onLine === false) { return; }
  var headers = { "HX-Request": "true" };
  if (tag) { headers["If-None-Match"] = tag; }
  fetch(holder.getAttribute("data-live"), { headers: headers, credentials: "same-origin", cache: "no-store" })
    .then(function (response) {
      if (response.status !== 200) { return undefined; }
      return response.text().then(function (html) {
        var f = form();
        var next = new DOMParser().parseFromString(html, "text/html").querySelector("form[data-seat-form] input[name=number]");
        var same = f && next && next.value === f.querySelector("input[name=number]").value;
        if (dirty && same) { return; }
        swap(html);
        tag = response.headers.get("ETag") || tag;
      });
    })
    .catch(function () { /* no signal: asked again in a moment */ });
}

// A change the player has not sent yet: what the server says meanwhile does not replace it.
function changed(event) {
  if (event.isTrusted && event.target.closest && event.target.closest("form[data-seat-form]") &&
      !(event.target.closest("button[name=send]"))) { dirty = true; }
}

// local, session: the phone's localStorage and sessionStorage (null where they cannot be had).
export function install(local, session) {
  if (box) { return; }
  storage = local;
  box = createOutbox({
    ...browserParts(),
    name: HANDS.name, sentList: HANDS.sentList, sentKey: HANDS.sentKey,
    storage: keptOrInMemory(local), session: session,
    changed: function (list) { mirror(list, "hands"); },
    forgetDraft: forgetDraft,
    notSent: notSent,
    answered: answered
  });

  // "Out" is a box the player can untick: the row is out only while it is ticked. Heard on the
  // window, so after the keypad (on the document) has marked its row out whichever way it moved.
  window.addEventListener("change", function (event) {
    var tick = event.target;
    if (!tick.matches || !tick.matches("form[data-seat-form] input[name=went_out]")) { return; }
    tick.closest(".player").classList.toggle("is-out", tick.checked);
  });
  document.addEventListener("input", changed);
  document.addEventListener("change", changed);
  document.addEventListener("click", function (event) {
    if (event.target.closest && event.target.closest("form[data-seat-form] [data-rank], form[data-seat-form] [data-remove], form[data-seat-form] [data-edit]")) {
      changed(event);
    }
  });

  // Send: the hand goes into the outbox, and from there to the server (the form does not post).
  document.addEventListener("submit", function (event) {
    var f = event.target;
    if (!f.matches || !f.matches("form[data-seat-form]") || !event.submitter || event.submitter.name !== "send") { return; }
    event.preventDefault();
    event.stopPropagation();
    box.keep(handOf(f, new FormData(f), Date.now()));
    dirty = false;
    say(word("sending", "Sending\u2026"));
    flush();
  }, true);

  window.addEventListener("online", flush);
  window.addEventListener("pagehide", function () { box.leave(); });
  window.setInterval(function () { if (box.list().length) { flush(); } }, RETRY_MS);
  // The service worker's background sync, with a page open, leaves the sending to the page.
  if (navigator.serviceWorker) {
    navigator.serviceWorker.addEventListener("message", function (event) { if (event.data === "send-outbox") { flush(); } });
  }
  document.addEventListener("visibilitychange", function () { if (!document.hidden) { poll(); } });

  var holder = page();
  tag = holder ? holder.getAttribute("data-tag") : null;
  polling = polling || window.setInterval(poll, POLL_MS);
  box.takeSent().then(function () {
    taken = true;
    if (box.list().length) { say(word("hand_sending", "Not sent yet: sending\u2026")); flush(); }
  });
}
