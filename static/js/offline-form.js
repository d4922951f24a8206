// The round screen for a round the server has not seen yet: without signal,
// once a round waits in the phone's outbox, the same form is turned into the next round's
// (its number, dealer, cards dealt and each player's contract come from the phone's replay,
// js/offline-replay.js), blank, so a table can go on playing. The words are those of
// templates/round_form.html; tests/browser/test_signal.py plays a whole game this way and
// compares the server's totals with the phone's. js/offline.js redraws the rows and the dock after, and
// imports this module once a round waits to be sent or the signal is gone.

import { inSentence, roundWord, stageWord, word } from "./banner.js";

function capital(text) { return text.charAt(0).toUpperCase() + text.slice(1); }

function strong(text) {
  var b = document.createElement("strong");
  b.textContent = text;
  return b;
}

function span(parts) {
  var s = document.createElement("span");
  parts.forEach(function (p) { s.appendChild(typeof p === "string" ? document.createTextNode(p) : p); });
  return s;
}

// A line whose words put a blank in bold ("<strong>{name}</strong> dealt"), its blanks filled.
function marked(key, english, values) {
  return span(word(key, english).split(/<strong>\{(\w+)\}<\/strong>/).map(function (part, i) {
    return i % 2 ? strong(String(values[part])) : word("", part, values);
  }));
}

function describe(game, stageNumber) {
  return word("contract", "{stage} {number}: {contract}",
              { stage: game.stage_word, number: stageNumber, contract: game.stages[stageNumber - 1].contract });
}

// "Ann dealt · 11 cards each · Deal 2: two sets of three, one run of four" (the contract
// only when everyone plays the same one).
function dealLine(form, game, next) {
  var line = form.querySelector(".deal-line");
  line.textContent = "";
  line.appendChild(marked("dealt", "<strong>{name}</strong> dealt", { name: next.dealer }));
  line.appendChild(document.createTextNode(" "));
  line.appendChild(marked("cards_each", "<strong>{num}</strong> cards each", { num: next.cards_dealt }));
  if (!game.ladder) {
    line.appendChild(document.createTextNode(" "));
    line.appendChild(span([describe(game, next.stages[0])]));
  }
}

// A blank row for one player, with this round's contract.
function resetRow(row, game, next) {
  var seat = Number(row.getAttribute("data-seat")), name = game.players[seat];
  var stage = next.stages[seat], inStage = inSentence(game.stage_word);
  row.classList.remove("is-out", "has-error", "typing", "is-selected");
  row.querySelectorAll("input[name=went_out], input[name^=achieved-], input[name^=bonus-]").forEach(function (i) { i.checked = false; });
  row.querySelectorAll("input[name^=hand-], input[name^=points-]").forEach(function (i) {
    i.value = "";
    i.removeAttribute("aria-invalid");
    i.removeAttribute("aria-describedby");
  });
  row.querySelectorAll(".seat-errors").forEach(function (e) { e.remove(); });
  row.querySelector(".typed").hidden = true;
  var contract = row.querySelector(".contract");
  if (contract) { contract.textContent = describe(game, stage); }
  var made = row.querySelector("input[name^=achieved-]");
  if (made) {
    made.setAttribute("aria-label", stageWord("made", game.stage_kind, "{name} made the {stage}", { name: name, stage: inStage })
                                    + " (" + inStage + " " + stage + ")");
  }
  if (next.finishers.indexOf(name) >= 0) {
    row.setAttribute("data-finishes", stageWord("completes", game.stage_kind, "{name} completes {stage} {number}",
                                                { name: name, stage: inStage, number: stage }));
  } else {
    row.removeAttribute("data-finishes");
  }
}

// The form, made into the form of the round `next` (an object of OfflineReplay.nextRound).
export function advance(form, game, next) {
  var round = { round: inSentence(game.round_word), number: next.number };
  var title = capital(roundWord("record", game.round_own, "Record {round} {number}", round)), rest = document.title.indexOf(" \u00b7 ");
  form.querySelector("input[name=number]").value = String(next.number);
  form.querySelector(".round-head h1").textContent = title;
  document.title = title + (rest >= 0 ? document.title.slice(rest) : "");
  var save = form.querySelector("button[name=save]");
  save.textContent = roundWord("save", game.round_own, "Save {round} {number}", round);
  save._words = save.textContent;
  dealLine(form, game, next);
  form.setAttribute("data-last", next.is_last ? roundWord("last", game.round_own, "{round} {number} is the last", round) : "");
  form.querySelectorAll(".errors").forEach(function (e) { e.remove(); });
  var ending = form.querySelector(".ending");
  if (ending) { ending.hidden = true; ending.textContent = ""; }
  form.querySelectorAll(".player[data-seat]").forEach(function (row) { resetRow(row, game, next); });
  // Each seat's cards now count at its stage of this round (js/keypad.js reads the table anew).
  var cards = JSON.parse(form.getAttribute("data-values"));
  cards.seats = next.stages;
  form.setAttribute("data-values", JSON.stringify(cards));
  form._cards = null;
  var first = form.querySelector("input[name=seat]");
  if (first) { first.checked = true; }
}
