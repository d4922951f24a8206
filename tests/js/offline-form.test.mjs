// The round screen turned into the next round's without signal (static/js/offline-form.js):
// its number, title, dealer, cards dealt, each player's contract and the Save button of the
// round the phone's replay says comes next, and every row blank. Run: node --test tests/js/
import assert from "node:assert/strict";
import { test } from "node:test";

import { setWords } from "../../static/js/banner.js";
import { advance } from "../../static/js/offline-form.js";
import { page } from "./dom.mjs";

const row = (i, name) => `<div class="player is-out has-error typing${i === 0 ? " is-selected" : ""}" data-seat="${i}" data-finishes="old">
  <label class="out-toggle"><input type="radio" name="went_out" value="${i}" checked></label>
  <label class="pick"><input type="radio" name="seat" value="${i}"${i === 1 ? " checked" : ""}>
    <span class="who"><span class="pname">${name}</span><span class="contract">Deal 1: two sets of three</span></span>
    <span class="seat-errors" role="alert">No such card: Z</span></label>
  <label class="made-toggle"><input type="checkbox" name="achieved-${i}" checked aria-label="old"></label>
  <label class="bonus-toggle"><input type="checkbox" name="bonus-${i}" value="sweep" checked></label>
  <div class="typed"><input name="hand-${i}" value="K Z" aria-invalid="true" aria-describedby="err-${i}"><input name="points-${i}" value="5"></div>
</div>`;

const FORM = `<!doctype html><html><head><title>Record round 2 · Scorekeeper</title></head><body>
<form class="round-form" action="/games/7/rounds/new" data-last="" data-values='{"values": {"K": 10}, "seats": [1, 1]}'>
  <input name="number" value="2">
  <div class="round-head"><h1>Record round 2</h1></div>
  <p class="deal-line">old</p>
  <p class="ending" role="status">Saving ends the game: Ann reached 500.</p>
  <div class="errors" role="alert"><p>Tap the player who went out.</p></div>
  <fieldset class="players">${row(0, "Ann")}${row(1, "Ben")}</fieldset>
  <button name="save" value="1">Save round 2</button>
</form></body></html>`;

const LADDER = {
  players: ["Ann", "Ben"], round_word: "Round", stage_word: "Deal", ladder: true,
  stages: [{ contract: "two sets of three" }, { contract: "one set and one run" }, { contract: "two runs" }],
};
// Ben plays deal 3, the last of this short ladder: he can complete it this round.
const NEXT = { number: 3, dealer: "Ben", cards_dealt: 11, stages: [2, 3], finishers: ["Ben"], is_last: false };

page(FORM);
setWords({});
const form = document.querySelector("form");
advance(form, LADDER, NEXT);

test("each seat's cards count at its stage of the next round: the keypad's table says which", () => {
  assert.deepEqual(JSON.parse(form.getAttribute("data-values")).seats, [2, 3]);
});

test("the form is the next round's: its number, title, Save and the page's title", () => {
  assert.equal(form.querySelector("input[name=number]").value, "3");
  assert.equal(form.querySelector("h1").textContent, "Record round 3");
  assert.equal(form.querySelector("button[name=save]").textContent, "Save round 3");
  assert.equal(document.title, "Record round 3 \u00b7 Scorekeeper");
  assert.equal(form.getAttribute("data-last"), "");
});

test("the deal line names the dealer and the cards dealt in bold; on a ladder each row names its own contract", () => {
  const line = form.querySelector(".deal-line");
  assert.equal(line.textContent, "Ben dealt 11 cards each");
  assert.deepEqual([...line.querySelectorAll("strong")].map((s) => s.textContent), ["Ben", "11"]);
  assert.deepEqual([...form.querySelectorAll(".contract")].map((c) => c.textContent),
                   ["Deal 2: one set and one run", "Deal 3: two runs"]);
  assert.deepEqual([...form.querySelectorAll("input[name^=achieved-]")].map((m) => m.getAttribute("aria-label")),
                   ["Ann made the deal (deal 2)", "Ben made the deal (deal 3)"]);
});

test("every row is blank: no one out, nothing typed or ticked, no errors; the first row is picked", () => {
  assert.equal(form.querySelectorAll("input:checked").length, 1);
  assert.equal(form.querySelector("input:checked").getAttribute("name"), "seat");
  assert.equal(form.querySelector("input:checked").value, "0");
  for (const input of form.querySelectorAll("input[name^=hand-], input[name^=points-]")) {
    assert.equal(input.value, "");
    assert.equal(input.hasAttribute("aria-invalid"), false);
  }
  assert.equal(form.querySelectorAll(".is-out, .has-error, .typing, .is-selected, .seat-errors, .errors").length, 0);
  assert.equal(form.querySelectorAll(".typed[hidden]").length, 2);
  assert.equal(form.querySelector(".ending").hidden, true);
  assert.equal(form.querySelector(".ending").textContent, "");
});

test("a player who can complete the last stage this round is marked; the others are not", () => {
  assert.deepEqual([...form.querySelectorAll(".player")].map((r) => r.getAttribute("data-finishes")),
                   [null, "Ben completes deal 3"]);
});

test("where everyone plays the same contract it is on the deal line; the last round says so", () => {
  advance(form, { ...LADDER, ladder: false }, { ...NEXT, number: 4, stages: [3, 3], finishers: [], is_last: true });
  assert.equal(form.querySelector(".deal-line").textContent, "Ben dealt 11 cards each Deal 3: two runs");
  assert.equal(form.getAttribute("data-last"), "round 4 is the last", "in a sentence, as the server says it");
});
