"""Sentences about a round in the reader's language: written whole for the engine's own words
for a round ("Round" on a ladder, "Deal"), whose gender the words around them agree with
("la donne 1 est enregistrée"); and, for a house rule set's own word ("Tour", "Juego", both
masculine), in a form in which nothing around the word has to agree with it."""

from __future__ import annotations

import html
import json
import re

import pytest
from babel.messages.pofile import read_po

from conftest import CLUB_KEY
from factories import HTMX, accepted, new_game, round_form, text
from test_glossary import ROUND, TRANSLATIONS
from test_languages import script_words

from scorekeeper.rules import PRESETS, ruleset_document
from scorekeeper.web import languages

FRENCH = {"Accept-Language": "fr"}
SPANISH = {"Accept-Language": "es"}
NAMES = ("Ann", "Ben", "Cat")
#: Words that agree with a feminine round word, around its blank: the articles and
#: demonstratives before it, the participles after it, the pronouns that stand for it.
FEMININE = {
    "fr": re.compile(r"\b(?:la|une|aucune|cette|celle|dernière)\b|\w+ée\b", re.IGNORECASE),
    "es": re.compile(r"\b(?:la|una|ninguna|esa|esta|última)\s+(?:%\(round\)s|\{round\}|juego)|"
                     r"\w+(?:ada|ida)\b|\b(?:sola|anótala|corregirla)\b", re.IGNORECASE),
}


def house_game(web, word: str) -> int:
    """A game of a house rule set: Liverpool's deals, with the table's own word for a deal."""
    document = ruleset_document(PRESETS["liverpool"]) | {"name": f"Liverpool ({word})", "stage_name": word}
    made = web.post("/api/rulesets", json=document, headers={"Authorization": f"Bearer {CLUB_KEY}"})
    assert made.status_code in (200, 201), made.text
    return new_game(web, NAMES, rules=made.json["key"])


def one_round(web, game_id: int, headers: dict) -> str:
    """The words a reader is shown after a first round is saved: the flash, the board."""
    saved = web.post(f"/games/{game_id}/rounds/new", headers={**HTMX, **headers},
                     data=round_form(1, went_out=0, points={1: "5", 2: "10"}, save="1"))
    return text(accepted(web, game_id, saved))


@pytest.mark.parametrize("language, word, headers", [("fr", "Tour", FRENCH), ("es", "Juego", SPANISH)])
def test_a_masculine_word_of_the_tables_own_is_framed_by_no_feminine_word(web, language, word, headers):
    game = house_game(web, word)
    lower = word.lower()
    screen = web.get(f"/games/{game}/rounds/new", headers=headers)
    assert screen.status_code == 200 and "data-own-word" in screen.text
    said = text(screen)
    title = {"fr": "Enregistrer : tour 1", "es": "Anotar juego 1"}[language]
    assert title in said
    board = one_round(web, game, headers)
    assert {"fr": "C’est enregistré : Tour 1.", "es": "Se guardó Juego 1."}[language] in board
    delete = text(web.get(f"/games/{game}/rounds/1/delete", headers=headers))
    assert {"fr": "Supprimer : tour 1 ?", "es": "¿Borrar juego 1?"}[language] in delete
    said += " " + delete
    agreeing = rf"\b(?:la|une|aucune|cette|celle|una|ninguna|esa|esta)\s+{word}\b|\b{word}\s+\d+\s+(?:\w+\s+)?\w+(?:ée|ada|ida)\b"
    assert re.findall(agreeing, said + " " + board, re.IGNORECASE) == []
    # The phone's own sentences: the round's word is the table's, and its words are given for it.
    data = json.loads(html.unescape(re.search(r"data-replay='([^']+)'", screen.text).group(1)))
    assert data["round_own"] is True and data["round_word"] == word
    words = script_words(screen)
    for key in ("sent", "record", "taken_back", "undo_waiting", "not_sent"):
        assert not FEMININE[language].search(words[key]["own"]), words[key]["own"]


@pytest.mark.parametrize("language, headers, record, saved", [
    ("fr", FRENCH, "Enregistrer la donne 1", "Donne 1 enregistrée."),
    ("es", SPANISH, "Anotar mano 1", "Mano 1 guardada."),
])
def test_a_presets_round_reads_as_ever(web, language, headers, record, saved):
    game = new_game(web, NAMES, rules="liverpool")
    screen = web.get(f"/games/{game}/rounds/new", headers=headers)
    assert record in text(screen) and "data-own-word" not in screen.text
    assert saved in one_round(web, game, headers)
    delete = text(web.get(f"/games/{game}/rounds/1/delete", headers=headers))
    assert {"fr": "Supprimer la donne 1 ?", "es": "¿Borrar la mano 1?"}[language] in delete
    words = script_words(screen)
    assert words["sent"][""] == {"fr": "{round} {number} envoyée.", "es": "{round} {number} enviada."}[language]


@pytest.mark.parametrize("language", ["es", "fr"])
def test_every_sentence_about_a_tables_own_round_word_agrees_with_no_gender(language):
    """Each sentence written for a table's own word (the catalogue's OWN_ROUND context): no
    article, demonstrative or participle agrees with the word in its blank."""
    frames = {"fr": rf"\b(?:au|du|le|la|un|une|aucun|aucune|ce|cet|cette|celle)\s+{ROUND}|\b[ld]’{ROUND}|"
                    rf"(?:^|[…:;]\s*){ROUND}\s+%\(number\)s\s+(?:est\s+|a\s+été\s+|déjà\s+)*\w+(?:é|ée|és|ées)\b",
              "es": rf"\b(?:el|la|un|una|ningún|ninguna|este|esta|ese|esa)\s+{ROUND}|"
                    rf"(?:^|[…:;]\s*){ROUND}\s+%\(number\)s\s+(?:está\s+|ya\s+)*\w+(?:ado|ada|ido|ida)\b"}[language]
    with open(TRANSLATIONS / language / "LC_MESSAGES" / "messages.po", "rb") as po:
        own = [message.string for message in read_po(po) if message.context == languages.OWN_ROUND]
    assert len(own) >= 40
    assert [said for said in own if re.search(frames, said)] == []


def test_the_delete_page_and_the_scoreboards_title_say_the_games_word_for_a_round(web):
    game = new_game(web, NAMES, rules="liverpool")
    one_round(web, game, {})
    assert "Liverpool Rummy: deal 2" in text(web.get(f"/games/{game}"))
    delete = text(web.get(f"/games/{game}/rounds/1/delete"))
    assert "Delete deal 1?" in delete and "Yes, delete deal 1" in delete and "round 1" not in delete


def test_the_boards_line_about_the_last_round_is_written_as_the_language_writes_it(web):
    """The line under the board ("Round 1: Ann went out…") is a sentence of the catalogue, not
    the word and the number glued in English: French puts a narrow space before its colon."""
    game = new_game(web, NAMES, rules="classic")
    french = one_round(web, game, FRENCH)
    english = text(web.get(f"/games/{game}"))
    assert "Deal 1:" in english
    assert re.search(r"Donne 1\s:", french) and not re.search(r"Donne 1:", french), french
