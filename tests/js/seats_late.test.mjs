// The seats' part (static/js/seats.js) arrives after the page: names typed before it came get
// their buttons and the blank seat after them as it installs. Run: node --test tests/js/
import assert from "node:assert/strict";
import { test } from "node:test";

import { setWords } from "../../static/js/banner.js";
import { install } from "../../static/js/seats.js";
import { page } from "./dom.mjs";

const seat = (i, name = "") => `<li class="seat"><span class="dot seat-${i}" id="seat-dot-${i}" aria-hidden="true"></span>
  <label class="visually-hidden" for="seat-${i}">Seat ${i + 1}</label>
  <input id="seat-${i}" name="seat-${i}" value="${name}" maxlength="40">
  <label class="dealer-pick"><input type="radio" name="dealer" value="${i}"${i === 0 ? " checked" : ""}> deals first</label></li>`;

test("names typed before the part came: the seat after the last gets added, each named seat its buttons", () => {
  page(`<form><ol class="seats" data-seats data-max="5">${seat(0)}${seat(1)}</ol></form>`);
  setWords({});
  // Typed while the part was still on its way: the values are there, no input was heard.
  document.querySelector("#seat-0").value = "Ann";
  document.querySelector("#seat-1").value = "Ben";
  install();
  const seats = [...document.querySelectorAll("li.seat")];
  assert.equal(seats.length, 3);
  assert.equal(seats[2].querySelector(".dot").id, "seat-dot-2");
  assert.equal(seats[2].querySelector("input[name^=seat-]").value, "");
  assert.deepEqual([...seats[0].querySelectorAll("button")].map((b) => b.name), ["drop"]);
  assert.deepEqual([...seats[1].querySelectorAll("button")].map((b) => b.name), ["up", "drop"]);
  assert.equal(seats[2].querySelectorAll("button").length, 0);
});
