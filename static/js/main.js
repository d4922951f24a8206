// The phone's side of the app, the module a page starts: it installs each part's listeners (in
// this order: where two parts listen for the same event, the earlier one acts first), draws a
// page or an htmx fragment as it arrives, and holds the small pieces that belong to no part.
// Without this script every form posts to the server, which does the same.
// The parts every page needs are imported here; the others only where the page's markup asks
// for them (roundScreen, seats below), and the page preloads those it has from the start
// (its template's `modules`: web/assets.py).
import * as banner from "./banner.js";
import { install as installLive, wake } from "./live.js";
import { install as installOffline, keepBlankForm, keepBoard, keptPage, offlineHelpers, offlineLanding, phoneFigures,
         showKeptBoard } from "./offline.js";
import { flush, install as installOutbox, outbox, showOutbox, takeSent, waiting, waitingList } from "./outbox.js";

// Reading localStorage itself throws where the browser forbids storage: each part then keeps
// nothing, as it does when a write is refused.
function storage(name) {
  try { return window[name]; } catch (e) { return null; }
}

// This version of the phone's script: every module's address carries its content's hash, and
// the page's import map names them all (the server writes it: web/assets.py).
function build() {
  var map = document.querySelector("script[type=importmap]");
  var versions = map ? map.textContent.match(/[?&]v=[0-9a-f]+/g) : null;
  return versions ? versions.join("") : import.meta.url;
}

// A player's own phone (their seat link): their hand sent from an outbox of its own, and the
// page following the round (seat.js). Not reached (no signal, and nothing kept it): the form
// posts as without this script, and the next page or fragment tries again.
var seat = null;
function ownHand() {
  seat = seat || import("./seat.js").then(function (part) {
    part.install(storage("localStorage"), storage("sessionStorage"));
  }, function () { seat = null; });
  return seat;
}

// The round screen's parts, once one is on the page: players' own hands arriving (where seat
// links are in use: its form has data-sent; first, so that it sees the scorekeeper's tap before
// the keypad moves on), or on a player's own phone the sending of their hand (first too), the
// keypad, and the drafts (every change to a round form is kept as its draft, and Save puts the
// round in the outbox).
var round = null, arrivals = null;
function roundScreen(root) {
  if (root.querySelector("form.round-form[data-sent]") && !arrivals) {
    // Not reached (no signal, and nothing kept it): the round is entered without it, as nothing
    // can arrive without signal anyway; the next round screen tries again.
    arrivals = import("./arrivals.js").then(function (part) { part.install(); }, function () { arrivals = null; });
  }
  var own = root.querySelector("form[data-seat-form]") ? ownHand() : null;
  if (!round) {
    round = Promise.all([arrivals, own, import("./keypad.js"), import("./drafts.js")]).then(function (parts) {
      var keypad = parts[2], drafts = parts[3];
      keypad.install(drafts.saveDraft);
      drafts.install(storage("localStorage"));
      return { keypad: keypad, drafts: drafts };
    });
  }
  return round;
}
// New game: a seat appears as the last one gets a name.
var seats = null;
function seatList() {
  seats = seats || import("./seats.js").then(function (part) { part.install(); }, function () { seats = null; });
}
// The share sheet offered beside a link, or for a result card's picture (share.js). Not
// reached: the link is there to copy, the picture's link downloads it.
var share = null;
function shareSheet(root) {
  share = share || import("./share.js").catch(function () { share = null; });
  share.then(function (part) {
    if (part) { part.offer(root, navigator); part.offerFile(root, navigator, window.fetch.bind(window)); }
  });
}
// A part not reached (no signal, and no service worker yet): the page works as without this
// script, and the next page or fragment tries again.
function notLoaded() { round = arrivals = null; }

// Where the browser gives no service worker (a plain-HTTP address on the table's Wi-Fi: not a
// secure context), nothing keeps the parts a game goes on with when the signal drops. The
// scorekeeper's pages of a game (they carry its data for the phone's replay) fetch them now,
// while there is signal: once imported they stay in this page's memory, and in the browser's
// cache under their versioned addresses. With a service worker, it keeps every module.
var partsKept = null;
function keepPartsForNoSignal() {
  if (partsKept || "serviceWorker" in navigator || !document.querySelector("[data-replay]")) { return; }
  partsKept = Promise.all([import("./keypad.js"), import("./drafts.js"), offlineHelpers()])
    .catch(function () { partsKept = null; });  // tried again on the next page or fragment
}

// A page, or the part htmx or the outbox just put in: the round forms drawn (with their drafts
// put back), the screen kept awake, the outbox shown, the scoreboard and blank round screen kept.
function init(root) {
  root = root || document;
  if (root.querySelector("[data-own-hand]")) { ownHand(); }
  var forms = root.querySelectorAll("form.round-form");
  if (forms.length) {
    roundScreen(root).then(function (parts) {
      forms.forEach(function (form) {
        if (!document.body.contains(form)) { return; }
        if (parts.drafts.restoreDraft(form) && !waiting(form)) { parts.drafts.sayKept(form); }
        parts.keypad.redraw(form);
      });
    }, notLoaded);
  }
  if (root.querySelector("[data-seats]")) { seatList(); }
  if (root.querySelector("button[data-share-url], a[data-share-file]")) { shareSheet(root); }
  keepPartsForNoSignal();
  wake();
  showOutbox();
  keepBlankForm();
  keepBoard();
}

installOffline(build(), init);
installOutbox(storage("localStorage"), storage("sessionStorage"),
              { redraw: init, showKeptBoard: showKeptBoard, shown: phoneFigures });
installLive();
banner.install();

// ---- History and ratings: a filter applies as soon as it is changed (htmx, on "change"),
// so its Show button, there for a phone without scripts, is hidden where htmx runs.
function applyOnChange(root) {
  if (!window.htmx) { return; }
  (root || document).querySelectorAll("form.filters[hx-get] [data-show]").forEach(function (b) { b.hidden = true; });
}
document.addEventListener("DOMContentLoaded", function () { applyOnChange(document); });
document.addEventListener("htmx:afterSettle", function (event) { applyOnChange(event.target); });

document.addEventListener("DOMContentLoaded", function () {
  banner.setKept(Number(document.body.getAttribute("data-kept-at")) || null);
  init(document);
  if (banner.keptAt() || document.querySelector("[data-offline-page]")) { offlineLanding(); }
  keptPage();
  waitingList();
  var sw = document.body.getAttribute("data-sw");
  if (sw && "serviceWorker" in navigator) { navigator.serviceWorker.register(sw, { scope: "/" }).catch(function () {}); }
  takeSent().then(flush);
  // The offline page tries again every few seconds (once nothing waits to be sent: a round
  // waiting is sent first, and its answer takes this page's place).
  if (document.querySelector("[data-offline-page]")) {
    setInterval(function () {
      if (document.querySelector("[data-offline-page]") && !outbox().length) { location.reload(); }
    }, 5000);
  }
});
document.addEventListener("htmx:afterSettle", function (event) { init(event.target); });

// ---- The undo bar's answer ("Round 4 restored.") is shown at the top of the page; the person
// who tapped Restore is looking at the foot. While the message is out of sight a copy of it
// stands where the bar was, for a few seconds (the page itself does not move under the thumb).
var fromBar = false;
document.addEventListener("htmx:beforeRequest", function (event) {
  if (event.detail.elt.closest && event.detail.elt.closest("[data-undo]")) { fromBar = true; }
});
document.addEventListener("htmx:afterSettle", function (event) {
  if (!fromBar || event.target.id !== "main") { return; }
  fromBar = false;
  var flashes = event.target.querySelector(".flashes");
  if (!flashes) { return; }
  var box = flashes.getBoundingClientRect();
  if (box.top >= 0 && box.bottom <= window.innerHeight) { return; }
  var copy = flashes.cloneNode(true);
  copy.classList.add("flash-float");
  copy.removeAttribute("role");
  copy.setAttribute("aria-hidden", "true");  // the message itself is announced, once
  document.body.appendChild(copy);
  setTimeout(function () { copy.remove(); }, 5000);
});
