// Recording without the server (static/js/offline.js): the scoreboard last seen live and the
// blank round screen kept on the phone, the kept board shown where the server's would be with
// what needs the server disabled, and a round not yet sent taken back. Run: node --test tests/js/
import assert from "node:assert/strict";
import { test } from "node:test";

import { keptAt, setKept, setWords } from "../../static/js/banner.js";
import { install, keepBlankForm, keepBoard, keptPage, showKeptBoard } from "../../static/js/offline.js";
import { install as installOutbox, outbox } from "../../static/js/outbox.js";
import { page, settle } from "./dom.mjs";

const BOARD = `<div class="flashes"><p class="flash">Round 2 saved.</p></div>
<p data-undo><button>Undo round 2</button></p>
<div id="board" class="live" data-poll data-game="7" hx-get="/games/7/live?v=5" data-replay='{"players":["Ann","Ben"]}'>
  <table class="standings"><tr><td>Ann</td><td class="total">14</td></tr></table>
  <p><a class="button primary" href="/games/7/rounds/new">Record round 3</a></p>
  <div class="actions"><a class="button" href="/games/7/share">Share</a></div>
  <form method="post" action="/games/7/delete"><button>Delete</button></form>
</div>`;
const ROUND_SCREEN = `<html><body><main id="main"><form class="round-form" action="/games/7/rounds/new" data-outbox>
  <input name="number" value="3"><button name="save">Save round 3</button></form></main></body></html>`;

const phone = page(`<!doctype html><html><head><title>Game 7 · Scorekeeper</title></head><body>
  <header class="top"></header><main id="main">${BOARD}</main></body></html>`, { address: "/games/7" });
setWords({});
const redrawn = [];
install("?v=build1", (root) => redrawn.push(root.id));
installOutbox(phone.storage, phone.session, { redraw: () => {}, showKeptBoard, shown: () => {} });
const main = () => document.querySelector("#main");

test("the scoreboard seen live is kept on the phone, without what belongs to the moment", () => {
  keepBoard();
  const kept = JSON.parse(phone.storage.getItem("scorekeeper-board"));
  assert.equal(kept.game, "7");
  assert.equal(kept.version, 5);
  assert.equal(kept.build, "?v=build1");
  assert.equal(kept.title, "Game 7 · Scorekeeper");
  assert.match(kept.html, /<td class="total">14<\/td>/);
  assert.doesNotMatch(kept.html, /Round 2 saved|Undo round 2/);
  phone.navigator.onLine = false;
  phone.storage.removeItem("scorekeeper-board");
  keepBoard();
  assert.equal(phone.storage.getItem("scorekeeper-board"), null, "without signal the page may be a kept one: not kept again");
  phone.navigator.onLine = true;
  keepBoard();
});

test("the blank round screen is fetched once from the scoreboard and kept", async () => {
  keepBlankForm();
  const asked = phone.net.sent.filter((r) => r.url === "/games/7/rounds/new");
  assert.equal(asked.length, 1);
  asked[0].answer(200, ROUND_SCREEN);
  await settle();
  const kept = JSON.parse(phone.storage.getItem("scorekeeper-form"));
  assert.deepEqual([kept.game, kept.build], ["7", "?v=build1"]);
  assert.match(kept.html, /^<form class="round-form" action="\/games\/7\/rounds\/new" data-outbox[^>]*>\s*<input name="number" value="3">/);
  keepBlankForm();
  assert.equal(phone.net.sent.filter((r) => r.url === "/games/7/rounds/new").length, 1);
});

test("without signal the kept scoreboard takes the page's place, at the game's address, and says how old it is", () => {
  main().innerHTML = '<form class="round-form"></form>';
  phone.history.states.length = 0;
  phone.location.pathname = "/games/7/rounds/new";
  assert.equal(showKeptBoard("8", true), false, "another game's board is not this one's");
  assert.equal(showKeptBoard("7", true), true);
  assert.match(main().innerHTML, /<td class="total">14<\/td>/);
  assert.equal(document.title, "Game 7 · Scorekeeper");
  assert.deepEqual(phone.history.states, [["replace", "/games/7"]]);
  assert.ok(keptAt());
  assert.equal(document.body.getAttribute("data-kept-at"), String(keptAt()));
  assert.deepEqual(redrawn, ["main"]);
  assert.match(document.querySelector(".offline-note").textContent, /^Offline: the scoreboard as of \d\d:\d\d/);
});

test("on a kept page what needs the server is disabled, with the reason; recording the next round is not", () => {
  keptPage();
  const share = main().querySelector("a[href$='/share']"), record = main().querySelector("a[href$='/rounds/new']");
  assert.equal(share.getAttribute("aria-disabled"), "true");
  assert.equal(main().querySelector("form button").disabled, true);
  assert.equal(record.hasAttribute("aria-disabled"), false, "the kept round screen records it");
  assert.match(main().querySelector(".needs-signal").textContent, /^Rounds are recorded on this phone and sent later/);
  keptPage();
  assert.equal(main().querySelectorAll(".needs-signal").length, 1);
});

test("a round kept by another version of the phone's script is not shown", () => {
  const kept = JSON.parse(phone.storage.getItem("scorekeeper-board"));
  phone.storage.setItem("scorekeeper-board", JSON.stringify({ ...kept, build: "?v=older" }));
  assert.equal(showKeptBoard("7", true), false);
  phone.storage.setItem("scorekeeper-board", JSON.stringify(kept));
});

test("a round waiting to be sent can be taken back, and the page says it was not sent", () => {
  phone.navigator.onLine = false;
  phone.storage.setItem("scorekeeper-outbox", JSON.stringify([
    { id: "/games/7/rounds/new#3", action: "/games/7/rounds/new", game: "7", number: "3", word: "Round", fields: [], rev: 1 },
  ]));
  main().innerHTML = '<button type="button" data-undo-waiting="/games/7/rounds/new#3">Undo round 3 (not yet sent)</button>';
  main().querySelector("button").dispatchEvent(new Event("click", { bubbles: true }));
  assert.deepEqual(outbox(), []);
  assert.equal(document.querySelector(".offline-note").textContent, "Round 3 taken back: it was not sent.");
});

test("a request htmx could not send says the phone is offline; a round form's, that nothing entered is lost", () => {
  setKept(null);
  main().innerHTML = '<a href="/games/7/history">History</a><form class="round-form"><button>Save</button></form>';
  const failed = (elt) => {
    const event = new Event("htmx:sendError");
    event.detail = { elt };
    document.dispatchEvent(event);
    return document.querySelector(".offline-note").textContent;
  };
  phone.navigator.serviceWorker = {};
  assert.equal(failed(main().querySelector("a")), "Offline: reconnecting");
  assert.equal(failed(main().querySelector("button")), "Offline, retrying\u2026 nothing you entered is lost.");
});
