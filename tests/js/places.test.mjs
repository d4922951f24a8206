// The places the phone shows for rounds not yet sent (static/js/offline-replay.js): as the
// server's board ranks them, a tie sharing its place. Run: node --test tests/js/
import assert from "node:assert/strict";
import { test } from "node:test";

import { places } from "../../static/js/offline-replay.js";

const players = ["Ann", "Ben", "Cat", "Dan"];

test("a tie shares its place and the next place is skipped, as on the server's board", () => {
  const game = { players, places_by: ["total"] };
  assert.deepEqual(places(game, { totals: [10, 5, 30, 30], completed: [null, null, null, null] }), [2, 1, 3, 3]);
  assert.deepEqual(places(game, { totals: [7, 7, 2, 9], completed: [null, null, null, null] }), [2, 2, 1, 4]);
});

test("where only who completes the last stage may win, the stages come before the points", () => {
  const game = { players, places_by: ["completed", "total"] };
  assert.deepEqual(places(game, { totals: [400, 5, 60, 60], completed: [9, 8, 8, 8] }), [1, 2, 3, 3]);
});
