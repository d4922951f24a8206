// The phone's script in the page's language (static/js/banner.js's word): the words a page
// gives (its #words, from scorekeeper/web/scriptwords.py) are the ones said, with their blanks
// filled; a page that gives none gets each module's English. Run: node --test tests/js/
import assert from "node:assert/strict";
import { test } from "node:test";

import { inSentence, setWords, word } from "../../static/js/banner.js";
import { describe } from "../../static/js/outbox.js";

const entry = { game: "7", number: "3", word: "Runde", correction: false };

test("without words from the page, each module says its English", () => {
  setWords({});
  assert.equal(word("live", "Live again"), "Live again");
  assert.equal(describe({ ...entry, word: "Round" }, true), "Round 3 of game 7: waiting to send");
  assert.equal(describe({ ...entry, word: "Deal", correction: true }, true), "Correction of deal 3 of game 7: waiting to send");
});

test("the words a page gives are the ones said, their blanks filled", () => {
  setWords({
    capitals: true,
    waiting_game: "{round} {number} von Spiel {game}: wartet auf Senden",
    correction_waiting_game: "Korrektur von {round} {number} von Spiel {game}: wartet auf Senden",
  });
  assert.equal(describe(entry, true), "Runde 3 von Spiel 7: wartet auf Senden");
  // A German noun keeps its capital inside a sentence.
  assert.equal(describe({ ...entry, correction: true }, true), "Korrektur von Runde 3 von Spiel 7: wartet auf Senden");
  assert.equal(inSentence("Runde"), "Runde");
  // A word the page does not give is the module's English; a blank not filled stays as written.
  assert.equal(word("live", "Live again"), "Live again");
  assert.equal(word("waiting_game", "", { round: "Runde" }), "Runde {number} von Spiel {game}: wartet auf Senden");
});

test("a language whose title words go lower case in a sentence", () => {
  setWords({ correction_waiting_game: "Correction de la {round} {number} de la partie {game} : en attente d’envoi" });
  assert.equal(inSentence("Manche"), "manche");
  assert.equal(describe({ ...entry, word: "Manche", correction: true }, true),
               "Correction de la manche 3 de la partie 7 : en attente d’envoi");
  setWords({});
});
