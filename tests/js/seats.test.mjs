// The new game's seats (static/js/seats.js): a seat appears as the last one gets a name, up to
// the table's limit, and a named seat gets its buttons to move up and to leave. Run: node --test tests/js/
import assert from "node:assert/strict";
import { test } from "node:test";

import { setWords } from "../../static/js/banner.js";
import { install } from "../../static/js/seats.js";
import { page, trusted } from "./dom.mjs";

const seat = (i, name = "") => `<li class="seat"><span class="dot seat-${i}" id="seat-dot-${i}" aria-hidden="true"></span>
  <label class="visually-hidden" for="seat-${i}">Seat ${i + 1}</label>
  <input id="seat-${i}" name="seat-${i}" value="${name}" maxlength="40" list="roster-names">
  <label class="dealer-pick"><input type="radio" name="dealer" value="${i}"${i === 0 ? " checked" : ""}> deals first</label></li>`;

page(`<form><ol class="seats" data-seats data-max="3">${seat(0, "Ann")}${seat(1)}</ol>
  <button class="button" type="submit" name="refresh" value="1" data-more-seats>More seats</button></form>`);
setWords({});
install();

const seats = () => [...document.querySelectorAll("li.seat")];
function type(i, name) {
  const input = document.querySelector(`#seat-${i}`);
  input.value = name;
  trusted(input, "input");
}

test("the last seat named, a blank one appears after it, with its own label, dealer choice and no colour", () => {
  type(1, "Ben");
  assert.equal(seats().length, 3);
  const added = seats()[2];
  const input = added.querySelector("input[name^=seat-]");
  assert.equal(input.id, "seat-2");
  assert.equal(input.getAttribute("name"), "seat-2");
  assert.equal(input.value, "");
  assert.equal(input.getAttribute("placeholder"), "Seat 3: name");
  assert.equal(input.getAttribute("maxlength"), "40");
  assert.equal(added.querySelector("label.visually-hidden").textContent, "Seat 3");
  assert.equal(added.querySelector(".dot").className, "dot");
  assert.equal(added.querySelector(".dot").id, "seat-dot-2");
  const dealer = added.querySelector("input[name=dealer]");
  assert.equal(dealer.value, "2");
  assert.equal(dealer.checked, false);
  assert.equal(document.querySelector("input[name=dealer]:checked").value, "0", "the first dealer stays");
});

test("a named seat can move up and leave; the first cannot move up; a seat emptied loses both", () => {
  const ben = seats()[1];
  assert.deepEqual([...ben.querySelectorAll("button")].map((b) => [b.name, b.value, b.getAttribute("aria-label")]),
                   [["up", "1", "Move Ben up a seat"], ["drop", "1", "Take Ben off the table"]]);
  type(0, "Annie");
  assert.deepEqual([...seats()[0].querySelectorAll("button")].map((b) => b.name), ["drop"]);
  type(1, "");
  assert.equal(seats()[1].querySelectorAll("button").length, 0);
  assert.equal(seats().length, 3, "an emptied seat adds none");
});

test("no seat beyond the table's limit, and More seats goes once it is reached", () => {
  assert.equal(document.querySelector("[data-more-seats]").hidden, true);
  type(2, "Cat");
  assert.equal(seats().length, 3);
});
