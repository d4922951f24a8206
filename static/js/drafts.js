// Nothing typed is lost: the round form is kept on this phone (every tab, after a reload or a
// browser restart) until it is saved or discarded (Cancel). While its save waits to be sent,
// what is sent follows the form (a card changed meanwhile goes with it).
// Save puts the round in the outbox (outbox.js), which sends it.
// The first half works on any storage and on plain fields, so that it runs in Node as well
// (tests/js/drafts.test.mjs); the second half is the page's. Nothing happens at import: main.js
// installs the listeners where a round screen is on the page.
import { cardsOf, dock, ending, field, formOf, isOut, nameOf, recheck, refresh, rows, selected, table } from "./keypad.js";
import { DRAFT, draftId, flush, formDraftId, gameOf, keep, waiting } from "./outbox.js";
import { word } from "./banner.js";

// A draft's id: the round's action and number (outbox.js: its entry there has the same id).
export { DRAFT, draftId, formDraftId };

// The drafts in a storage (localStorage on the phone). Where the storage refuses (private
// mode, full, switched off) nothing is kept, and nothing fails.
export function draftStore(storage) {
  return {
    save: function (id, data) {
      try { storage.setItem(DRAFT + id, JSON.stringify(data)); } catch (e) { /* private mode */ }
    },
    load: function (id) {
      var raw = null;
      try { raw = storage.getItem(DRAFT + id); } catch (e) { return null; }
      return raw ? JSON.parse(raw) : null;
    },
    forget: function (id) {
      try { storage.removeItem(DRAFT + id); } catch (e) { /* private mode */ }
    }
  };
}

// What a draft holds: each typed field's text by name, and each ticked box as "name=value".
export function draftOf(typed, ticked) {
  var data = {};
  Array.prototype.forEach.call(typed, function (i) { data[i.name] = i.value; });
  Array.prototype.forEach.call(ticked, function (i) { data[i.name + "=" + i.value] = true; });
  return data;
}

// A draft put back into the fields (boxes are only ever ticked, never unticked: the form it
// goes into is blank). Each box is handed to onTick as soon as it is ticked, so that what
// depends on it (who went out locks their Made) follows in the order of the form.
export function putBack(data, typed, boxes, onTick) {
  var any = false;
  Array.prototype.forEach.call(typed, function (i) {
    if (data[i.name]) { i.value = data[i.name]; any = true; }
  });
  Array.prototype.forEach.call(boxes, function (i) {
    if (data[i.name + "=" + i.value]) { i.checked = true; any = true; if (onTick) { onTick(i); } }
  });
  return any;
}

// ---- The page's side.
var TYPED = "input[name^=hand-], input[name^=points-]";
var TICKED = "input[name=went_out]:checked, input[name^=achieved-]:checked, input[name^=bonus-]:checked";

var store = draftStore(null);

// Each change is kept as the draft; where the round's save waits to be sent, what is sent
// follows the draft.
export function saveDraft(form) {
  store.save(formDraftId(form), draftOf(form.querySelectorAll(TYPED), form.querySelectorAll(TICKED)));
  if (waiting(form)) { enqueue(form); }
}

// Only into a form nothing was typed in yet: what the server sent back (its words on a round
// it refused) is newer than the draft.
export function restoreDraft(form) {
  var pristine = !form.querySelector("input[name=went_out]:checked") &&
    !Array.prototype.some.call(form.querySelectorAll(TYPED), function (i) { return i.value; });
  if (!pristine) { return false; }
  var data = store.load(formDraftId(form));
  if (!data) { return false; }
  return putBack(data, form.querySelectorAll(TYPED), form.querySelectorAll("input[type=radio], input[type=checkbox]"),
                 function (i) { i.dispatchEvent(new Event("change", { bubbles: true })); });
}

// A draft put back without a word was typed again on top of itself (doubled cards): say so at
// the top of the screen, with "Start over" to empty the form and forget the draft.
export function sayKept(form) {
  var note = form.querySelector("[data-kept-entry]");
  if (note) { note.hidden = false; }
}

// ---- Save: the round into the outbox.

// What the round holds, in a line: "Ann went out · Ben: Q 7 (17) · Cat: no cards".
function holds(form) {
  return rows(form).map(function (row) {
    var points = field(row, "points").value.trim(), cards = cardsOf(form, row);
    var bonuses = Array.prototype.map.call(row.querySelectorAll("input[name^=bonus-]:checked"), function (tick) {
      return ", " + tick.nextElementSibling.textContent;
    }).join("");
    var name = { name: nameOf(row), points: points };
    if (isOut(row)) { return word("holds_out", "{name} went out", name) + bonuses; }
    if (points) {
      return (points === "0" ? word("holds_no_cards", "{name}: no cards", name) : word("holds_points", "{name}: {points} points", name)) + bonuses;
    }
    if (!cards.length) { return word("holds_empty", "{name}: no cards yet", name) + bonuses; }
    return word("holds_cards", "{name}: {cards} ({penalty})", { name: nameOf(row), penalty: row.querySelector(".penalty").textContent,
      cards: cards.map(function (c) { return c.text; }).join(" ") }) + bonuses;
  }).join(" \u00b7 ");
}
// The round as offline-replay.js reads it, for the phone's own figures while it waits.
function roundOf(form) {
  var cards = table(form), round = { went_out: null, hands: {}, points: {}, achieved: [], bonuses: {} };
  rows(form).forEach(function (row) {
    var name = nameOf(row).trim(), points = field(row, "points").value.trim();
    var made = row.querySelector("input[name^=achieved-]");
    var earned = Array.prototype.map.call(row.querySelectorAll("input[name^=bonus-]:checked"), function (tick) { return tick.value; });
    if (earned.length) { round.bonuses[name] = earned; }
    if (isOut(row)) { round.went_out = name; } else if (points) { round.points[name] = Number(points); } else {
      round.hands[name] = field(row, "hand").value.split(/[\s,;]+/).filter(Boolean)
        .map(function (t) { return cards.aliases[t.toLowerCase()] || t; });
    }
    if (made && made.checked) { round.achieved.push(name); }
  });
  return round;
}
function enqueue(form) {
  var fields = [];
  new FormData(form).forEach(function (value, name) { if (name !== "seat") { fields.push([name, String(value)]); } });
  fields.push(["save", "1"]);
  // A correction is sent like a new round (in order, once), but only new rounds are worked out
  // on the phone: a correction changes the rounds after it, which the server works out again.
  var correction = form.hasAttribute("data-correction");
  keep({ id: formDraftId(form), action: form.getAttribute("action"), game: gameOf(form.getAttribute("action")),
        number: form.querySelector("input[name=number]").value, word: form.getAttribute("data-word"),
        own: form.hasAttribute("data-own-word"), fields: fields, correction: correction, round: correction ? null : roundOf(form), holds: holds(form) });
}

// storage: the phone's localStorage (null where it cannot be had).
export function install(storage) {
  store = draftStore(storage);

  document.addEventListener("click", function (event) {
    var button = event.target.closest ? event.target.closest("[data-start-over]") : null;
    var form = formOf(button);
    if (!form) { return; }
    store.forget(formDraftId(form));
    form.querySelectorAll(TYPED).forEach(function (i) { i.value = ""; });
    form.querySelectorAll("input[name=went_out], input[name^=achieved-], input[name^=bonus-]").forEach(function (i) { i.checked = false; });
    rows(form).forEach(function (r) { r.classList.remove("is-out"); refresh(r); });
    ending(form);
    dock(form);
    recheck(form, selected(form));
    button.closest("[data-kept-entry]").hidden = true;
  });

  document.addEventListener("change", function (event) {
    var form = formOf(event.target);
    if (form) { saveDraft(form); }
  });
  // A round the server stored leaves no draft behind (the same number may come again after
  // an undo, and must start blank).
  document.addEventListener("htmx:afterRequest", function (event) {
    var form = formOf(event.detail.elt);
    var xhr = event.detail.xhr;
    if (form && xhr && xhr.status === 200 && !document.body.contains(form)) {
      store.forget(formDraftId(form));
    }
  });
  document.addEventListener("click", function (event) {
    var cancel = event.target.closest ? event.target.closest("a[data-discard]") : null;
    var form = formOf(cancel);
    if (form && !waiting(form)) { store.forget(formDraftId(form)); }
  });

  // Save puts the round in the outbox and sends it from there (htmx does not send it too);
  // while it waits, Save cannot start another send.
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.matches || !form.matches("form.round-form[data-outbox]")) { return; }
    if (!event.submitter || event.submitter.name !== "save") { return; }
    event.preventDefault();
    event.stopPropagation();
    if (waiting(form)) { return; }
    enqueue(form);
    saveDraft(form);
    flush();
  }, true);
}
