// The round screen's adding-up (static/js/keypad.js) with the table the engine hands the page
// (scorekeeper/rules/tables.py: each stage's card values, the spellings, the bonuses' points,
// what the player who went out scores). The keypad holds no rule: change the table and its
// figures follow. Run: node --test tests/js/
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { readCards, score, valuesAt } from "../../static/js/keypad.js";

// A game's table as the engine wrote it (a Liverpool game of tests/js/cases/), every seat on deal 1.
const liverpool = JSON.parse(readFileSync(new URL("./cases/liverpool.json", import.meta.url), "utf8"))[0].game;
const table = { ...liverpool, seats: liverpool.players.map(() => 1) };

test("a hand adds up the values the engine hands for the seat's stage, bonuses on top", () => {
  assert.equal(score(table, 0, { hand: "A K 7 7" }), "39");
  assert.equal(score(table, 1, { hand: "jk 10", bonuses: ["perfect-cut"] }), String(15 + 10 - 50));
  assert.equal(score(table, 2, { hand: "" }), "0");
});

test("typed cards are read by the handed spellings, runs apart where the table says so", () => {
  assert.deepEqual(readCards(table, 0, "ak77").map((c) => c.rank), ["A", "K", "7", "7"]);
  assert.deepEqual(readCards(table, 0, "joker,t").map((c) => [c.rank, c.value]), [["JK", 15], ["10", 10]]);
  assert.equal(score({ ...table, runs: false }, 0, { hand: "ak77" }), "?");
});

test("the player who went out scores what the table says, with their bonuses", () => {
  assert.equal(score(table, 0, { out: true, hand: "K" }), "0");
  assert.equal(score({ ...table, went_out: 3 }, 0, { out: true, bonuses: ["perfect-cut"] }), "-47");
});

test("points counted by hand count as typed; what is no number is shown as typed", () => {
  assert.equal(score(table, 0, { points: "35", hand: "K" }), "35");
  assert.equal(score(table, 0, { points: " 35 ", bonuses: ["perfect-cut"] }), "-15");
  assert.equal(score(table, 0, { points: "3x" }), "3x");
});

test("a card or bonus the table does not value shows ?, not a guess", () => {
  assert.equal(score(table, 0, { hand: "A X" }), "?");
  const noJokers = { ...table, stages: table.stages.map((s) => ({ ...s, values: { ...s.values, JK: undefined } })) };
  assert.equal(score(noJokers, 0, { hand: "JK" }), "?");
  assert.equal(score(table, 0, { hand: "A", bonuses: ["blind"] }), "?");
});

test("each seat counts the values of its own stage: a rule of one stage needs the table alone", () => {
  // Jokers count double in the last deal: the engine would hand that stage its own values.
  const last = table.stages.length;
  const stages = table.stages.map((s) => (s.number === last ? { ...s, values: { ...s.values, JK: 30 } } : s));
  const ladder = { ...table, stages, seats: [1, last, 1, 1] };
  assert.equal(valuesAt(ladder, 1).JK, 30);
  assert.equal(score(ladder, 0, { hand: "JK" }), "15");
  assert.equal(score(ladder, 1, { hand: "JK" }), "30");
});

test("the keys' names for a screen reader elide French \"de\" before a name that starts with a vowel", async () => {
  const { page } = await import("./dom.mjs");
  const { setWords } = await import("../../static/js/banner.js");
  const { dock } = await import("../../static/js/keypad.js");
  page(`<form class="round-form" data-values='${JSON.stringify(table)}'>
    <div class="player" data-seat="0"><input type="radio" name="seat" value="0"><span class="pname">Ben</span>
      <input name="hand-0" value=""><input name="points-0" value=""></div>
    <div class="player" data-seat="1"><input type="radio" name="seat" value="1" checked><span class="pname">Ann</span>
      <input name="hand-1" value=""><input name="points-1" value=""></div>
    <div class="dock"><span data-who></span><span data-hand></span>
      <div data-keypad data-words='{"keypad": "Cartes de {name}", "clear": "Vider la main de {name}"}'>
        <button data-rank="K" data-label="R">R</button><button data-edit="clear">Vider</button></div></div>
  </form>`);
  setWords({ elides: true });
  const form = document.querySelector("form");
  dock(form);
  assert.equal(form.querySelector("[data-keypad]").getAttribute("aria-label"), "Cartes d\u2019Ann");
  assert.equal(form.querySelector("[data-edit=clear]").getAttribute("aria-label"), "Vider la main d\u2019Ann");
  form.querySelector("input[value='0']").checked = true;
  dock(form);
  assert.equal(form.querySelector("[data-keypad]").getAttribute("aria-label"), "Cartes de Ben");
});
