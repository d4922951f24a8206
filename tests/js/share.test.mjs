// The share sheet beside a link (static/js/share.js): shown where the browser has one, and it
// is handed the link; hidden where it has none. Run: node --test tests/js/
import assert from "node:assert/strict";
import { test } from "node:test";

import { offer } from "../../static/js/share.js";
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
