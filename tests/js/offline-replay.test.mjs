// The phone's replay (static/js/offline-replay.js) against the engine: every case in
// tests/js/cases/ is a game the engine worked out (tests/js_cases.py; `make js-cases` writes
// them again), from where the phone lost its signal. After each round the phone works out alone,
// its scores for the round, totals, stages completed, next round, places and end of the game
// must be the engine's. Run: node --test tests/js/
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { test } from "node:test";

import { advance, places, replay, start } from "../../static/js/offline-replay.js";

const folder = new URL("./cases/", import.meta.url);
const files = readdirSync(folder).filter((name) => name.endsWith(".json")).sort();

test("there are cases of every rule set to check against", () => {
  assert.deepEqual(files, ["balmoral.json", "by-hand.json", "classic.json", "house-rules.json", "liverpool.json",
                           "phase10.json", "shanghai.json"]);
});

for (const file of files) {
  const cases = JSON.parse(readFileSync(new URL(file, folder), "utf8"));
  test(`the phone works out every game of ${file} as the engine does`, () => {
    assert.ok(cases.length > 0);
    for (const one of cases) {
      let state = start(one.game);
      one.rounds.forEach((round, index) => {
        state = advance(one.game, state, round);
        const expected = one.after[index];
        const where = `${one.name}, round ${state.round}`;
        assert.deepEqual(state.penalties, expected.penalties, `${where}: the round's scores`);
        assert.deepEqual(state.totals, expected.totals, `${where}: the totals`);
        assert.deepEqual(state.completed, expected.completed, `${where}: the stages completed`);
        assert.deepEqual(state.next, expected.next, `${where}: the next round, or the end of the game`);
        assert.deepEqual(places(one.game, state), expected.places, `${where}: the places`);
      });
      const whole = replay(one.game, one.rounds);
      assert.deepEqual(whole.totals, one.after.at(-1).totals, `${one.name}: the rounds replayed in one go`);
    }
  });
}

test("the cases hold what chance seldom gives: ends, ties, bonuses, jokers, points by hand", () => {
  const all = files.flatMap((file) => JSON.parse(readFileSync(new URL(file, folder), "utf8")));
  const rounds = all.flatMap((one) => one.rounds);
  const last = all.map((one) => one.after.at(-1));
  assert.ok(last.some((after) => after.next === null), "a game that ends");
  assert.ok(last.some((after) => after.next === null && after.places.filter((p) => p === 1).length > 1), "a tie for the win");
  assert.ok(rounds.some((r) => Object.keys(r.bonuses).length), "a bonus");
  assert.ok(rounds.some((r) => Object.values(r.hands).some((hand) => hand.includes("JK"))), "a joker");
  assert.ok(rounds.some((r) => Object.keys(r.points).length), "points counted by hand");
  assert.ok(all.some((one) => one.game.ladder) && all.some((one) => !one.game.ladder), "ladders and deals");
});

test("each seat's cards count at its stage: a rule of one stage needs the handed table alone", () => {
  // Jokers count double in the last deal: the engine would hand that stage its own values.
  const tie = JSON.parse(readFileSync(new URL("by-hand.json", folder), "utf8"))[0].game;
  const last = tie.stages.length;
  const game = { ...tie, stages: tie.stages.map((s) => (s.last ? { ...s, values: { ...s.values, JK: 30 } } : s)) };
  const before = { ...start(game), next: { ...game.state.next, number: last - 1, stages: [last - 1, last - 1, last - 1] } };
  const round = { went_out: "Ann", hands: { Ben: ["JK"], Cat: ["JK", "2"] } };
  const penultimate = advance(game, before, round);
  assert.deepEqual(penultimate.penalties, [0, 15, 17]);
  assert.deepEqual(penultimate.next.stages, [last, last, last]);
  const after = advance(game, penultimate, round);
  assert.deepEqual(after.penalties, [0, 30, 32]);
  assert.equal(after.next, null);
});
