// The scorekeeper's round screen, where players send their own hands (seat links): each row says
// "waiting for Ann" until Ann's hand arrives, then fills with it. The screen asks every second,
// conditionally (304 while nothing arrived). What the scorekeeper has typed or tapped into a row
// is theirs and wins: an arrival for that row is named beside it, never put over it, and once
// the scorekeeper has said who went out, an arrival does not move it.
// What the scorekeeper enters in a row goes to that player's phone as well, a moment after the
// last tap or key in the row ("The scorekeeper entered: K 7 7"), and only when the row holds
// something else than it last sent: a row the scorekeeper never touched sends nothing.
// Nothing happens at import: main.js installs the listeners.
import { word } from "./banner.js";

var watched = null, tag = null, timer = null, asking = false;
// How long a row stays still before the scorekeeper's entry in it goes to the player's phone.
var ENTER_MS = 500;

function formOf(el) { return el && el.closest ? el.closest("form.round-form[data-sent]") : null; }
function rowOf(form, seat) { return form.querySelector(".player[data-seat='" + seat + "']"); }
function selectedRow(form) {
  var radio = form.querySelector("input[name=seat]:checked");
  return radio ? radio.closest(".player") : null;
}

// The scorekeeper's own typing (events the page itself makes as a hand arrives are not trusted).
function mine(form, row) {
  if (!row) { return; }
  row.setAttribute("data-typed", "");
  clearTimeout(row._entering);
  row._entering = setTimeout(function () { enter(form, row); }, ENTER_MS);
}

// The row's part of the form (its own fields, the round's number and the form's token), posted
// with the scorekeeper's own rights; what it said last is kept on the row, so the same entry
// is not sent again. Not reaching the server costs nothing: the next touch tries again, and
// Save sends the whole round whatever this did.
function enter(form, row) {
  var line = row.querySelector("[data-enter]");
  if (!line || !document.body.contains(form)) { return; }
  var seat = row.getAttribute("data-seat"), body = new URLSearchParams(), token = "", said = [];
  new FormData(form).forEach(function (value, name) {
    var own = name === "went_out" ? value === seat : name.split("-")[1] === seat;
    if (name === "csrf_token") { token = String(value); } else if (name === "number" || own) {
      said.push(name + "=" + value);
    } else { return; }
    body.append(name, String(value));
  });
  said = said.join("&");
  if (row._entered === said) { return; }
  fetch(line.getAttribute("data-enter"), { method: "POST", body: body, credentials: "same-origin",
                                           headers: { "X-CSRFToken": token } })
    .then(function (response) {
      if (response.status !== 200) { return undefined; }
      row._entered = said;
      return response.json().then(function (entry) {
        line.textContent = word("entered", "entered by the scorekeeper: {hand}", { hand: entry.words });
      });
    })
    .catch(function () { /* no signal: the next touch tries again */ });
}

function fire(el, type) { el.dispatchEvent(new Event(type, { bubbles: true })); }

function fill(form, row, hand) {
  var seat = hand.seat;
  var cards = form.querySelector("input[name=hand-" + seat + "]");
  var points = form.querySelector("input[name=points-" + seat + "]");
  var out = row.querySelector("input[name=went_out]");
  if (!form.hasAttribute("data-out-chosen") && out && out.checked !== hand.went_out) {
    out.checked = hand.went_out;
    if (hand.went_out) { fire(out, "change"); } else { row.classList.remove("is-out"); }
  }
  var made = row.querySelector("input[type=checkbox][name^=achieved-]");
  if (made && !made.disabled && made.checked !== hand.achieved) { made.checked = hand.achieved; fire(made, "change"); }
  row.querySelectorAll("input[name^=bonus-]").forEach(function (box) {
    var earned = hand.bonuses.indexOf(box.value) >= 0;
    if (box.checked !== earned) { box.checked = earned; fire(box, "change"); }
  });
  if (!hand.went_out) {
    cards.value = hand.cards || "";
    points.value = hand.points === null ? "" : String(hand.points);
  }
  // keypad.js redraws the row (chips, penalty, the errors it can count) as after a tap.
  fire(hand.points !== null && !hand.went_out ? points : cards, "input");
}

function arrived(form, data) {
  if (String(data.number) !== form.querySelector("input[name=number]").value) { return; }
  data.hands.forEach(function (hand) {
    var row = rowOf(form, hand.seat);
    if (!row) { return; }
    var line = row.querySelector("[data-arrival]");
    var known = line && line.getAttribute("data-revision") === String(hand.revision);
    if (hand.by_keeper) {
      // The scorekeeper's own entry (from this screen, or another of theirs).
      if (!row.hasAttribute("data-typed") && !known) { fill(form, row, hand); }
      if (line) { line.textContent = word("entered", "entered by the scorekeeper: {hand}", { hand: hand.words }); }
    } else if (row.hasAttribute("data-typed")) {
      if (line) { line.textContent = word("sent_kept", "{name} sent: {hand} (yours is kept)", { name: hand.player, hand: hand.words }); }
      // The player sent again over the scorekeeper's entry: the next touch of the row sends it anew.
      if (!known) { row._entered = null; }
    } else if (!known) {
      fill(form, row, hand);
      if (line) { line.textContent = word("sent_by", "sent by {name}: {hand}", { name: hand.player, hand: hand.words }); }
    }
    if (line) { line.setAttribute("data-revision", String(hand.revision)); }
  });
}

function ask() {
  if (!watched || !document.body.contains(watched)) { stop(); return; }
  if (asking || document.hidden) { return; }
  var form = watched, headers = { "Accept": "application/json" };
  if (tag) { headers["If-None-Match"] = tag; }
  asking = true;
  fetch(form.getAttribute("data-sent"), { headers: headers, credentials: "same-origin", cache: "no-store" })
    .then(function (response) {
      asking = false;
      // A game no longer there: nothing more will arrive on this screen.
      if (response.status === 404) { stop(); }
      if (response.status !== 200) { return undefined; }
      var etag = response.headers.get("ETag");
      return response.json().then(function (data) {
        if (form === watched) { arrived(form, data); tag = etag || tag; }
      });
    })
    .catch(function () { asking = false; /* no signal: asked again in a second */ });
}
function stop() { clearInterval(timer); timer = null; watched = null; tag = null; }

function start() {
  var form = document.querySelector("form.round-form[data-sent]");
  if (form === watched) { return; }
  stop();
  if (!form) { return; }
  watched = form;
  timer = setInterval(ask, 1000);
  ask();
}
// main.js installs this where a round screen takes players' own hands, and again finds the
// screen on each htmx swap (start).
export function install() {
  document.addEventListener("input", function (event) {
    var form = formOf(event.target);
    if (form && event.isTrusted) { mine(form, event.target.closest(".player")); }
  });
  document.addEventListener("change", function (event) {
    var form = formOf(event.target);
    if (!form || !event.isTrusted || event.target.name === "seat") { return; }
    if (event.target.name === "went_out") {
      form.setAttribute("data-out-chosen", "");
      // A row whose player was told they went out is no longer out: they are told that too.
      form.querySelectorAll(".player[data-typed]").forEach(function (row) {
        if (/(^|&)went_out=/.test(row._entered || "")) { mine(form, row); }
      });
    }
    mine(form, event.target.closest(".player"));
  });
  document.addEventListener("click", function (event) {
    var form = formOf(event.target);
    if (!form || !event.isTrusted) { return; }
    var key = event.target.closest("[data-rank], [data-remove], [data-edit]");
    if (key && key.getAttribute("data-edit") !== "type") { mine(form, selectedRow(form)); }
  }, true);
  // Saved: the whole round goes, and an entry still waiting for its row to be still would only
  // tell a player about a round no longer open.
  document.addEventListener("submit", function (event) {
    var form = formOf(event.target);
    if (!form || !event.submitter || event.submitter.name !== "save") { return; }
    form.querySelectorAll(".player").forEach(function (row) { clearTimeout(row._entering); });
  }, true);
  document.addEventListener("htmx:afterSettle", start);
  start();
}
