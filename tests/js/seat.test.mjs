// A player's own phone (static/js/seat.js): their hand goes into the outbox and to the server
// once, waits without signal and says so, and the server's answer or the round's news takes the
// page's place unless the player is changing their hand. Run: node --test tests/js/
import assert from "node:assert/strict";
import { test } from "node:test";

import { createOutbox } from "../../static/js/outbox.js";
import { HANDS, SEAT_OUTBOX, handOf, install, keptOrInMemory, sentKey } from "../../static/js/seat.js";
import { memoryStorage, page, settle, trusted } from "./dom.mjs";

const HAND = `
<div class="own-hand" data-own-hand data-live="/games/7/hand/live" data-tag='"v1"'>
<form class="round-form own-form" method="post" action="/games/7/hand" data-word="Round" data-seat-form>
  <input type="hidden" name="csrf_token" value="token">
  <input type="hidden" name="number" value="2">
  <p class="sent-line" data-sent-line>Not sent yet: tap your cards, then send them.</p>
  <div class="player is-selected" data-seat="2">
    <label class="out-toggle"><input type="checkbox" name="went_out" value="2"></label>
    <input type="radio" name="seat" value="2" checked>
    <input name="hand-2" value="K 5"><input name="points-2" value="">
  </div>
  <button type="submit" name="key" value="2:Q" data-rank="Q">Q</button>
  <button class="primary save-key" type="submit" name="send" value="1">Send to the scorekeeper</button>
</form></div>`;
const answer = (line, number = 2) => `<div class="own-hand" data-own-hand data-live="/games/7/hand/live" data-tag='"v2"'>
<form data-seat-form action="/games/7/hand"><input name="number" value="${number}"><p data-sent-line>${line}</p></form></div>`;
const ID = "/games/7/hand#2";
const DRAFT = "scorekeeper-draft:" + ID;

// One page for every test: the module installs its listeners once, as on a phone.
const phone = page(HAND, { online: false });
const main = document.createElement("main");
main.id = "main";
main.innerHTML = document.body.innerHTML;
document.body.innerHTML = "";
document.body.appendChild(main);
install(phone.storage, phone.session);
await settle();

const entries = (pairs) => ({ forEach: (fn) => pairs.forEach(([name, value]) => fn(value, name)) });

test("a hand is every field of the form but the row picked, and Send; one hand for each round", () => {
  const form = document.querySelector("form");
  const hand = handOf(form, entries([["csrf_token", "t"], ["number", "2"], ["seat", "2"], ["hand-2", "K 5"], ["bonus-2", "a"], ["bonus-2", "b"]]), 99);
  assert.deepEqual(hand, {
    id: ID, action: "/games/7/hand", game: "7", number: "2", word: "Round", own: false, at: 99,
    fields: [["csrf_token", "t"], ["number", "2"], ["hand-2", "K 5"], ["bonus-2", "a"], ["bonus-2", "b"], ["send", "1"]],
  });
});

test("where the phone keeps nothing (private mode), the hand waits in the page's memory", () => {
  const refusing = { getItem() { throw new Error("denied"); }, setItem() { throw new Error("denied"); }, removeItem() { throw new Error("denied"); } };
  for (const storage of [refusing, null]) {
    const kept = keptOrInMemory(storage);
    assert.equal(kept.getItem(SEAT_OUTBOX), null);
    kept.setItem(SEAT_OUTBOX, "[1]");
    assert.equal(kept.getItem(SEAT_OUTBOX), "[1]");
    kept.removeItem(SEAT_OUTBOX);
    assert.equal(kept.getItem(SEAT_OUTBOX), null);
  }
  const real = memoryStorage(), kept = keptOrInMemory(real);
  kept.setItem(SEAT_OUTBOX, "[2]");
  assert.equal(real.getItem(SEAT_OUTBOX), "[2]", "where the phone keeps things, they are kept there");
});

test("a hand the service worker sent leaves the outbox, and one sent again since then stays", async () => {
  const storage = memoryStorage(), forgotten = [];
  const db = {
    works: true, values: { "sent-hands": [`${ID}@1`] },
    read(key) { return Promise.resolve(this.values[key]); },
    change(key, how) { this.values[key] = how(this.values[key]); return Promise.resolve(this.values[key]); },
  };
  const box = () => createOutbox({
    ...HANDS, storage, session: null, fetch: () => { throw new Error("nothing is sent"); },
    online: () => true, now: () => 0, random: () => 0.5, setTimeout: () => 0, clearTimeout: () => {},
    db: () => db, changed: () => {}, forgetDraft: (id) => forgotten.push(id), notSent: () => {}, answered: () => {},
  });
  const phone = box();
  phone.keep({ id: ID, action: "/games/7/hand", game: "7", number: "2", fields: [], at: 1 });
  phone.keep({ id: "/games/8/hand#1", action: "/games/8/hand", game: "8", number: "1", fields: [], at: 1 });
  assert.deepEqual(JSON.parse(storage.getItem(SEAT_OUTBOX)).map((e) => e.id), [ID, "/games/8/hand#1"]);
  assert.equal(storage.getItem("scorekeeper-outbox"), null, "not among the scorekeeper's rounds");
  await phone.takeSent();
  assert.deepEqual(phone.list().map((e) => e.id), ["/games/8/hand#1"]);
  assert.deepEqual(forgotten, [ID]);
  assert.deepEqual(db.values["sent-hands"], []);

  phone.keep({ id: ID, action: "/games/7/hand", game: "7", number: "2", fields: [], at: 5 });
  db.values["sent-hands"] = [`${ID}@1`];  // the worker sent the first one, not this one
  await box().takeSent();
  assert.deepEqual(phone.list().map(sentKey), ["/games/8/hand#1@1", `${ID}@5`]);
});

function send() {
  const form = document.querySelector("form[data-seat-form]");
  trusted(form, "submit", { submitter: form.querySelector("button[name=send]") });
}
const posts = () => phone.net.sent.filter((r) => r.options.method === "POST");
const asks = () => phone.net.sent.filter((r) => r.options.method !== "POST");
const line = () => document.querySelector("[data-sent-line]").textContent;
const waiting = () => JSON.parse(phone.storage.getItem(SEAT_OUTBOX) || "[]");

test("without signal the hand waits on the phone, which says so, and goes by itself when the signal returns", async () => {
  phone.storage.setItem(DRAFT, "{}");
  send();
  assert.equal(posts().length, 0);
  assert.match(line(), /^Not sent yet: no signal/);
  assert.deepEqual(waiting().map((e) => e.id), [ID]);
  phone.navigator.onLine = true;
  phone.fire("online");
  assert.equal(posts().length, 1);
  const post = posts()[0];
  assert.equal(post.url, "/games/7/hand");
  assert.equal(post.options.method, "POST");
  assert.deepEqual(post.options.headers, { "HX-Request": "true", "X-CSRFToken": "token" });
  assert.deepEqual([...post.fields], [["csrf_token", "token"], ["number", "2"], ["hand-2", "K 5"], ["points-2", ""], ["send", "1"]]);
  phone.fire("online");  // asked again while the first is on its way: still one
  assert.equal(posts().length, 1);
  post.answer(200, answer("Sent: K 5 (15)"));
  await settle();
  assert.equal(line(), "Sent: K 5 (15)");
  assert.deepEqual(waiting(), []);
  assert.equal(phone.storage.getItem(DRAFT), null);
  phone.time.run();
  phone.fire("online");
  assert.equal(posts().length, 1, "sent once");
});

test("a send that fails is tried again, and says the hand is kept", async () => {
  document.querySelector("#main").innerHTML = HAND;
  send();
  assert.equal(line(), "Sending\u2026");
  posts().at(-1).drop();
  await settle();
  assert.match(line(), /^Not sent yet: no signal/);
  assert.deepEqual(waiting().map((e) => e.id), [ID]);
  phone.time.run(3000);
  assert.equal(posts().length, 3, "one more send, not one for each timer");
  posts().at(-1).answer(200, answer("Sent: K 5 (15)"));
  await settle();
  assert.deepEqual(waiting(), []);
});

test("the answer does not replace a hand the player is changing; the scorekeeper's round saved meanwhile does", async () => {
  document.querySelector("#main").innerHTML = HAND;
  send();
  trusted(document.querySelector("[data-rank]"), "click");  // a card more, not sent yet
  posts().at(-1).answer(200, answer("Sent: K 5 (15)"));
  await settle();
  assert.match(line(), /^Sending/, "the player's change stays on screen");
  assert.deepEqual(waiting(), []);

  send();
  trusted(document.querySelector("[data-rank]"), "click");
  posts().at(-1).answer(409, answer("Round 2 was saved by the scorekeeper.", 3));
  await settle();
  assert.equal(line(), "Round 2 was saved by the scorekeeper.");
  assert.deepEqual(waiting(), []);
});

test("the page asks after the round every second, and takes the news unless the player is changing this round's hand", async () => {
  document.querySelector("#main").innerHTML = HAND;
  const before = asks().length;
  phone.time.run(1000);
  const ask = asks().at(-1);
  assert.equal(asks().length, before + 1);
  assert.equal(ask.url, "/games/7/hand/live");
  assert.equal(ask.options.headers["If-None-Match"], '"v2"');
  ask.answer(304);
  await settle();
  assert.match(line(), /^Not sent yet: tap your cards/);

  trusted(document.querySelector("input[name=hand-2]"), "input");
  phone.time.run(1000);
  asks().at(-1).answer(200, answer("The scorekeeper entered: J (10)"), { ETag: '"v3"' });
  await settle();
  assert.match(line(), /^Not sent yet: tap your cards/, "the same round: the player's typing stays");

  phone.time.run(1000);
  asks().at(-1).answer(200, answer("Round 3: your cards.", 3), { ETag: '"v4"' });
  await settle();
  assert.equal(line(), "Round 3: your cards.", "the next round takes the page's place");
  phone.time.run(1000);
  assert.equal(asks().at(-1).options.headers["If-None-Match"], '"v4"');
});

test("Out can be unticked on the player's own row, after the keypad marked it out", () => {
  document.addEventListener("change", (event) => {  // as keypad.js: the row of the box that moved is out
    if (event.target.matches("input[name=went_out]")) { event.target.closest(".player").classList.add("is-out"); }
  });
  document.querySelector("#main").innerHTML = HAND;
  const out = document.querySelector("input[name=went_out]"), row = out.closest(".player");
  out.checked = true;
  trusted(out, "change");
  assert.equal(row.classList.contains("is-out"), true);
  out.checked = false;
  trusted(out, "change");
  assert.equal(row.classList.contains("is-out"), false);
});
