// Recording without the server. The blank round screen of each game this phone keeps score
// for, and its scoreboard as last seen live, are kept on the phone, so that a table whose signal
// dropped can go on: the kept scoreboard is shown where the server's would be, the form is
// turned into the round the phone's replay says comes next, and what is saved goes into the
// outbox like any round. Nothing happens at import: main.js installs the listeners.
import { el, inSentence, keptAt, keptWords, offline, roundWord, say, setKept, stageWord, word } from "./banner.js";
import { drop, gameInAddress, gameOf, isSending, outbox, waiting } from "./outbox.js";

// A page part drawn anew (main.js's init, set by install).
var redraw = function () {};

// The phone's replay and the form it turns into the next round's: imported once a round waits
// to be sent or the signal is gone (the service worker keeps them, as every module).
var Replay = null, Form = null, helpers = null;
export function offlineHelpers() {
  if (!helpers) {
    helpers = Promise.all([import("./offline-replay.js"), import("./offline-form.js")]).then(function (parts) {
      Replay = parts[0];
      Form = parts[1];
    });
    helpers.catch(function () { helpers = null; });  // not reached: tried again when next needed
  }
  return helpers;
}

// The scoreboard and the round screen, while this game's rounds wait: the phone works them
// out by the rule set's data the page holds (offline-replay.js), marked "not yet sent"; the
// server's answers replace these figures as each round is sent. Without the server the
// scorekeeper records the next round here too (offline-form.js).
function phoneState(holder, id) {
  if (!holder || !Replay) { return null; }
  var game = JSON.parse(holder.getAttribute("data-replay"));
  if (!game.state.next) { return null; }
  var mine = outbox().filter(function (e) { return e.game === id && e.round && Number(e.number) >= game.state.next.number; })
    .sort(function (a, b) { return Number(a.number) - Number(b.number); });
  if (mine.length && Number(mine[0].number) !== game.state.next.number) { return null; }
  var state = null;
  try { state = Replay.replay(game, mine.map(function (e) { return e.round; })); } catch (e) { /* shown below */ }
  return { game: game, mine: mine, state: state };
}
export function phoneFigures() {
  var drawn = document.querySelectorAll(".phone-figures");
  drawn.forEach(function (n) { n.remove(); });
  document.querySelectorAll("[data-phone-hid]").forEach(function (n) { n.hidden = false; n.removeAttribute("data-phone-hid"); });
  var board = document.querySelector("#board[data-replay]"), form = document.querySelector("form.round-form[data-replay]");
  var holder = board || (form && waiting(form) ? form : null);
  if (!holder) { return; }
  if (drawn.length && board) { askWhenSent(board); }
  var id = board ? board.getAttribute("data-game") : gameOf(form.getAttribute("action"));
  if (!Replay) {
    if (outbox().some(function (e) { return e.game === id && e.round; })) { offlineHelpers().then(phoneFigures, function () {}); }
    return;
  }
  var phone = phoneState(holder, id);
  if (!phone || !phone.mine.length) { return; }
  var box = el("section", "phone-figures"), state = phone.state, game = phone.game;
  box.setAttribute("aria-label", word("phone_figures", "Worked out on this phone"));
  holder.parentNode.insertBefore(box, holder);
  if (!state) {
    box.appendChild(el("p", "", word("phone_unknown", "Not yet sent: the scores are worked out when the rounds reach the server.")));
    return;
  }
  var last = phone.mine[phone.mine.length - 1], round = inSentence(last.word);
  var lastRound = { round: round, number: last.number }, nextRound = { round: round, number: state.next && state.next.number };
  box.appendChild(el("h2", "", roundWord("phone_after", last.own, "Not yet sent: after {round} {number}, worked out on this phone", lastRound)));
  var list = el("ol", "phone-totals");
  var place = Replay.places(game, state);
  game.players.map(function (name, seat) { return { name: name, seat: seat, total: state.totals[seat], level: state.completed[seat] }; })
    .sort(function (a, b) { return place[a.seat] - place[b.seat] || a.seat - b.seat; })
    .forEach(function (p) {
      var item = el("li");
      item.value = place[p.seat];  // a tie shares its number: 3, 3 and not 3, 4
      item.setAttribute("data-player", p.name);
      item.appendChild(el("span", "pname", p.name));
      item.appendChild(el("strong", "phone-total", " " + p.total));
      if (p.level !== null) {
        item.appendChild(el("span", "small", " \u00b7 " + stageWord("level", game.stage_kind, "{stage} {number}",
                                                                   { stage: inSentence(game.stage_word), number: Replay.stageOf(game, state, p.seat) })));
      }
      list.appendChild(item);
    });
  box.appendChild(list);
  // The scoreboard's own "Record round N" names the server's next round; the phone's is
  // later, and that is the one its kept round screen opens.
  var record = board && state.next ? board.querySelector("a[href$='/rounds/new']") : null;
  if (record) { record.textContent = roundWord("record", last.own, "Record {round} {number}", nextRound); }
  box.appendChild(el("p", "small", state.next
    ? roundWord("next", last.own, "Next: {round} {number}, {name} deals.", { round: round, number: state.next.number, name: state.next.dealer })
    : roundWord("ends_with", last.own, "The game ends with {round} {number}.", lastRound)));
  if (state.next && (form || stashed(id))) {
    var next = el("button", "button primary wide", roundWord("record_here", last.own, "Record {round} {number} on this phone", nextRound));
    next.type = "button";
    next.setAttribute("data-record-next", id);
    box.appendChild(next);
    // The board's own "Record round 2" names the round the server waits for, not the one this
    // phone records next: only the phone's button stays.
    var own = board && board.querySelector("a[href$='/rounds/new']");
    var line = own && own.closest("p");
    if (line) { line.hidden = true; line.setAttribute("data-phone-hid", ""); }
  }
  // A mistake in a round not yet sent: take it back out of the outbox (its draft stays, so
  // the round screen opens with what was entered).
  if (!isSending(last.id)) {
    var undo = el("button", "button wide", roundWord("undo_waiting", last.own, "Undo {round} {number} (not yet sent)", lastRound));
    undo.type = "button";
    undo.setAttribute("data-undo-waiting", last.id);
    box.appendChild(undo);
  }
}

// The board under the phone's figures is as it was before those rounds were sent. Once none of
// them waits (sent by this page, whose answer takes the board's place, or by the service
// worker, whose answer no page sees), the server's board is asked for at once: not shown as it
// was, without the rounds, until its next poll.
function askWhenSent(board) {
  Promise.resolve().then(function () {
    var id = board.getAttribute("data-game");
    if (!document.body.contains(board) || !board.hasAttribute("data-poll") || navigator.onLine === false || !window.htmx ||
        outbox().some(function (e) { return e.game === id && e.round; })) { return; }
    window.htmx.trigger(board, "poll-now");
  });
}

// The blank round screen, fetched once from the scoreboard of the game.
// The copy is of this version of the phone's script (build: main.js says which): a round
// screen kept by an older version is fetched again.
var FORM = "scorekeeper-form", BUILD = "";
var stashedFor = null;
function stashed(id) {
  try {
    var copy = JSON.parse(localStorage.getItem(FORM) || "null");
    return copy && copy.game === id && copy.build === BUILD ? copy.html : null;
  } catch (e) { return null; }
}
function stash(id, html) {
  try { localStorage.setItem(FORM, JSON.stringify({ game: id, build: BUILD, html: html })); } catch (e) { /* private mode */ }
}
export function keepBlankForm() {
  var board = document.querySelector("#board[data-replay]");
  var link = board && board.querySelector("a[href$='/rounds/new']");
  var id = board && board.getAttribute("data-game");
  if (!link || stashedFor === id || !window.DOMParser) { return; }
  if (stashed(id)) { stashedFor = id; return; }
  fetch(link.getAttribute("href"), { credentials: "same-origin" })
    .then(function (r) { return r.ok ? r.text() : ""; })
    .then(function (html) {
      var form = html && new DOMParser().parseFromString(html, "text/html").querySelector("form.round-form[data-outbox]");
      if (form) { stash(id, form.outerHTML); stashedFor = id; }
    })
    .catch(function () { /* no signal: tried again on the next scoreboard */ });
}
// The scoreboard as last seen live, kept on the phone (the whole board, with the game's data for
// the phone's own figures), to be shown without signal where the server's would be.
var BOARD = "scorekeeper-board";
function version(board) {
  var m = /[?&]v=([0-9]+)/.exec(board.getAttribute("hx-get") || "");
  return m ? Number(m[1]) : 0;
}
export function keepBoard() {
  var main = document.querySelector("#main"), board = main && main.querySelector("#board[data-replay]");
  if (!board || keptAt() || navigator.onLine === false) { return; }
  // The page as it stands, less what belongs to the moment: messages, the outbox's notes (drawn
  // again from the outbox), the undo bar (it needs the server).
  var copy = main.cloneNode(true);
  copy.querySelectorAll(".flashes, .outbox-note, .phone-figures, .needs-signal, [data-undo]").forEach(function (n) { n.remove(); });
  try {
    localStorage.setItem(BOARD, JSON.stringify({ game: board.getAttribute("data-game"), build: BUILD, at: Date.now(),
                                                 version: version(board), title: document.title, html: copy.innerHTML }));
  } catch (e) { /* private mode, or full */ }
}
function keptBoard(id) {
  try {
    var copy = JSON.parse(localStorage.getItem(BOARD) || "null");
    return copy && copy.game === id && copy.build === BUILD ? copy : null;
  } catch (e) { return null; }
}
export function showKeptBoard(id, replace) {
  var copy = keptBoard(id), main = document.querySelector("#main");
  if (!copy || !main) { return false; }
  main.innerHTML = copy.html;
  setKept(copy.at);
  document.body.setAttribute("data-kept-at", String(copy.at));
  document.title = copy.title;
  var address = "/games/" + id;
  if (location.pathname !== address) {
    if (replace) { history.replaceState({ offline: true }, "", address); } else { history.pushState({ offline: true }, "", address); }
  }
  redraw(main);
  keptPage();
  window.scrollTo(0, 0);
  return true;
}
// Without signal, a page of a game the server cannot give (the offline page, an older copy, a
// round screen whose round already waits to be sent) gives way to the kept scoreboard.
export function offlineLanding() {
  var id = gameInAddress() || (outbox()[0] || {}).game || "";
  var copy = id && keptBoard(id);
  if (!copy) { return; }
  var form = document.querySelector("form.round-form[data-outbox]");
  var board = document.querySelector("#board");
  if (document.querySelector("[data-offline-page]") || (keptAt() && form && waiting(form)) ||
      (keptAt() && board && copy.version > version(board))) {
    showKeptBoard(id, true);
  }
}

// The next round on this phone: in the round screen on show, or in the kept blank one.
export function recordNext(id) {
  if (!Form) { return false; }
  var main = document.querySelector("#main");
  var form = document.querySelector("form.round-form[data-replay]");
  var board = document.querySelector("#board[data-replay]");
  if (!form || gameOf(form.getAttribute("action")) !== id) {
    var html = stashed(id);
    if (!html || !board || !main) { return false; }
    var data = board.getAttribute("data-replay");
    main.innerHTML = html;
    form = main.querySelector("form.round-form");
    form.setAttribute("data-replay", data);
    history.pushState({ offline: true }, "", form.getAttribute("action"));
  }
  var phone = phoneState(form, id);
  if (!phone || !phone.state || !phone.state.next) { return false; }
  Form.advance(form, phone.game, phone.state.next);
  redraw(form.parentNode);
  window.scrollTo(0, 0);
  return true;
}

// What needs the server is disabled on a kept page, with the reason, instead of doing nothing.
export function keptPage() {
  var main = document.querySelector("#main");
  if (!keptAt() || !main || main.querySelector(".needs-signal")) { return; }
  offlineHelpers().catch(function () {});
  var board = main.querySelector("#board[data-replay]");
  var canRecord = board && stashed(board.getAttribute("data-game"));
  var off = Array.prototype.filter.call(
    main.querySelectorAll("form:not(.round-form) button, a.button, .actions a, .round-table a"),
    function (item) { return !(canRecord && item.matches("#board a[href$='/rounds/new']")); });
  off.forEach(function (item) {
    if (item.tagName === "BUTTON") { item.disabled = true; } else { item.setAttribute("aria-disabled", "true"); }
    item.classList.add("is-offline");
  });
  if (off.length) {
    var why = el("p", "needs-signal", canRecord
      ? word("needs_signal_recording", "Rounds are recorded on this phone and sent later; corrections, undo and sharing " +
             "need the signal: they work again by themselves when this phone is back online.")
      : word("needs_signal", "Recording, corrections, undo and sharing need the signal: they work again by themselves " +
             "when this phone is back online."));
    main.insertBefore(why, main.firstChild);
  }
  say(keptWords());
}

// build: this version of the phone's script. redrawWith(root): main.js's init.
export function install(build, redrawWith) {
  BUILD = build;
  redraw = redrawWith;
  document.addEventListener("click", function (event) {
    var undo = event.target.closest ? event.target.closest("[data-undo-waiting]") : null;
    if (!undo) { return; }
    var id = undo.getAttribute("data-undo-waiting");
    var entry = outbox().filter(function (e) { return e.id === id; })[0];
    if (!entry || isSending(id)) { return; }
    drop(id);
    var form = document.querySelector("form.round-form[data-replay]");
    var board = document.querySelector("#board[data-replay]");
    if ((form && gameOf(form.getAttribute("action")) === entry.game) ||
        (board && board.getAttribute("data-game") === entry.game)) { recordNext(entry.game); }
    say(roundWord("taken_back", entry.own, "{round} {number} taken back: it was not sent.", { round: entry.word, number: entry.number }));
  });
  window.addEventListener("popstate", function () {
    var id = gameInAddress();
    if (id && location.pathname === "/games/" + id && (keptAt() || navigator.onLine === false)) { showKeptBoard(id, true); }
  });
  document.addEventListener("click", function (event) {
    var button = event.target.closest ? event.target.closest("[data-record-next]") : null;
    if (button) { recordNext(button.getAttribute("data-record-next")); return; }
    // "Record round 4" on a scoreboard without signal: the kept round screen instead.
    var link = event.target.closest ? event.target.closest("#board a[href$='/rounds/new']") : null;
    var board = link && link.closest("#board[data-replay]");
    if (board && (navigator.onLine === false || keptAt()) && recordNext(board.getAttribute("data-game"))) {
      event.preventDefault();
      event.stopPropagation();
    }
  }, true);

  document.addEventListener("htmx:sendError", function (event) {
    var elt = event.detail.elt;
    var form = elt.closest ? elt.closest("form") : null;
    // (A round or a correction being saved is not sent by htmx but from the outbox, which
    // says so itself when it cannot reach the server.)
    var record = elt.closest ? elt.closest("#board[data-replay] a[href$='/rounds/new']") : null;
    if (record) {
      var id = record.closest("#board").getAttribute("data-game");
      offlineHelpers().then(function () { if (recordNext(id)) { offline(); } }, function () {});
    }
    offline(form && form.classList.contains("round-form"));
  });
  window.addEventListener("offline", function () { offlineHelpers().catch(function () {}); });
  if (navigator.onLine === false) { offlineHelpers().catch(function () {}); }
}
