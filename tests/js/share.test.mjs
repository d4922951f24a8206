// The share sheet beside a link (static/js/share.js): shown where the browser has one, and it
// is handed the link; hidden where it has none. Run: node --test tests/js/
import assert from "node:assert/strict";
import { test } from "node:test";

import { offer, offerFile } from "../../static/js/share.js";
import { page, settle } from "./dom.mjs";

const LINKS = `
<p class="link"><a href="http://table.lan/games/7/watch">http://table.lan/games/7/watch</a></p>
<p hidden><button type="button" data-share-url="http://table.lan/games/7/watch" data-share-title="Watch game 7 live">Share the watch link</button></p>`;

test("where the phone has a share sheet, the button shows and hands it the link and its title", async () => {
  const shared = [];
  const phone = page(LINKS, { share: (what) => { shared.push(what); return Promise.resolve(); } });
  offer(document, phone.navigator);
  offer(document, phone.navigator);  // the page drawn again: still one listener
  const button = document.querySelector("button");
  assert.equal(button.parentNode.hidden, false);
  button.dispatchEvent(new Event("click"));
  await settle();
  assert.deepEqual(shared, [{ title: "Watch game 7 live", url: "http://table.lan/games/7/watch" }]);
});

test("a sheet closed without sharing says nothing and breaks nothing", async () => {
  const phone = page(LINKS, { share: () => Promise.reject(new Error("AbortError")) });
  offer(document, phone.navigator);
  document.querySelector("button").dispatchEvent(new Event("click"));
  await settle();
  assert.equal(document.querySelector("button").parentNode.hidden, false);
});

test("without a share sheet (plain HTTP) the button stays hidden; the link is there", () => {
  const phone = page(LINKS);
  offer(document, phone.navigator);
  assert.equal(document.querySelector("button").parentNode.hidden, true);
  assert.equal(document.querySelector("a").textContent, "http://table.lan/games/7/watch");
});

// ---- "Share the result": a result card's picture, handed to the sheet as a file where the phone
// can share one, else the link downloads it (it is a plain link: without the script it does).

const CARD = `<p><a class="button" href="/games/7/card.png?lang=en" download="game-7.png" data-share-file
  data-share-title="Ann wins with 12.">Share the result</a></p>`;

// The picture as the server answers it: fetched as the page is drawn.
function server(calls, ok = true) {
  return (url) => { calls.push(url); return Promise.resolve({ ok, blob: () => Promise.resolve(new Blob(["png"], { type: "image/png" })) }); };
}

function tap(link) {
  const event = new Event("click", { cancelable: true });
  link.dispatchEvent(event);
  return event.defaultPrevented;
}

test("where the phone can share a file, a tap hands the sheet the picture itself, not a download", async () => {
  const shared = [], calls = [];
  const phone = page(CARD, { share: (what) => { shared.push(what); return Promise.resolve(); } });
  phone.navigator.canShare = (what) => Array.isArray(what.files) && what.files.every((f) => f.type === "image/png");
  offerFile(document, phone.navigator, server(calls));
  offerFile(document, phone.navigator, server(calls));  // drawn again: fetched once, one listener
  await settle();
  assert.deepEqual(calls, ["/games/7/card.png?lang=en"]);
  assert.equal(tap(document.querySelector("a")), true);
  await settle();
  assert.equal(shared.length, 1);
  assert.equal(shared[0].title, "Ann wins with 12.");
  assert.equal(shared[0].files[0].name, "game-7.png");
  assert.equal(shared[0].files[0].type, "image/png");
});

test("a phone that cannot share files (no canShare, or it says no) gets the download", async () => {
  const calls = [];
  const old = page(CARD, { share: () => Promise.resolve() });  // a share sheet for links only
  offerFile(document, old.navigator, server(calls));
  await settle();
  assert.deepEqual(calls, []);  // nothing fetched where it cannot be shared
  assert.equal(tap(document.querySelector("a")), false);
  const picky = page(CARD, { share: () => Promise.resolve() });
  picky.navigator.canShare = () => false;
  offerFile(document, picky.navigator, server(calls));
  await settle();
  assert.equal(tap(document.querySelector("a")), false);
  const none = page(CARD);  // plain HTTP: no sheet at all
  offerFile(document, none.navigator, server(calls));
  assert.equal(tap(document.querySelector("a")), false);
});

test("a tap before the picture arrived, or without signal, downloads it", async () => {
  const phone = page(CARD, { share: () => Promise.resolve() });
  phone.navigator.canShare = () => true;
  offerFile(document, phone.navigator, () => new Promise(() => {}));  // still on its way
  assert.equal(tap(document.querySelector("a")), false);
  const lost = page(CARD, { share: () => Promise.resolve() });
  lost.navigator.canShare = () => true;
  offerFile(document, lost.navigator, () => Promise.reject(new TypeError("Failed to fetch")));
  await settle();
  assert.equal(tap(document.querySelector("a")), false);
});

test("the sheet closed without sharing says nothing; a sheet refused falls back to the download", async () => {
  const phone = page(CARD, { share: () => Promise.reject(Object.assign(new Error("closed"), { name: "AbortError" })) });
  phone.navigator.canShare = () => true;
  offerFile(document, phone.navigator, server([]));
  await settle();
  assert.equal(tap(document.querySelector("a")), true);
  await settle();
  assert.equal(tap(document.querySelector("a")), true);  // still offered: the sheet again
  const refused = page(CARD, { share: () => Promise.reject(Object.assign(new Error("no"), { name: "NotAllowedError" })) });
  refused.navigator.canShare = () => true;
  offerFile(document, refused.navigator, server([]));
  await settle();
  const link = document.querySelector("a");
  const downloads = [];
  link.click = () => { downloads.push(link.getAttribute("href")); };
  assert.equal(tap(link), true);
  await settle();
  assert.deepEqual(downloads, ["/games/7/card.png?lang=en"]);
  assert.equal(tap(link), false);  // from now on the link downloads it
});
