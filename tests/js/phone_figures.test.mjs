// The board under the phone's figures (static/js/offline.js): once none of the rounds it worked
// out waits to be sent, the board asks the server for its own at once, rather than show itself as
// it was before them until its next poll. Run: node --test tests/js/
import assert from "node:assert/strict";
import { test } from "node:test";

import { setWords } from "../../static/js/banner.js";
import { offlineHelpers, phoneFigures } from "../../static/js/offline.js";
import { drop, install as installOutbox, keep } from "../../static/js/outbox.js";
import { page, settle } from "./dom.mjs";

const BOARD = `<section class="phone-figures"><h2>Not yet sent: after round 3</h2></section>
<div id="board" class="live" data-poll data-game="7" hx-get="/games/7/live?v=5" data-replay='{"players":["Ann","Ben"],"state":{"next":null}}'>
  <table class="standings"><tr><td>Ann</td><td class="total">14</td></tr></table></div>`;

const phone = page(`<!doctype html><html><body><main id="main">${BOARD}</main></body></html>`, { address: "/games/7" });
setWords({});
installOutbox(phone.storage, phone.session, { redraw: () => {}, showKeptBoard: () => false, shown: () => {} });
const asked = [];
window.htmx = { trigger: (elt, event) => asked.push([elt.id, event]) };
const round = { id: "/games/7/rounds/new#3", action: "/games/7/rounds/new", game: "7", number: "3", word: "Round",
                fields: [["number", "3"]], round: { went_out: "Ann" }, holds: "Ann went out" };

function figuresDrawn() {
  if (!document.querySelector(".phone-figures")) {
    const box = document.createElement("section");
    box.className = "phone-figures";
    document.querySelector("#main").insertBefore(box, document.querySelector("#board"));
  }
}

test("while a round of the board's game waits, the board does not ask", async () => {
  keep(round);
  phoneFigures();
  await offlineHelpers();  // the phone's replay, fetched for the waiting round, draws again
  await settle();
  assert.deepEqual(asked, []);
});

test("once it no longer waits (sent by the service worker: no page saw the answer), the board asks at once", async () => {
  figuresDrawn();
  drop(round.id);
  phoneFigures();
  await settle();
  assert.deepEqual(asked, [["board", "poll-now"]]);
});

test("a board with no figures drawn over it, or one an answer already replaced, does not ask", async () => {
  asked.length = 0;
  phoneFigures();  // nothing was drawn over it: it is the server's own
  await settle();
  figuresDrawn();
  phoneFigures();
  document.querySelector("#board").remove();  // this page's own answer took its place
  await settle();
  assert.deepEqual(asked, []);
});

test("without signal it does not ask: its poll would only fail", async () => {
  document.querySelector("#main").insertAdjacentHTML("beforeend", BOARD);
  phone.navigator.onLine = false;
  phoneFigures();
  await settle();
  assert.deepEqual(asked, []);
});
