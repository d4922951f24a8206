// The phone's one adding-up of a hand (static/js/hand-score.js), which the round screen's rows
// (keypad.js) and the rounds that wait to be sent (offline-replay.js) both use: against the
// engine's own scores of every round of tests/js/cases/, and on what chance seldom deals.
// Run: node --test tests/js/
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { test } from "node:test";

import { handScore } from "../../static/js/hand-score.js";

const folder = new URL("./cases/", import.meta.url);
const files = readdirSync(folder).filter((name) => name.endsWith(".json")).sort();
const liverpool = JSON.parse(readFileSync(new URL("liverpool.json", folder), "utf8"))[0].game;
const values = liverpool.stages[0].values;

test("every hand of the engine's cases scores what the engine scored it", () => {
  let hands = 0;
  for (const file of files) {
    for (const one of JSON.parse(readFileSync(new URL(file, folder), "utf8"))) {
      const { game } = one;
      one.rounds.forEach((round, index) => {
        // Each seat's stage as the engine gave it for this round: its values count.
        const stages = (index === 0 ? game.state.next : one.after[index - 1].next).stages;
        const scores = game.players.map((name, seat) => {
          const holds = Object.hasOwn(round.hands, name);
          hands += 1;
          return handScore(game, game.stages[stages[seat] - 1].values, {
            out: name === round.went_out, bonuses: round.bonuses[name] || [],
            points: holds ? null : Number(round.points[name] || 0), cards: holds ? round.hands[name] : [] }).score;
        });
        assert.deepEqual(scores, one.after[index].penalties, `${file}, ${one.name}, round ${index + 1}`);
      });
    }
  }
  assert.ok(hands > 100, "many hands checked");
});

test("the cards' values at the seat's stage, the bonuses' points on top", () => {
  assert.deepEqual(handScore(liverpool, values, { cards: ["A", "K", "7", "7"], points: null }), { score: 39, missing: null });
  assert.equal(handScore(liverpool, values, { cards: ["JK", "10"], points: null, bonuses: ["perfect-cut"] }).score, 15 + 10 - 50);
  assert.equal(handScore(liverpool, values, { cards: [], points: null }).score, 0);
  assert.equal(handScore(liverpool, { ...values, JK: 30 }, { cards: ["JK"], points: null }).score, 30);
});

test("going out scores what the table says, whatever else the hand holds", () => {
  assert.equal(handScore({ ...liverpool, went_out: 3 }, values, { out: true, cards: ["K"], points: 20, bonuses: ["perfect-cut"] }).score, -47);
});

test("points counted by hand stand for the cards", () => {
  assert.equal(handScore(liverpool, values, { points: 35, cards: ["K"] }).score, 35);
  assert.equal(handScore(liverpool, values, { points: 0, cards: ["K"], bonuses: ["perfect-cut"] }).score, -50);
});

test("a card or bonus the table does not value is named, and no score is guessed", () => {
  assert.deepEqual(handScore(liverpool, values, { cards: ["A", "X"], points: null }), { score: null, missing: { card: "X" } });
  assert.deepEqual(handScore(liverpool, values, { cards: ["A", null], points: null }), { score: null, missing: { card: null } });
  assert.deepEqual(handScore(liverpool, values, { out: true, bonuses: ["blind"] }), { score: null, missing: { bonus: "blind" } });
});
