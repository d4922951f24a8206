// Players' own hands arriving on the scorekeeper's round screen (static/js/arrivals.js): a row
// the scorekeeper has not touched fills with the hand sent; one they typed into keeps theirs and
// names the arrival; what they enter in a row goes to that player's phone once the row is still.
// Run: node --test tests/js/
import assert from "node:assert/strict";
import { test } from "node:test";

import { install } from "../../static/js/arrivals.js";
import { setWords } from "../../static/js/banner.js";
import { page, settle, trusted } from "./dom.mjs";

const row = (i, name) => `<div class="player${i === 0 ? " is-selected" : ""}" data-seat="${i}">
  <label class="out-toggle"><input type="radio" name="went_out" value="${i}"></label>
  <label class="pick"><input type="radio" name="seat" value="${i}"${i === 0 ? " checked" : ""}><span class="pname">${name}</span>
    <span class="arrival small" data-arrival="${i}" data-enter="/games/7/rounds/new/entry/${i}">waiting for ${name}</span></label>
  <div class="typed" hidden><input name="hand-${i}" value=""><input name="points-${i}" value=""></div>
</div>`;

const phone = page(`<main id="main"><form class="round-form" action="/games/7/rounds/new" data-outbox data-sent="/games/7/rounds/new/sent">
  <input type="hidden" name="csrf_token" value="token"><input type="hidden" name="number" value="1">
  ${row(0, "Ann")}${row(1, "Ben")}${row(2, "Cat")}
  <button type="submit" name="key" value="K" data-rank="K">K</button>
  <button type="submit" name="save" value="1">Save round 1</button>
</form></main>`);
setWords({});
const inputs = [];
document.addEventListener("input", (event) => inputs.push(event.target.getAttribute("name")));
install();

const asks = () => phone.net.sent.filter((r) => r.url === "/games/7/rounds/new/sent");
const line = (i) => document.querySelector(`[data-arrival="${i}"]`);
const field = (name) => document.querySelector(`input[name=${name}]`);
const hand = (seat, player, cards, revision, extra = {}) => ({
  seat, player, cards, points: null, went_out: false, achieved: false, bonuses: [], revision,
  words: `${cards} (15)`, by_keeper: false, ...extra,
});
async function arrive(hands, { number = 1, etag } = {}) {
  phone.time.run(1000);
  asks().at(-1).answer(200, JSON.stringify({ number, hands }), etag ? { ETag: etag } : {});
  await settle();
}

test("the screen asks at once, and every second after, conditionally once it has an answer", async () => {
  assert.equal(asks().length, 1);
  assert.equal(asks()[0].options.headers.Accept, "application/json");
  asks()[0].answer(304);
  await settle();
  await arrive([], { etag: '"s1"' });
  phone.time.run(1000);
  assert.equal(asks().at(-1).options.headers["If-None-Match"], '"s1"');
  asks().at(-1).answer(304);
  await settle();
});

test("a hand sent fills the row the scorekeeper has not touched, and the keypad redraws it", async () => {
  inputs.length = 0;
  await arrive([hand(1, "Ben", "K 5", 1)]);
  assert.equal(field("hand-1").value, "K 5");
  assert.equal(line(1).textContent, "sent by Ben: K 5 (15)");
  assert.equal(line(1).getAttribute("data-revision"), "1");
  assert.deepEqual(inputs, ["hand-1"]);
  await arrive([hand(1, "Ben", "K 5", 1)]);
  assert.deepEqual(inputs, ["hand-1"], "the same hand again changes nothing");
});

test("a hand for another round is not this screen's", async () => {
  await arrive([hand(2, "Cat", "Q", 1)], { number: 2 });
  assert.equal(field("hand-2").value, "");
  assert.equal(line(2).textContent, "waiting for Cat");
});

test("what the scorekeeper typed in a row is theirs: a hand arriving for it is named, not put over it", async () => {
  field("hand-2").value = "J";
  trusted(field("hand-2"), "input");
  await arrive([hand(2, "Cat", "Q 9", 1)]);
  assert.equal(field("hand-2").value, "J");
  assert.equal(line(2).textContent, "Cat sent: Q 9 (15) (yours is kept)");
});

test("the scorekeeper's entry in a row goes to the player's phone once the row is still, and only when it changed", async () => {
  const entries = () => phone.net.sent.filter((r) => r.url === "/games/7/rounds/new/entry/2");
  phone.time.run(500);
  assert.equal(entries().length, 1);
  assert.deepEqual([...entries()[0].fields], [["csrf_token", "token"], ["number", "1"], ["hand-2", "J"], ["points-2", ""]]);
  assert.equal(entries()[0].options.headers["X-CSRFToken"], "token");
  entries()[0].answer(200, JSON.stringify({ words: "J (10)" }));
  await settle();
  assert.equal(line(2).textContent, "entered by the scorekeeper: J (10)");
  trusted(field("hand-2"), "input");  // touched, nothing changed
  phone.time.run(500);
  assert.equal(entries().length, 1);
});

test("the scorekeeper's own entry from another of their screens fills an untouched row", async () => {
  await arrive([hand(0, "Ann", "A", 2, { by_keeper: true, words: "A (15)" })]);
  assert.equal(field("hand-0").value, "A");
  assert.equal(line(0).textContent, "entered by the scorekeeper: A (15)");
});

test("a player said to have gone out is ticked out, until the scorekeeper chooses who went out", async () => {
  await arrive([hand(1, "Ben", "", 3, { went_out: true, words: "out" })]);
  assert.equal(document.querySelector("input[name=went_out]:checked").value, "1");
  const ann = document.querySelector("input[name=went_out][value='0']");
  ann.checked = true;
  trusted(ann, "change");
  await arrive([hand(2, "Cat", "", 4, { went_out: true, words: "out" })]);
  assert.equal(document.querySelector("input[name=went_out]:checked").value, "0");
});

test("a game no longer there: the screen stops asking", async () => {
  phone.time.run(1000);
  asks().at(-1).answer(404);
  await settle();
  const before = asks().length;
  phone.time.run(1000);
  assert.equal(asks().length, before);
});
