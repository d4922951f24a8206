// The module a page starts (static/js/main.js): on a page it installs every part, imports the
// parts the page's markup asks for and runs them, registers the service worker, and sends what
// waits in the outbox. Run: node --test tests/js/
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { page, settle, trusted } from "./dom.mjs";

const shared = [], registered = [];
const phone = page(`<!doctype html><html><head><title>New game · Scorekeeper</title>
<script type="importmap">{"imports":{"/static/js/main.js":"/static/js/main.js?v=0123456789"}}</script></head>
<body data-sw="/sw.js"><header class="top"></header><main id="main">
  <form class="filters" hx-get="/history"><select name="player"></select><button data-show>Show</button></form>
  <ol class="seats" data-seats data-max="4"><li class="seat"><span class="dot" id="seat-dot-0"></span>
    <label for="seat-0">Seat 1</label><input id="seat-0" name="seat-0" value="">
    <label class="dealer-pick"><input type="radio" name="dealer" value="0" checked> deals first</label></li></ol>
  <p hidden><button type="button" data-share-url="http://table.lan/games/7/watch" data-share-title="Watch game 7 live">Share</button></p>
  <p><a href="/games/7/card.png?lang=en" download="game-7.png" data-share-file data-share-title="Ann wins">Share the result</a></p>
</main></body></html>`, { share: (what) => { shared.push(what); return Promise.resolve(); } });
phone.navigator.canShare = () => true;  // a phone that shares pictures too
phone.navigator.serviceWorker = {
  register: (url, options) => { registered.push([url, options.scope]); return Promise.resolve(); },
  addEventListener() {}, ready: new Promise(() => {}),
};
window.htmx = { swap() {}, trigger() {} };
phone.storage.setItem("scorekeeper-outbox", JSON.stringify([
  { id: "/games/7/rounds/new#3", action: "/games/7/rounds/new", game: "7", number: "3", word: "Round",
    fields: [["number", "3"], ["csrf_token", "t"]], rev: 1 },
]));

// The parts main.js imports, once they are here (the same modules: main.js's import() of each
// is then done, and its installing follows at once).
const parts = (...names) => Promise.all(names.map((name) => import(`../../static/js/${name}`)));

await import("../../static/js/main.js");
document.dispatchEvent(new Event("DOMContentLoaded"));
await parts("seats.js", "share.js");
await settle();

test("the page's own parts are imported and run: a seat appears as the last one gets a name", () => {
  const seat = document.querySelector("#seat-0");
  seat.value = "Ann";
  trusted(seat, "input");
  assert.equal(document.querySelectorAll("li.seat").length, 2);
});

test("the share sheet is offered where the page has a share button and the phone a sheet", () => {
  const button = document.querySelector("button[data-share-url]");
  assert.equal(button.parentNode.hidden, false);
  button.dispatchEvent(new Event("click"));
  assert.deepEqual(shared, [{ title: "Watch game 7 live", url: "http://table.lan/games/7/watch" }]);
});

test("a result card's link has its picture fetched, for the share sheet to take in the tap", () => {
  assert.deepEqual(phone.net.sent.filter((r) => r.url.includes("card.png")).map((r) => r.url), ["/games/7/card.png?lang=en"]);
});

test("the service worker is registered for the whole app", () => {
  assert.deepEqual(registered, [["/sw.js", "/"]]);
});

test("a round waiting in the outbox is sent as soon as the page opens, and shown while it waits", () => {
  const sent = phone.net.sent.filter((r) => r.options.method === "POST");
  assert.equal(sent.length, 1);
  assert.equal(sent[0].url, "/games/7/rounds/new");
  assert.equal(sent[0].options.headers["X-CSRFToken"], "t");
  assert.match(document.querySelector(".outbox-note").textContent, /^Round 3 of game 7: waiting to send/);
});

test("a filter applies as it changes where htmx runs: its Show button is hidden", () => {
  assert.equal(document.querySelector("[data-show]").hidden, true);
});

// The keypad's table as the engine hands it to the page (a classic game of tests/js/cases/), every seat on deal 1.
const CLASSIC = JSON.parse(readFileSync(new URL("./cases/classic.json", import.meta.url), "utf8"))[0].game;
const TABLE = { ...CLASSIC, seats: [1, 1, 1, 1] };

const HAND = `<div class="own-hand" data-own-hand data-live="/games/7/hand/live" data-tag='"v1"'>
<form class="round-form own-form" method="post" action="/games/7/hand" novalidate data-word="Round" data-seat-form
      data-values='${JSON.stringify(TABLE)}' data-last="">
  <input type="hidden" name="csrf_token" value="t"><input type="hidden" name="number" value="1">
  <p class="sent-line" role="status" data-sent-line>Not sent yet: tap your cards, then send them.</p>
  <fieldset class="players"><div class="player is-selected" data-seat="2" id="seat-2">
    <label class="out-toggle"><input type="checkbox" name="went_out" value="2"></label>
    <label class="pick"><input type="radio" name="seat" value="2" checked><span class="pname">Cat</span>
      <span class="cards" data-chips="2"></span></label>
    <output class="penalty" id="pen-2">0</output>
    <div class="typed" hidden><input id="hand-2" name="hand-2" value=""><input id="points-2" name="points-2" value=""></div>
  </div></fieldset>
  <div class="dock" data-dock><div class="dock-hand"><span class="dock-who"><span class="pname" data-who>Cat</span>:</span>
    <span class="chips" data-hand></span></div>
    <div class="keypad" role="group" data-keypad data-words='{}'>
      <button type="submit" name="key" value="2:K" data-rank="K" data-label="K">K</button>
      <button type="submit" name="key" value="2:5" data-rank="5" data-label="5">5</button>
      <button class="primary save-key" type="submit" name="send" value="1">Send to the scorekeeper</button>
    </div></div>
</form></div>`;

test("a player's own hand drawn in: the keypad types into it, and Send sends it from the phone's outbox", async () => {
  const main = document.querySelector("#main");
  main.innerHTML = HAND;
  const settled = new Event("htmx:afterSettle", { bubbles: true });
  main.dispatchEvent(settled);
  await parts("seat.js", "keypad.js", "drafts.js");
  await settle();
  trusted(document.querySelector("button[data-rank=K]"), "click");
  trusted(document.querySelector("button[data-rank='5']"), "click");
  assert.equal(document.querySelector("#hand-2").value, "K 5");
  assert.equal(document.querySelector("#pen-2").textContent, "15");
  const form = document.querySelector("form[data-seat-form]");
  trusted(form, "submit", { submitter: form.querySelector("button[name=send]") });
  const sent = phone.net.sent.filter((r) => r.url === "/games/7/hand");
  assert.equal(sent.length, 1);
  assert.equal(sent[0].fields.get("hand-2"), "K 5");
  assert.equal(JSON.parse(phone.storage.getItem("scorekeeper-seat-outbox")).length, 1);
  assert.equal(document.querySelector("[data-sent-line]").textContent, "Sending\u2026");
});
