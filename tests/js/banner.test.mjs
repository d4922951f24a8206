// Lost signal (static/js/banner.js): the note under the menu says so in words that fit what the
// page holds, says when it is back, and a kept page says how old it is. Run: node --test tests/js/
import assert from "node:assert/strict";
import { test } from "node:test";

import { backOnline, el, install, keptWords, lose, offline, say, setKept, setWords } from "../../static/js/banner.js";
import { page } from "./dom.mjs";

const phone = page(`<header class="top"><a class="brand">Scorekeeper</a></header><main id="main"></main>`);
setWords({});
install();
const note = () => document.querySelector(".offline-note");

test("an element is drawn with its class and words", () => {
  const strong = el("strong", "small", "Round 3");
  assert.equal(strong.outerHTML, '<strong class="small">Round 3</strong>');
  assert.equal(el("p").outerHTML, "<p></p>");
});

test("the note goes under the menu, never over the page, and is the one note however often it speaks", () => {
  say("Offline: reconnecting");
  say("Offline: reconnecting");
  assert.equal(document.querySelectorAll(".offline-note").length, 1);
  assert.equal(document.querySelector("header.top").nextElementSibling, note());
  assert.equal(note().getAttribute("role"), "status");
  say("");
  assert.equal(note().hidden, true);
});

test("offline: a phone with a service worker is told it reconnects; saving, that nothing entered is lost", () => {
  phone.navigator.serviceWorker = {};
  offline(false);
  assert.equal(note().textContent, "Offline: reconnecting");
  offline(true);
  assert.equal(note().textContent, "Offline, retrying\u2026 nothing you entered is lost.");
});

test("without a service worker, a page where rounds are entered asks to be kept open", () => {
  delete phone.navigator.serviceWorker;
  lose("Offline, retrying\u2026 round 3 is kept on this phone.");
  assert.equal(note().textContent, "Offline, retrying\u2026 round 3 is kept on this phone.", "a watcher's page only waits");
  document.querySelector("#main").innerHTML = '<form class="round-form" data-outbox></form>';
  lose("Offline, retrying\u2026 round 3 is kept on this phone.");
  assert.match(note().textContent, /round 3 is kept on this phone\. Keep this page open until the signal returns/);
});

test("back online: says so, and the note goes a moment later", () => {
  backOnline();
  assert.equal(note().textContent, "Live again");
  assert.deepEqual(phone.time.pending(), [4000]);
  phone.time.run();
  assert.equal(note().hidden, true);
  backOnline();  // not lost: nothing to say
  assert.equal(note().hidden, true);
});

test("a kept page says how old it is, in the page's words, and is reloaded live when the signal returns", () => {
  document.querySelector("#main").innerHTML = '<section id="board"></section>';
  phone.navigator.serviceWorker = {};
  const at = new Date(2026, 11, 6, 21, 4).getTime();
  setKept(at);
  assert.equal(keptWords(), "Offline: the scoreboard as of 21:04");
  setWords({ kept_board: "Offline: Spielstand von {time}" });
  assert.equal(keptWords(), "Offline: Spielstand von 21:04");
  setWords({});
  document.body.setAttribute("data-kept-at", String(at));
  phone.fire("online");
  assert.equal(phone.location.reloaded, 1, "without htmx, the live page is loaded");
  assert.equal(document.body.hasAttribute("data-kept-at"), false);
});

test("what a kept page disabled does nothing when tapped", () => {
  document.querySelector("#main").innerHTML = '<a href="/games/7/rounds/new" aria-disabled="true"><span>Record round 3</span></a>';
  const tap = new Event("click", { bubbles: true, cancelable: true });
  document.querySelector("span").dispatchEvent(tap);
  assert.equal(tap.defaultPrevented, true);
});
