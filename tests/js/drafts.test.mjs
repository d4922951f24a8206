// Drafts (static/js/drafts.js) on a fake storage and plain fields: a round being typed is kept,
// put back into a blank form, and forgotten. Run: node --test tests/js/
import assert from "node:assert/strict";
import { test } from "node:test";

import { DRAFT, draftId, draftOf, draftStore, putBack } from "../../static/js/drafts.js";
import { memoryStorage } from "./dom.mjs";

const text = (name, value = "") => ({ name, value });
const box = (name, value, checked = false) => ({ name, value, checked });

function blankForm() {
  return {
    typed: [text("hand-0"), text("points-0"), text("hand-1"), text("points-1")],
    boxes: [box("went_out", "0"), box("achieved-0", "1"), box("went_out", "1"), box("achieved-1", "1"), box("bonus-1", "sweep")],
  };
}

test("a draft is the round's action and number, kept under the draft prefix", () => {
  const storage = memoryStorage();
  const id = draftId("/games/3/rounds/new", "4");
  draftStore(storage).save(id, { "hand-1": "K" });
  assert.deepEqual([...storage.items.keys()], [`${DRAFT}/games/3/rounds/new#4`]);
});

test("what is typed and ticked is kept, and put back into a blank form", () => {
  const storage = memoryStorage(), drafts = draftStore(storage), id = draftId("/games/3/rounds/new", "4");
  const typing = blankForm();
  typing.typed[2].value = "K Q 7";
  typing.typed[1].value = "0";
  typing.boxes[2].checked = true;  // player 1 went out
  typing.boxes[4].checked = true;
  drafts.save(id, draftOf(typing.typed, typing.boxes.filter((b) => b.checked)));

  const reopened = blankForm(), ticked = [];
  assert.equal(putBack(drafts.load(id), reopened.typed, reopened.boxes, (b) => ticked.push(b.name + "=" + b.value)), true);
  assert.deepEqual(reopened.typed.map((f) => f.value), ["", "0", "K Q 7", ""]);
  assert.deepEqual(reopened.boxes.map((b) => b.checked), [false, false, true, false, true]);
  // In the form's order, each as soon as it is ticked (who went out locks their Made).
  assert.deepEqual(ticked, ["went_out=1", "bonus-1=sweep"]);
});

test("a radio's draft names its value: the other player's radio stays unticked", () => {
  const data = draftOf([], [box("went_out", "0", true)]);
  const form = blankForm();
  putBack(data, form.typed, form.boxes);
  assert.deepEqual(form.boxes.filter((b) => b.checked).map((b) => b.name + "=" + b.value), ["went_out=0"]);
});

test("a draft forgotten is not put back", () => {
  const drafts = draftStore(memoryStorage()), id = draftId("/games/3/rounds/new", "4");
  drafts.save(id, { "hand-0": "A" });
  drafts.forget(id);
  assert.equal(drafts.load(id), null);
});

test("a draft of nothing puts nothing back", () => {
  const form = blankForm();
  assert.equal(putBack(draftOf(form.typed, []), form.typed, form.boxes), false);
});

test("each round has its own draft", () => {
  const drafts = draftStore(memoryStorage());
  drafts.save(draftId("/games/3/rounds/new", "4"), { "hand-0": "A" });
  assert.equal(drafts.load(draftId("/games/3/rounds/new", "5")), null);
  assert.equal(drafts.load(draftId("/games/9/rounds/new", "4")), null);
});

test("without storage (private mode, switched off) nothing is kept and nothing fails", () => {
  const refusing = {
    getItem: () => { throw new Error("SecurityError"); },
    setItem: () => { throw new Error("QuotaExceededError"); },
    removeItem: () => { throw new Error("SecurityError"); },
  };
  for (const storage of [refusing, null]) {
    const drafts = draftStore(storage);
    drafts.save("x#1", { "hand-0": "A" });
    assert.equal(drafts.load("x#1"), null);
    drafts.forget("x#1");
  }
});
