// The live scoreboard (static/js/live.js): no polling while the phone is hidden, a poll at
// once when it is shown, and the screen kept awake while a page asks for it. Run: node --test tests/js/
import assert from "node:assert/strict";
import { test } from "node:test";

import { install, wake } from "../../static/js/live.js";
import { page, settle } from "./dom.mjs";

const phone = page(`<main id="main"><section id="board" data-poll hx-get="/games/7/board" data-wake></section></main>`);
let hidden = false;
Object.defineProperty(document, "hidden", { get: () => hidden, configurable: true });
const locks = [];
phone.navigator.wakeLock = {
  request(kind) {
    const lock = { kind, released: false, listeners: [], addEventListener(type, fn) { this.listeners.push(fn); },
                   release() { this.released = true; this.listeners.forEach((fn) => fn()); } };
    locks.push(lock);
    return Promise.resolve(lock);
  },
};
const triggered = [];
window.htmx = { trigger: (el, name) => triggered.push([el.id, name]) };
install();

function event(type, detail) {
  const e = new Event(type, { cancelable: true });
  e.detail = detail;
  document.dispatchEvent(e);
  return e;
}

test("a page that keeps score keeps the screen awake, once; a page that does not lets it sleep", async () => {
  wake();
  await settle();
  wake();
  await settle();
  assert.deepEqual(locks.map((l) => [l.kind, l.released]), [["screen", false]]);
  document.querySelector("#board").removeAttribute("data-wake");
  wake();
  assert.equal(locks[0].released, true);
  document.querySelector("#board").setAttribute("data-wake", "");
  wake();
  await settle();
  assert.equal(locks.length, 2, "asked again once the page wants it");
});

test("the board does not poll while the phone is hidden, and polls at once when it is shown", async () => {
  const board = document.querySelector("#board");
  assert.equal(event("htmx:beforeRequest", { elt: board }).defaultPrevented, false);
  hidden = true;
  assert.equal(event("htmx:beforeRequest", { elt: board }).defaultPrevented, true);
  const form = document.createElement("form");
  assert.equal(event("htmx:beforeRequest", { elt: form }).defaultPrevented, false, "only the board's poll waits");
  hidden = false;
  locks.at(-1).release();
  event("visibilitychange");
  await settle();
  assert.deepEqual(triggered, [["board", "poll-now"]]);
  assert.equal(locks.at(-1).released, false, "the screen is kept awake again (a hidden page loses its lock)");
});
