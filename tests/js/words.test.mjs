// The phone's script in the page's language (static/js/banner.js's word): the words a page
// gives (its #words, from scorekeeper/web/scriptwords.py) are the ones said, with their blanks
// filled; a page that gives none gets each module's English. Run: node --test tests/js/
import assert from "node:assert/strict";
import { test } from "node:test";

import { elide, inSentence, roundWord, setWords, stageWord, word } from "../../static/js/banner.js";
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

test("a sentence naming a stage is the page's whole one for the game's stage word", () => {
  setWords({ made: { "": "{name} teki: {stage}", Level: "{name} teki tason", Phase: "{name} teki vaiheen" } });
  assert.equal(stageWord("made", "Phase", "{name} made the {stage}", { name: "Ann", stage: "vaihe" }), "Ann teki vaiheen");
  assert.equal(stageWord("made", "Level", "{name} made the {stage}", { name: "Ann", stage: "taso" }), "Ann teki tason");
  // A table's own word (no kind), and a kind the page gives no sentence for, go into the blank.
  assert.equal(stageWord("made", null, "{name} made the {stage}", { name: "Ann", stage: "kerros" }), "Ann teki: kerros");
  assert.equal(stageWord("made", "Deal", "{name} made the {stage}", { name: "Ann", stage: "jako" }), "Ann teki: jako");
  // Without words from the page: the module's English.
  setWords({});
  assert.equal(stageWord("made", "Level", "{name} made the {stage}", { name: "Ann", stage: "level" }), "Ann made the level");
});

test("a sentence about a round is the page's own-word one where the round's word is the table's own", () => {
  setWords({
    sent: { "": "{round} {number} enviada.", own: "Envío hecho: {round} {number}." },
    correction_waiting_game: { "": "Correction de la {round} {number} de la partie {game} : en attente d’envoi",
                               own: "Correction ({round} {number}) de la partie {game} : en attente d’envoi" },
  });
  // The engine's own word ("Round", "Deal"): the sentence written for it, agreeing with it.
  assert.equal(roundWord("sent", false, "{round} {number} sent.", { round: "Mano", number: 3 }), "Mano 3 enviada.");
  // A table's own word ("juego", masculine): the sentence in which nothing agrees with it.
  assert.equal(roundWord("sent", true, "{round} {number} sent.", { round: "Juego", number: 3 }), "Envío hecho: Juego 3.");
  assert.equal(describe({ ...entry, word: "Tour", own: true, correction: true }, true),
               "Correction (tour 3) de la partie 7 : en attente d’envoi");
  assert.equal(describe({ ...entry, word: "Manche", correction: true }, true),
               "Correction de la manche 3 de la partie 7 : en attente d’envoi");
  // A page that gives the sentence as one string, and a page that gives none.
  setWords({ sent: "{round} {number} enviada." });
  assert.equal(roundWord("sent", true, "{round} {number} sent.", { round: "Mano", number: 3 }), "Mano 3 enviada.");
  setWords({});
  assert.equal(roundWord("sent", true, "{round} {number} sent.", { round: "Turn", number: 3 }), "Turn 3 sent.");
});

test("a French page elides de and que before a name that starts with a vowel sound", () => {
  setWords({ elides: true, hand: "Main de {name}", more: "plus que {name}" });
  assert.equal(word("hand", "", { name: "Ann" }), "Main d’Ann");
  assert.equal(word("hand", "", { name: "Hélène" }), "Main d’Hélène");
  assert.equal(word("more", "", { name: "Éric" }), "plus qu’Éric");
  assert.equal(word("hand", "", { name: "Yann" }), "Main de Yann");
  assert.equal(word("hand", "", { name: "Ben" }), "Main de Ben");
  assert.equal(elide("Main de A K", { name: "A K" }), "Main de A K");
  // Elsewhere nothing is elided: a page whose language does not.
  setWords({ hand: "Main de {name}" });
  assert.equal(word("hand", "", { name: "Ann" }), "Main de Ann");
  setWords({});
});
