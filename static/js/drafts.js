// Nothing typed is lost: the round form is kept on this phone (every tab, after a reload or a
// browser restart) until it is saved or discarded (Cancel). While its save waits to be sent,
// what is sent follows the form (a card changed meanwhile goes with it).
// The first half works on any storage and on plain fields, so that it runs in Node as well
// (tests/js/drafts.test.mjs); the second half is the page's. Nothing happens at import.
import { dock, ending, formOf, recheck, refresh, rows, selected } from "./keypad.js";

export var DRAFT = "scorekeeper-draft:";

// A draft is the round's action and number: the same round in another tab is the same draft,
// and a round number that comes again after an undo is another round once the first was saved.
export function draftId(action, number) { return action + "#" + number; }

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
var hooks = { waiting: function () { return null; }, saved: function () {} };

export function formDraftId(form) {
  var number = form.querySelector("input[name=number]");
  return draftId(form.getAttribute("action"), number ? number.value : "");
}

export function forgetDraft(id) { store.forget(id); }

export function saveDraft(form) {
  store.save(formDraftId(form), draftOf(form.querySelectorAll(TYPED), form.querySelectorAll(TICKED)));
  hooks.saved(form);
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

// storage: the phone's localStorage (null where it cannot be had). waiting(form): the
// outbox's entry for the form's round, if its save waits to be sent. saved(form): what follows
// each save of the draft (a waiting round's entry follows the form).
export function install(storage, waiting, saved) {
  store = draftStore(storage);
  hooks = { waiting: waiting, saved: saved };

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
    if (form && !hooks.waiting(form)) { store.forget(formDraftId(form)); }
  });
}
