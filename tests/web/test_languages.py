"""Every table in its own language: the language a page is in (a person's choice, else the
browser's), the language page, the cards in the table's letters, caching that never serves one
language for another, and the shipped catalogues complete."""

from __future__ import annotations

import html
import io
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po

from conftest import CLUB_KEY, form_token
from factories import HTMX, family_liverpool, new_game, post_round, round_form, save_round, text
from test_house_rules_screens import form_of, press

from scorekeeper.rules import BALMORAL, ruleset_document
from scorekeeper.web import languages
from scorekeeper.web.presenters import completed_words

ROOT = Path(__file__).resolve().parents[2]
TRANSLATIONS = ROOT / "scorekeeper" / "web" / "translations"
SHIPPED = ["de", "es", "fr", "fi"]
GERMAN = {"Accept-Language": "de-DE,de;q=0.9,en;q=0.5"}


def html_lang(response) -> str:
    return re.search(r'<html lang="([^"]+)">', response.text).group(1)


def stored_hands(web, game_id: int, number: int) -> dict[str, str]:
    return web.get(f"/api/games/{game_id}").json["rounds"][number - 1]["hands"]


# ---------------------------------------------------------------- the language of a page


def test_a_german_browser_reads_the_home_page_in_german(web, balmoral):
    page = web.get("/", headers=GERMAN)
    assert html_lang(page) == "de"
    words = text(page)
    assert "Neues Spiel beginnen" in words and "Laufend" in words
    assert "Balmoral-Rommé · Runde 1" in words
    assert "Start a new game" not in words


def test_a_german_browser_reads_the_new_game_page_in_german(web):
    page = web.get("/games/new", headers=GERMAN)
    words = text(page)
    assert html_lang(page) == "de"
    assert "Spieler, im Uhrzeigersinn vom ersten Platz an" in words and "Spiel beginnen" in words
    # The presets' names and contracts, the dealer rules and the summary in German.
    assert "Balmoral-Rommé" in words and "Liverpool-Rommé" in words
    assert "Kontrakte: erst 3 Sätze aus 3, zuletzt 1 Satz aus 3 und 1 Folge aus 7." in words
    assert "Wer die Runde gewinnt, gibt als Nächstes" in words


def test_a_german_browser_reads_the_scoreboard_and_the_round_screen_in_german(web, balmoral):
    save_round(web, balmoral, 1, went_out=1, hands={0: "A K 7 7", 2: "10 10 Q 2"}, points={3: "5"})
    words = text(web.get(f"/games/{balmoral}", headers=GERMAN))
    assert "Runde 2" in words and "Ben ist raus." in words and "Ben übernimmt die Führung." in words
    assert "Stufe 2: 1 Satz aus 3 und 1 Folge aus 4" in words and "Runde 2 eintragen" in words
    screen = web.get(f"/games/{balmoral}/rounds/new", headers=GERMAN)
    assert html_lang(screen) == "de"
    words = text(screen)
    assert "Runde 2 eintragen" in words and "Runde 2 speichern" in words and "Keine Karten" in words
    # The keypad in the German table's letters: König, Dame, Bube, Ass.
    keys = dict(re.findall(r'data-rank="([^"]+)" data-label="([^"]+)"', screen.text))
    assert (keys["K"], keys["Q"], keys["J"], keys["A"]) == ("K", "D", "B", "A")
    assert 'aria-label="Add' not in screen.text and "D zu Ben hinzufügen" not in words


def test_a_german_browser_reads_the_history_and_its_bin_in_german(web, balmoral):
    save_round(web, balmoral, 1, went_out=1, hands={0: "A K 7 7", 2: "10 10 Q 2"}, points={3: "5"})
    page = web.get("/history", headers=GERMAN)
    assert html_lang(page) == "de"
    words = text(page)
    assert "Verlauf" in words and "Alle Regelwerke" in words and "1 Spiel, die neuesten zuerst." in words
    assert "Balmoral-Rommé · 1 Runde" in words and "Laufend, Runde 2: Ben führt mit 0" in words
    assert "newest first" not in words and "In progress" not in words
    refused = text(web.get("/history?player=x", headers=GERMAN))
    assert "„x“ ist keine Spielernummer." in refused and "Alle Spiele anzeigen" in refused
    web.post(f"/games/{balmoral}/delete")
    deleted = web.get(f"/history?deleted={balmoral}", headers=GERMAN)
    assert f"Spiel {balmoral} wurde gelöscht." in text(deleted) and "Rückgängig" in text(deleted)
    words = text(web.get("/history/deleted", headers=GERMAN))
    assert "Gelöschte Spiele" in words and f"Spiel {balmoral} wiederherstellen" in words


def test_a_german_browser_reads_the_error_and_offline_pages_in_german(web):
    missing = web.get("/games/999999", headers=GERMAN)
    assert missing.status_code == 404 and html_lang(missing) == "de"
    assert "Nicht gefunden" in text(missing) and "Zurück zu den Spielen" in text(missing)
    offline = web.get("/offline", headers=GERMAN)
    assert html_lang(offline) == "de"
    assert "Offline, neuer Versuch…" in text(offline) and "Jetzt noch einmal versuchen" in text(offline)


def test_a_german_browser_reads_the_share_page_in_german(web, balmoral):
    page = web.get(f"/games/{balmoral}/share", headers=GERMAN)
    assert html_lang(page) == "de"
    words = text(page)
    assert "Dieses Spiel teilen" in words and "Live zuschauen" in words and "Platzlinks erstellen" in words
    assert "Zurück zum Punktestand" in words and "Watch live" not in words


def test_a_german_browser_reads_a_games_story_in_german(web, balmoral):
    save_round(web, balmoral, 1, went_out=1, hands={0: "A K 7 7", 2: "10 10 Q 2"}, points={3: "5"})
    page = web.get(f"/games/{balmoral}/story", headers=GERMAN)
    assert html_lang(page) == "de"
    words = text(page)
    assert f"Spiel {balmoral}: Balmoral-Rommé" in words and "Laufend: als Nächstes Runde 2." in words
    assert "Runde für Runde" in words and "Runde 1 · Ann gab 13 Karten · Ben ist raus" in words
    assert "Zwischensummen nach jeder Runde" in words and "Dieses Spiel löschen…" in words
    assert "Round by round" not in words and "went out" not in words
    # The charts' words for a screen reader too.
    assert "Zwischensummen über 1 Runde; Stand nach Runde 1: Ann 39, Ben 0, Cat 32, Dan 5." in page.text
    assert "Geschaffte Kontrakte" in page.text and "Running totals over" not in page.text


def test_a_german_browser_reads_the_players_and_the_ratings_in_german(web, balmoral):
    page = web.get("/players/", headers=GERMAN)
    assert html_lang(page) == "de"
    words = text(page)
    assert "Spieler hinzufügen" in words and "Ann 1 Spiel" in words and "Add a player" not in words
    ratings = web.get("/ratings", headers=GERMAN)
    assert html_lang(ratings) == "de"
    words = text(ratings)
    assert "Eine Wertung sagt, wie gut jemand spielt" in words and "Zeitraum" in words and "Dieses Jahr" in words
    assert "Noch kein beendetes Spiel: die Wertung beginnt mit dem ersten beendeten Spiel." in words
    refused = text(web.get("/ratings?period=x", headers=GERMAN))
    assert "Alle Spiele, gesamte Zeit" in refused


def test_a_german_browser_reads_a_players_page_in_german(app, web, balmoral):
    from factories import player_id

    save_round(web, balmoral, 1, went_out=1, hands={0: "A K 7 7", 2: "10 10 Q 2"}, points={3: "5"})
    page = web.get(f"/players/{player_id(app, 'Ben')}", headers=GERMAN)
    assert html_lang(page) == "de"
    words = text(page)
    assert "1 Spiel (1 laufend)" in words and "Gewonnene Spiele" in words and "Direkter Vergleich" in words
    assert "Die Leiter von Balmoral-Rommé" in words and "Laufend mit 0" in words
    assert "Head to head" not in words and "Recent games" not in words


def seat_phone(app, web, game_id: int, seat: int):
    """The phone of the player in ``seat``, holding the seat link the scorekeeper made."""
    web.post(f"/games/{game_id}/seat-links")
    keys = re.findall(r'href="http[^"]*/games/\d+/seat#key=([^"]+)"', web.get(f"/games/{game_id}/share").get_data(as_text=True))
    phone = app.test_client()
    assert phone.post(f"/games/{game_id}/seat", data={"key": keys[seat]}).status_code == 303
    return phone


def test_a_german_player_reads_their_own_hand_page_in_german(app, web, balmoral):
    cat = seat_phone(app, web, balmoral, 2)
    page = cat.get(f"/games/{balmoral}/hand", headers=GERMAN)
    assert html_lang(page) == "de"
    words = text(page)
    assert "Cat: Runde 1" in words and "An den Schreiber senden" in words and "Noch nicht gesendet" in words
    assert "Send to the scorekeeper" not in words and "Not sent yet" not in words
    # The keypad in the German letters, its words for the script in German too.
    keys = dict(re.findall(r'data-rank="([^"]+)" data-label="([^"]+)"', page.text))
    assert (keys["Q"], keys["J"]) == ("D", "B")
    said = json.loads(html.unescape(re.search(r"data-words='([^']+)'", page.text).group(1)))
    assert said["keypad"] == "Karten für {name}" and said["empty"] == "tippe die Karten auf deiner Hand"
    save_round(web, balmoral, 1, went_out=0, hands={1: "5", 2: "K Q", 3: "3"})
    words = text(cat.get(f"/games/{balmoral}/hand", headers=GERMAN))
    assert "Runde 1 gespeichert: deine Hand K D (20)." in words and "Das ist nicht meine Hand" in words
    cat.post(f"/games/{balmoral}/hand/flag", data={"number": "1"})
    assert "Du hast dem Schreiber gemeldet, dass Runde 1 für dich falsch ist." in text(cat.get(f"/games/{balmoral}/hand", headers=GERMAN))
    board = text(web.get(f"/games/{balmoral}", headers=GERMAN))
    assert "Cat sagt, Runde 1 ist falsch." in board and "Verwerfen" in board
    dismissed = web.post(f"/games/{balmoral}/flags/dismiss", data={"number": "1", "seat": "2"}, headers=GERMAN,
                         follow_redirects=True)
    assert "Meldung von Cat zu Runde 1 verworfen" in text(dismissed)
    # What a seat link may not do, said in German.
    refused = cat.get(f"/games/{balmoral}/rounds/new", headers=GERMAN)
    assert refused.status_code == 403 and "Dieses Telefon hat den Platzlink von Cat" in text(refused)
    french = text(cat.get(f"/games/{balmoral}/hand", headers={"Accept-Language": "fr"}))
    assert "Cat : manche 2" in french and "Envoyer au marqueur" in french and "Send to" not in french


def test_the_pages_that_take_a_key_are_in_the_readers_language(app, web, balmoral):
    stranger = app.test_client()
    join = stranger.get(f"/games/{balmoral}/join", headers=GERMAN)
    assert html_lang(join) == "de"
    words = text(join)
    assert f"Spiel {balmoral} schreiben" in words and "Bearbeitungsschlüssel" in words
    assert "(der Teil des Links nach #key=" in words and "Dem Spiel nur zuschauen" in words
    refused = text(stranger.post(f"/games/{balmoral}/join", data={"key": "x"}, headers=GERMAN))
    assert "Dieser Bearbeitungslink funktioniert nicht mehr" in refused
    seat = text(stranger.get(f"/games/{balmoral}/seat", headers={"Accept-Language": "es"}))
    assert "Anota tus propias cartas" in seat and "Anotar mis cartas en este teléfono" in seat
    refused = text(stranger.post(f"/games/{balmoral}/seat", data={"key": "x"}, headers={"Accept-Language": "fi"}))
    assert "Tämä paikkalinkki ei enää toimi" in refused
    club = text(stranger.get("/club", headers=GERMAN))
    assert "Der Clubverwalter" in club and "Dieses Telefon zum Clubverwalter machen" in club
    assert "Clubschlüssel" in club and "Make this phone the keeper" not in club
    assert "Dieses Telefon ist der Clubverwalter" in text(web.get("/club", headers=GERMAN))
    # The keeper's pages refuse another phone in its language, naming what only the keeper may do.
    refused = stranger.get("/import", headers=GERMAN)
    assert refused.status_code == 403
    assert "Nur der Clubverwalter kann Dateien importieren und Sicherungen herunterladen" in text(refused)


def test_deleting_a_game_and_a_round_asks_in_the_readers_language(web, balmoral):
    save_round(web, balmoral, 1, went_out=1, hands={0: "A K 7 7", 2: "10 10 Q 2"}, points={3: "5"})
    words = text(web.get(f"/games/{balmoral}/delete", headers=GERMAN))
    assert f"Spiel {balmoral} löschen?" in words and f"Ja, Spiel {balmoral} löschen" in words
    assert "Nein, behalten" in words and "Seine Spieldatei herunterladen" in words
    words = text(web.get(f"/games/{balmoral}/rounds/1/delete", headers=GERMAN))
    assert "Runde 1 löschen?" in words and "Ben ist raus; Strafpunkte Ann 39, Ben 0, Cat 32, Dan 5." in words
    assert "Ja, Runde 1 löschen" in words and "Yes, delete" not in words
    french = text(web.get(f"/games/{balmoral}/rounds/1/delete", headers={"Accept-Language": "fr"}))
    assert "Supprimer la manche 1 ?" in french and "Non, la garder" in french


def test_a_round_sent_twice_differently_is_compared_in_the_readers_language(web, balmoral):
    save_round(web, balmoral, 1, went_out=1, hands={0: "A K 7 7", 2: "10 10 Q 2"}, points={3: "5"})
    answer = post_round(web, balmoral, 1, went_out=1, hands={0: "7", 2: "10 10 Q 2"}, points={3: "5"},
                        headers={**HTMX, **GERMAN})
    assert answer.status_code == 409
    words = text(answer)
    assert "Runde 1: zwei Fassungen" in words and "Runde 1 wie gespeichert behalten" in words
    assert "Gespeichert" in words and "Dieses Telefons" in words and "ist raus" in words
    assert "two versions" not in words and "went out" not in words


def test_the_import_page_and_a_games_length_are_in_the_readers_language(app, web, four):
    words = text(web.get("/import", headers=GERMAN))
    assert "Eine Sicherung herunterladen" in words and "Eine Spieldatei oder eine Sicherung (.json)" in words
    assert "Download the backup" not in words
    refused = text(web.post("/import", data={}, headers=GERMAN))
    assert "Wähle zuerst eine Datei." in refused
    history = text(web.get("/history", headers=GERMAN))
    assert re.search(r"\d+ (Std\. \d\d )?Min\.", history) and " min" not in history


def imported(web, doc, headers=None):
    """The import page after a game file (or a backup) is posted to it."""
    body = io.BytesIO(json.dumps(doc).encode())
    return web.post("/import", data={"file": (body, "game.json")}, content_type="multipart/form-data", headers=headers)


def game_file(**fields) -> dict:
    rounds = [{"went_out": "Ann", "hands": {"Ben": "K 7", "Cat": "5"}}]
    return {"format": "scorekeeper-game/2", "rules": "balmoral", "players": ["Ann", "Ben", "Cat"],
            "first_dealer": "Ann", "rounds": rounds, **fields}


def test_a_refused_game_file_is_refused_in_the_readers_language(web):
    """Why a file is refused, on the import page, in the reader's words: its fields, players
    and cards named as the file names them. The API says it in English (its answers do not vary)."""
    bad_card = game_file(rounds=[{"went_out": "Ann", "hands": {"Ben": "K 7", "Cat": "5"}},
                                 {"went_out": "Ben", "hands": {"Ann": "Q X", "Cat": "5"}}])
    refused = imported(web, bad_card, GERMAN)
    assert refused.status_code == 422
    assert ("game.json: abgelehnt: Runde 2: Ann: „X“ ist keine Karte (Karten sind A 2 3 4 5 6 7 8 9 10 J Q K und "
            "JK für einen Joker) Nichts wurde gespeichert.") in text(refused)
    french = text(imported(web, bad_card, {"Accept-Language": "fr"}))
    assert "game.json : refusé : Manche 2 : Ann : « X » n’est pas une carte" in french
    english = text(imported(web, bad_card))
    assert 'game.json: refused: Round 2: Ann: "X" is not a card (cards are A 2 3 4 5 6 7 8 9 10 J Q K and JK' in english
    # The engine's reasons, each with its round and player; a rule set's field as the document names it.
    words = text(imported(web, game_file(rules="bridge"), GERMAN))
    assert "abgelehnt: unbekanntes Regelwerk „bridge“ (bekannt: balmoral, classic, liverpool, shanghai, phase10)" in words
    nobody = game_file(rounds=[{"went_out": "Zed", "hands": {"Ben": "K 7", "Cat": "5"}}])
    words = text(imported(web, {"format": "scorekeeper-backup/1", "games": [game_file(), nobody]}, GERMAN))
    assert "abgelehnt: Spiel 2 der Sicherung: Runde 1: „Zed“ sitzt nicht am Tisch und kann also nicht raus sein" in words
    assert "Manche 1 : « Zed » n’est pas à la table" in text(imported(web, nobody, {"Accept-Language": "fr"}))
    document = {**ruleset_document(BALMORAL), "name": "Ours", "winner": "q", "deck": "tarot"}
    words = text(imported(web, game_file(rules=document), {"Accept-Language": "es"}))
    assert ('rechazado: rules: deck: debe ser "standard" o "phase10", no \'tarot\'; winner: debe ser "lowest" o '
            '"lowest-finisher", no \'q\'') in words
    words = text(imported(web, game_file(started_at="yesterday"), {"Accept-Language": "fi"}))
    assert "hylätty: started_at ”yesterday” ei ole ISO 8601 -aika" in words
    api = web.post("/api/import", json=bad_card, headers={"Authorization": f"Bearer {CLUB_KEY}", **GERMAN})
    assert api.status_code == 422
    assert api.get_json()["error"]["message"].startswith('Round 2: Ann: "X" is not a card (cards are A 2 3')


def test_a_file_that_is_no_json_says_where_in_the_readers_language(web):
    def posted(raw: bytes, headers: dict) -> str:
        body = io.BytesIO(raw)
        return text(web.post("/import", data={"file": (body, "game.json")}, content_type="multipart/form-data",
                             headers=headers))

    broken = b'{\n  "format": "scorekeeper-game/1",\n  "rules" "balmoral"}'
    assert "game.json: kein JSON-Dokument (etwas stimmt nicht in Zeile 3, Spalte 11)" in posted(broken, GERMAN)
    assert "game.json : pas un document JSON (quelque chose ne va pas ligne 3, colonne 11)" in posted(
        broken, {"Accept-Language": "fr"})
    assert "(anidado a demasiada profundidad para leerlo)" in posted(b"[" * 100000, {"Accept-Language": "es"})


def test_a_file_too_large_to_import_at_once_is_refused_in_the_readers_numbers(app, web):
    app.config.update(IMPORT_MAX_GAMES=1000)
    backup = {"format": "scorekeeper-backup/1", "games": [{}] * 1001}
    refused = imported(web, backup, GERMAN)
    assert refused.status_code == 413
    assert ("game.json: Die Datei enthält 1.001 Spiele; der Server importiert höchstens 1.000 Spiele auf einmal"
            in text(refused))
    french = text(imported(web, backup, {"Accept-Language": "fr"}))
    assert "game.json : Le fichier contient 1 001 parties ; le serveur en importe au plus 1 000 parties" in french
    assert "The file holds 1,001 games; the server imports at most 1,000 games at once" in text(imported(web, backup))
    app.config.update(IMPORT_MAX_ROUNDS=1)
    two_rounds = game_file(rounds=[{"went_out": "Ann", "hands": {"Ben": "K 7", "Cat": "5"}}] * 2)
    refused = imported(web, two_rounds, GERMAN)
    assert refused.status_code == 413
    assert "Die Datei enthält 2 Runden; der Server importiert höchstens 1 Runde auf einmal" in text(refused)


def test_flashed_words_carry_names_in_the_readers_language(app, web, balmoral):
    made = web.post(f"/games/{balmoral}/seat-links", headers=GERMAN, follow_redirects=True)
    assert "Platzlinks für 4 Spieler erstellt" in text(made)
    web.post("/players/", data={"name": "Eve"})
    taken = text(web.post("/players/", data={"name": "eve"}, headers=GERMAN))
    assert "„Eve“ steht schon in der Spielerliste" in taken
    # A round saved on a version another phone has moved past: refused in the reader's words.
    save_round(web, balmoral, 1, went_out=1, hands={0: "A K 7 7", 2: "10 10 Q 2"}, points={3: "5"})
    stale = web.post(f"/games/{balmoral}/rounds/1/edit", headers={**HTMX, **GERMAN},
                     data=round_form(1, went_out=1, hands={0: "7", 2: "Q"}, points={3: "5"}, save="1", version="1"))
    assert stale.status_code == 409 and "Dieses Spiel wurde auf einem anderen Telefon geändert" in text(stale)


def script_words(response) -> dict | None:
    block = re.search(r'<script type="application/json" id="words">([^<]*)</script>', response.text)
    return json.loads(block.group(1)) if block else None


def test_the_phones_script_is_given_its_words_in_the_pages_language(web, balmoral):
    # English pages give none: each module of the script has its own English.
    assert script_words(web.get(f"/games/{balmoral}")) is None
    german = script_words(web.get(f"/games/{balmoral}", headers=GERMAN))
    assert german["live"] == "Wieder verbunden" and german["capitals"] is True
    assert german["waiting_game"][""] == "{round} {number} von Spiel {game}: wartet auf Senden"
    assert german["sent_by"] == "gesendet von {name}: {hand}" and german["dealt"] == "<strong>{name}</strong> gab"
    french = script_words(web.get("/offline", headers={"Accept-Language": "fr"}))
    assert french["capitals"] is False and french["offline"] == "Hors ligne\u202f: reconnexion"
    assert french["elides"] is True and german["elides"] is False
    # Every word has its blanks as the script fills them, none left in the catalogue's form.
    said = [said for said in german.values() if isinstance(said, str)]
    said += [whole for kinds in german.values() if isinstance(kinds, dict) for whole in kinds.values()]
    assert not [text for text in said if "%(" in text]
    # The round screen's game data, which the phone's own next round is drawn from, in German too.
    screen = web.get(f"/games/{balmoral}/rounds/new", headers=GERMAN).text
    data = json.loads(html.unescape(re.search(r"data-replay='([^']+)'", screen).group(1)))
    assert data["round_word"] == "Runde" and data["stage_word"] == "Stufe" and data["stage_kind"] == "Level"
    assert data["stages"][0]["contract"] == "3 Sätze aus 3"


@pytest.mark.parametrize("language, made, completes, level", [
    ("fi", {"Level": "{name} teki tason", "Phase": "{name} teki vaiheen"},
     {"Level": "{name} tekee tason {number}", "Phase": "{name} tekee vaiheen {number}"},
     {"Level": "taso {number}", "Phase": "vaihe {number}"}),
    ("fr", {"Level": "{name} a réussi le niveau", "Phase": "{name} a réussi la phase"},
     {"Level": "{name} réussit le niveau {number}", "Phase": "{name} réussit la phase {number}"},
     {"Level": "niveau {number}", "Phase": "phase {number}"}),
    ("es", {"Level": "{name} cumplió el nivel", "Phase": "{name} cumplió la fase"},
     {"Level": "{name} completa el nivel {number}", "Phase": "{name} completa la fase {number}"},
     {"Level": "nivel {number}", "Phase": "fase {number}"}),
])
def test_the_phones_sentences_naming_a_stage_are_whole_for_each_stage_word(web, language, made, completes, level):
    words = script_words(web.get("/offline", headers={"Accept-Language": language}))
    for key, whole in (("made", made), ("completes", completes), ("level", level)):
        # Whole for the engine's words; under "" the sentence a table's own word goes into.
        assert {kind: words[key][kind] for kind in whole} == whole
        assert "{stage}" in words[key][""]


def test_the_api_answers_in_english_whatever_the_browsers_language(web):
    answer = web.get("/api/ratings?rules=nope", headers=GERMAN)
    assert answer.status_code >= 400 and "is not a rule set any game was played by" in answer.get_data(as_text=True)


def test_french_and_finnish_keys_are_their_tables_letters(web, balmoral):
    for lang, letters in (("fr", ("R", "D", "V", "A")), ("fi", ("K", "Q", "J", "A")), ("es", ("K", "Q", "J", "A"))):
        screen = web.get(f"/games/{balmoral}/rounds/new", headers={"Accept-Language": lang})
        keys = dict(re.findall(r'data-rank="([^"]+)" data-label="([^"]+)"', screen.text))
        assert (keys["K"], keys["Q"], keys["J"], keys["A"]) == letters, lang


def test_english_is_the_default_and_an_unshipped_language_falls_back_to_it(web):
    assert html_lang(web.get("/")) == "en"
    assert html_lang(web.get("/", headers={"Accept-Language": "pt-BR, ja"})) == "en"
    assert html_lang(web.get("/", headers={"Accept-Language": "pt-BR, fi;q=0.3"})) == "fi"


def test_a_persons_choice_beats_the_browsers_language(web):
    web.set_cookie(languages.COOKIE, "es")
    page = web.get("/", headers=GERMAN)
    assert html_lang(page) == "es" and "Empezar una partida nueva" in text(page)


def test_a_cookie_naming_no_shipped_language_is_ignored(web):
    web.set_cookie(languages.COOKIE, "xx")
    assert html_lang(web.get("/", headers=GERMAN)) == "de"


def test_a_house_rule_set_reads_as_its_author_wrote_it(web):
    document = family_liverpool()
    made = web.post("/api/rulesets", json=document, headers={"Authorization": f"Bearer {CLUB_KEY}"})
    assert made.status_code in (200, 201), made.text
    words = text(web.get("/games/new", headers=GERMAN))
    assert "Family Liverpool" in words and "Hausregeln" in words and "Went out in one go" in words
    # Its own contracts are the author's, word for word, inside the German sentence; the first,
    # a preset's that the copy kept, reads in German as the preset does.
    assert "Kontrakte: erst 2 Sätze aus 3, zuletzt 3 runs of 4 and 1 set of 2." in words



def test_a_german_browser_reads_the_house_rules_and_their_editor_in_german(web):
    words = text(web.get("/rules", headers=GERMAN))
    assert "Jeder Tisch spielt ein bisschen anders." in words and "Die eigenen dieses Tisches" in words
    assert "Liverpool-Rommé" in words and "2–10 Augenwert" in words and "face value" not in words
    words = text(web.get("/rules/phase10", headers=GERMAN))
    assert "Wie es weitergeht" in words and "Phasen" in words and "Das Phase-10-Kartenspiel" in words
    assert "Aussetzen 15" in words and "Bis 6 Spieler: 1 Kartenspiel." in words and "How players move on" not in words
    editor = web.get("/rules/liverpool/copy", headers=GERMAN)
    words = text(editor)
    assert "Liverpool-Rommé kopieren und ändern" in words and "Durchgang hinzufügen" in words
    assert "Standard (A K D B 10 9 8 7 6 5 4 3 2)" in words and "Wer gibt die nächste Runde?" in words
    # The copy is the table's own, in its words: the preset's name, word and contracts in German.
    fields = form_of(editor)
    assert fields["name"] == "Liverpool-Rommé (Haus)" and fields["stage_name"] == "Durchgang"
    assert fields["stages-0-contract"] == "2 Sätze aus 3" and fields["bonuses-0-label"] == "Perfekt abgehoben"


def test_the_editor_names_each_field_bonus_and_stage_in_the_readers_language(web):
    url = "/rules/liverpool/copy"
    refused = press(web, url, web.get(url, headers=GERMAN), "save", headers=GERMAN, **{
        "name": "", "stages-2-cards": "31", "values-0-value": "501", "bonuses-0-points": "0",
        "min_players": "5", "max_players": "4"})
    assert refused.status_code == 422
    words = text(refused)
    assert "Nichts wurde gespeichert: bring diese Punkte zuerst in Ordnung." in words
    assert "Der Name: ist leer, trag etwas ein (bis zu 60 Zeichen)" in words
    assert "Karten (Durchgang 3): muss eine ganze Zahl von 1 bis 30 sein, nicht 31" in words
    assert "der Wert von A: muss eine ganze Zahl von 0 bis 500 sein, nicht 501" in words
    assert "„Perfekt abgehoben“ bringt 0 Punkte" in words and "die Mindestzahl an Spielern (5) liegt über 4" in words
    taken = press(web, url, web.get(url, headers=GERMAN), "save", headers=GERMAN, name="liverpool rummy")
    assert "ein anderes Regelwerk heißt schon „liverpool rummy“ (als „Liverpool Rummy“)" in text(taken)


def test_a_csv_download_speaks_the_readers_language_and_the_game_file_does_not(web, balmoral):
    save_round(web, balmoral, 1, went_out=1, hands={0: "A K 7 7", 2: "10 10 Q 2"}, points={3: "5"})
    german = web.get(f"/games/{balmoral}.csv", headers=GERMAN).get_data(as_text=True).lstrip("\ufeff").splitlines()
    assert german[0].startswith('"Runde","Geber","Spieler","Karten","von Hand gezählt","Strafpunkte"')
    assert '"Ben",' in german[2] and '"ja"' in german[2]
    english = web.get(f"/games/{balmoral}.csv").get_data(as_text=True).lstrip("\ufeff").splitlines()
    assert english[0].startswith('"round","dealer","player","cards","counted_by_hand"')
    assert web.get(f"/games/{balmoral}.json", headers=GERMAN).get_data() == web.get(f"/games/{balmoral}.json").get_data()
    ratings = web.get("/ratings.csv", headers=GERMAN).get_data(as_text=True)
    assert ratings.startswith('"Platz","Spieler","Wertung","Spiele","Siege"')


# ---------------------------------------------------------------- the language page


def test_the_menu_links_to_the_language_page_with_each_language_named_in_itself(web):
    home = web.get("/", headers=GERMAN)
    assert 'href="/language"' in home.text and 'aria-label="Sprache: Deutsch"' in home.text
    page = web.get("/language", headers=GERMAN)
    for code, name in (("de", "Deutsch"), ("es", "Español"), ("fr", "Français"), ("fi", "Suomi"), ("en", "English")):
        assert f'name="lang" value="{code}" lang="{code}"' in page.text and f">{name}</button>" in page.text


def test_one_tap_keeps_the_choice_and_goes_back_to_the_page_it_came_from(client):
    page = client.get("/language", headers={"Referer": "http://localhost/games/new?like=3"})
    assert 'name="next" value="/games/new?like=3"' in page.text
    token = form_token(client, "/language")
    answer = client.post("/language", data={"csrf_token": token, "lang": "fi", "next": "/games/new?like=3"})
    assert answer.status_code == 303 and answer.headers["Location"] == "/games/new?like=3"
    cookie = answer.headers["Set-Cookie"]
    assert cookie.startswith("lang=fi;") and "SameSite=Lax" in cookie and "HttpOnly" in cookie
    assert html_lang(client.get("/", headers=GERMAN)) == "fi"


def test_the_language_page_needs_the_form_token(client):
    assert client.post("/language", data={"lang": "fi"}).status_code == 400


@pytest.mark.parametrize("target", ["//evil.example/", "https://evil.example/", "/\\evil.example", "javascript:alert(1)",
                                    "evil.example", "/%0d%0aSet-Cookie:x=1", ""])
def test_the_language_page_goes_back_only_to_a_page_of_this_site(web, target):
    answer = web.post("/language", data={"lang": "de", "next": target})
    assert answer.status_code == 303
    location = answer.headers["Location"]
    assert location == "/" or (location.startswith("/") and not location.startswith("//") and "evil" not in location)


def test_a_referer_from_another_site_is_not_where_it_goes_back_to(web):
    page = web.get("/language", headers={"Referer": "https://evil.example/games/1"})
    assert 'name="next" value="/"' in page.text


def test_an_unknown_language_is_refused(web):
    assert web.post("/language", data={"lang": "xx", "next": "/"}).status_code == 400


# ---------------------------------------------------------------- cards in the table's letters


def test_a_round_typed_with_german_letters_is_stored_canonically(web, balmoral):
    post_round(web, balmoral, 1, went_out=1, hands={0: "K D B A", 2: "kdba", 3: "d 7"}, headers={**HTMX, **GERMAN})
    assert stored_hands(web, balmoral, 1) == {"Ann": "A K Q J", "Cat": "A K Q J", "Dan": "Q 7"}


def test_the_german_keypad_posts_canonical_ranks_and_shows_the_tables_letters(web, balmoral):
    # Without the script each key posts its rank; the hand keeps the canonical one, the chip
    # shows the table's letter.
    hand = ""
    for key in ("K", "Q", "J", "A"):
        screen = web.post(f"/games/{balmoral}/rounds/new", data=round_form(1, hands={0: hand}, seat="0", key=key),
                          headers=GERMAN)
        hand = re.search(r'name="hand-0" value="([^"]*)"', screen.text).group(1)
    assert hand == "K Q J A"
    assert re.findall(r'<span class="chip">([^<]+)</span>', screen.text) == ["K", "D", "B", "A"]
    post_round(web, balmoral, 1, went_out=1, hands={0: hand, 2: "KDBA", 3: "5"}, headers={**HTMX, **GERMAN})
    assert stored_hands(web, balmoral, 1) == {"Ann": "A K Q J", "Cat": "A K Q J", "Dan": "5"}


def test_a_french_table_types_its_own_letters_and_not_the_german_ones(web, balmoral):
    french = {"Accept-Language": "fr"}
    refused = post_round(web, balmoral, 1, went_out=1, hands={0: "B", 2: "7", 3: "5"}, headers={**HTMX, **french})
    assert refused.status_code == 422 and "« B » n’est pas une carte" in text(refused)
    refused = post_round(web, balmoral, 1, went_out=1, hands={0: "R D V A", 2: "joker", 3: "5"},
                         headers={**HTMX, **french})
    # "joker" keeps its own meaning (a joker in a game without jokers is refused, not read as
    # letters): the French R in it is not a king.
    assert refused.status_code == 422 and "Rami Balmoral se joue sans joker" in text(refused)
    post_round(web, balmoral, 1, went_out=1, hands={0: "R D V A", 2: "rdva", 3: "5"}, headers={**HTMX, **french})
    assert stored_hands(web, balmoral, 1) == {"Ann": "A K Q J", "Cat": "A K Q J", "Dan": "5"}


def test_the_board_and_the_story_show_cards_in_the_readers_letters(web, balmoral):
    save_round(web, balmoral, 1, went_out=1, hands={0: "A K Q J", 2: "7", 3: "5"})
    story = text(web.get(f"/games/{balmoral}/story", headers=GERMAN))
    assert "A K D B" in story and "A K Q J" not in story
    assert "A K Q J" in text(web.get(f"/games/{balmoral}/story"))


def test_the_languages_letters_are_read_only_as_whole_cards():
    from flask import Flask

    app = Flask(__name__)
    languages.init_app(app)
    with app.test_request_context(headers=GERMAN):
        assert languages.canonical_hand("K D B A, kdba;10d x joker", None) == "K Q J A, KQJA;10Q x joker"
    with app.test_request_context(headers={"Accept-Language": "fr"}):
        assert languages.canonical_hand("R D V A joker b", None) == "K Q J A joker b"
    with app.test_request_context():
        assert languages.canonical_hand("d b", None) == "d b"


# ---------------------------------------------------------------- caching


def test_pages_vary_by_language_and_a_board_never_revalidates_into_another_one(web, balmoral):
    english = web.get(f"/games/{balmoral}")
    assert "Accept-Language" in english.headers["Vary"] and "Cookie" in english.headers["Vary"]
    tag = english.headers["ETag"]
    assert web.get(f"/games/{balmoral}", headers={"If-None-Match": tag}).status_code == 304
    german = web.get(f"/games/{balmoral}", headers={"If-None-Match": tag, **GERMAN})
    assert german.status_code == 200 and html_lang(german) == "de" and german.headers["ETag"] != tag
    assert web.get(f"/games/{balmoral}", headers={"If-None-Match": german.headers["ETag"], **GERMAN}).status_code == 304
    web.set_cookie(languages.COOKIE, "fi")
    assert web.get(f"/games/{balmoral}", headers={"If-None-Match": german.headers["ETag"], **GERMAN}).status_code == 200


def test_the_service_worker_keeps_its_offline_page_in_a_cache_of_the_readers_language(web):
    def cache(response):
        return re.search(r'const CACHE = "([^"]+)"', response.text).group(1)

    english, german = web.get("/sw.js"), web.get("/sw.js", headers=GERMAN)
    assert "Accept-Language" in german.headers["Vary"] and "Cookie" in german.headers["Vary"]
    # A phone whose language changes fetches a worker that differs, which fills a new cache.
    assert cache(english) != cache(german) and "-de-" in cache(german)
    assert cache(web.get("/sw.js", headers=GERMAN)) == cache(german)
    assert "Beim Kontrakt-Rommé am Kartentisch schreiben" in web.get("/manifest.webmanifest", headers=GERMAN).json["description"]


def test_the_api_and_static_files_do_not_vary_by_language(web, balmoral):
    assert "Accept-Language" not in web.get(f"/api/games/{balmoral}").headers.get("Vary", "")
    static = web.get("/static/app.css")
    static.close()
    assert "Accept-Language" not in static.headers.get("Vary", "")


# ---------------------------------------------------------------- the catalogues


@pytest.mark.parametrize("lang", SHIPPED)
def test_every_shipped_catalogue_is_whole_and_compiled(lang):
    folder = TRANSLATIONS / lang / "LC_MESSAGES"
    with open(folder / "messages.po", "rb") as po:
        catalogue = read_po(po, locale=lang)
    untranslated, fuzzy = [], []
    for message in catalogue:
        if not message.id:
            continue
        forms = message.string if isinstance(message.string, tuple) else (message.string,)
        if len(forms) != (catalogue.num_plurals if isinstance(message.id, tuple) else 1) or not all(forms):
            untranslated.append(message.id)
        if message.fuzzy:
            fuzzy.append(message.id)
    assert not untranslated, f"untranslated in {lang}: {untranslated}"
    assert not fuzzy, f"fuzzy in {lang}: {fuzzy}"
    # The compiled catalogue is this one (make translations compiles it).
    with open(folder / "messages.mo", "rb") as mo:
        compiled = read_mo(mo)
    def strings(messages):
        return {(m.context, m.id if isinstance(m.id, str) else tuple(m.id)):
                m.string if isinstance(m.string, str) else tuple(m.string) for m in messages if m.id}

    assert strings(compiled) == strings(catalogue)


def test_the_catalogues_hold_every_message_the_code_and_templates_have(tmp_path):
    template = tmp_path / "messages.pot"
    subprocess.run([str(Path(sys.executable).parent / "pybabel"), "--quiet", "extract", "-F", "babel.cfg",
                    "-k", "N_", "-k", "lazy_gettext", "-k", "stage_sentence:2", "-k", "round_sentence:2",
                    "-k", "round_words", "-o", str(template), "scorekeeper", "templates"],
                   cwd=ROOT, check=True)
    with open(template, "rb") as pot:
        wanted = {(m.context, m.id) for m in read_po(pot) if m.id}
    for lang in SHIPPED:
        with open(TRANSLATIONS / lang / "LC_MESSAGES" / "messages.po", "rb") as po:
            held = {(m.context, m.id) for m in read_po(po) if m.id}
        assert not wanted - held, f"run make translations: {lang} lacks {sorted(wanted - held, key=str)[:5]}"


@pytest.mark.parametrize("lang", SHIPPED)
def test_every_translation_keeps_its_blanks(lang):
    with open(TRANSLATIONS / lang / "LC_MESSAGES" / "messages.po", "rb") as po:
        catalogue = read_po(po, locale=lang)
    blanks = re.compile(r"%\(\w+\)[sd]|\{\w+\}")
    for message in catalogue:
        if not message.id:
            continue
        if isinstance(message.id, tuple):
            # A plural's forms may leave out the number, never name a blank the code does not fill.
            known = set(blanks.findall(" ".join(message.id)))
            for form in message.string:
                assert set(blanks.findall(form)) <= known, (lang, message.id, form)
        else:
            assert set(blanks.findall(message.string)) == set(blanks.findall(message.id)), (lang, message.id)


def test_a_name_refused_is_refused_in_the_readers_language(web):
    """The engine's refusals of a name (empty, too long, invisible) carry their words with blanks,
    what the name is called among them, so each is said in the reader's words; English as before."""
    empty = text(web.post("/players/", data={"name": "\u3164"}, headers=GERMAN))
    assert "Name '\u3164' zeigt nichts" in empty and "shows nothing" not in empty
    long = text(web.post("/players/", data={"name": "x" * 41}, headers={"Accept-Language": "fr"}))
    assert f"le nom « {'x' * 40}… » dépasse 40 caractères" in long
    english = text(web.post("/players/", data={"name": "\u3164"}))
    assert "the name '\u3164' shows nothing" in english


def test_the_values_a_field_may_take_are_offered_in_the_readers_language(web, balmoral):
    """Only a tampered form posts a value a field does not offer: the engine's list of those it
    takes ("a" or "b"; a rule set's bonuses) is said in the reader's words; English as before."""
    url = "/rules/liverpool/copy"
    refused = text(press(web, url, web.get(url, headers=GERMAN), "save", headers=GERMAN, progression="xyz"))
    assert 'Wie es weitergeht: muss "ladder" oder "deal" sein, nicht „xyz“' in refused and '" or "' not in refused
    french = {"Accept-Language": "fr"}
    refused = text(press(web, url, web.get(url, headers=french), "save", headers=french, winner="q"))
    assert 'doit être "lowest" ou "lowest-finisher", pas « q »' in refused
    english = text(press(web, url, web.get(url), "save", progression="xyz"))
    assert 'must be "ladder" or "deal", not “xyz”' in english
    # A bonus key the rule set has not: its own bonuses named, or none.
    bonus = post_round(web, balmoral, 1, went_out=1, hands={0: "5", 2: "5", 3: "5"}, headers={**HTMX, **GERMAN},
                       **{"bonus-0": "sweep"})
    assert bonus.status_code == 422
    assert "Ann: „sweep“ ist kein Bonus bei Balmoral-Rommé (dort gibt es keine Boni)" in text(bonus)
    liverpool = new_game(web, ["Ann", "Ben", "Cat"], rules="liverpool")
    bonus = post_round(web, liverpool, 1, went_out=1, hands={0: "5", 2: "5"}, headers={**HTMX, "Accept-Language": "es"},
                       **{"bonus-0": "sweep"})
    assert "Ann: «sweep» no es una bonificación de Rummy Liverpool (sus bonificaciones son perfect-cut)" in text(bonus)
    english = text(post_round(web, balmoral, 1, went_out=1, hands={0: "5", 2: "5", 3: "5"}, headers=HTMX,
                              **{"bonus-0": "sweep"}))
    assert 'Ann: "sweep" is not a bonus of Balmoral Rummy (it has no bonuses)' in english


def test_a_card_the_phase_10_deck_has_not_is_refused_in_the_readers_language(web):
    game = new_game(web, ["Ann", "Ben", "Cat"], rules="phase10")
    refused = post_round(web, game, 1, went_out=1, hands={0: "12 K", 2: "5"}, headers={**HTMX, **GERMAN})
    assert refused.status_code == 422
    assert "Ann: „K“ ist keine Karte des Phase-10-Kartenspiels (Karten sind 1 bis 12" in text(refused)
    english = post_round(web, game, 1, went_out=1, hands={0: "12 K", 2: "5"}, headers=HTMX)
    assert 'Ann: "K" is not a card of the Phase 10 deck (cards are 1 to 12' in text(english)


@pytest.mark.parametrize("language", ["en", *SHIPPED])
def test_an_error_the_phone_checks_again_is_marked_so_in_every_language(web, balmoral, language):
    """The phone takes away a stale "not a card" or "too many" error once the row's cards
    change: the page marks those by the engine's code, so they are marked in every language."""
    answer = post_round(web, balmoral, 1, went_out=0, hands={1: "X", 2: "K K K K K", 3: "K K K K"},
                        headers={**HTMX, "Accept-Language": language})
    rows = re.findall(r'<span class="seat-errors"[^>]*>(.*?)</span></span>', answer.text)
    marked = [re.findall(r"<span( data-recheck)?>", row) for row in rows]
    # Ben: "X" is no card; Cat and Dan hold the 9 kings of 2 decks (8 at most) between them.
    assert marked == [[" data-recheck"], [" data-recheck"], [" data-recheck"]], (language, rows)


@pytest.mark.parametrize("key, language, says, never", [
    ("phase10", "fr", "quelqu’un termine la phase 10", "au phase"),
    ("phase10", "es", "alguien completa la fase 10", "completa Fase"),
    ("phase10", "fi", "joku ensimmäisenä tekee vaiheen 10", "vaiheen vaihe"),
    ("balmoral", "fi", "joku ensimmäisenä tekee tason 7", "vaiheen taso"),
    ("balmoral", "fr", "quelqu’un termine le niveau 7", "la niveau"),
    ("classic", "de", "Alle spielen denselben Durchgang: Durchgang 1 in der ersten Runde", "dieselbe Runde"),
])
def test_a_sentence_naming_a_stage_is_whole_in_the_readers_language(stranger, key, language, says, never):
    words = text(stranger.get(f"/rules/{key}", headers={"Accept-Language": language}))
    assert says in words and never not in words


def test_a_count_of_levels_agrees_with_its_number_in_french(app):
    with app.test_request_context(headers={"Accept-Language": "fr"}):
        said = [completed_words(BALMORAL, done) for done in (1, 3)]
    assert said == ["1 niveau réussi sur 7", "3 niveaux réussis sur 7"]


# ---------------------------------------------------------------- typography


@pytest.mark.parametrize("language, places", [
    ("en", {1: "1st", 2: "2nd", 3: "3rd", 4: "4th", 11: "11th", 12: "12th", 13: "13th", 21: "21st", 22: "22nd"}),
    ("fr", {1: "1er", 2: "2e", 3: "3e", 11: "11e", 21: "21e"}),
    ("de", {1: "1.", 2: "2.", 10: "10."}),
    ("fi", {1: "1.", 3: "3."}),
    ("es", {1: "1.º", 2: "2.º", 3: "3.º"}),
])
def test_a_place_is_typed_as_the_readers_language_types_it(app, language, places):
    with app.test_request_context(headers={"Accept-Language": language}):
        assert {place: languages.ordinal(place) for place in places} == places


def test_a_players_recent_games_give_their_place_as_an_ordinal_of_the_readers_language(app, web, four):
    from factories import player_id

    pages = {lang: text(web.get(f"/players/{player_id(app, 'Ben')}", headers={"Accept-Language": lang}))
             for lang in ("en", "fr", "de")}
    assert re.search(r"\b\d+(?:st|nd|rd|th) of \d+ with", pages["en"])
    assert re.search(r"\b\d+(?:er|e) sur \d+ avec", pages["fr"]) and not re.search(r"\d+ese sur", pages["fr"])
    assert re.search(r"\b\d+\. von \d+ mit", pages["de"])


@pytest.mark.parametrize("name, said", [
    ("Ann", "Main d’Ann"), ("Éric", "Main d’Éric"), ("Hélène", "Main d’Hélène"), ("Yves", "Main d’Yves"),
    ("Yann", "Main de Yann"), ("Ben", "Main de Ben"), ("A K", "Main de A K"),
])
def test_french_elides_de_before_a_name_that_starts_with_a_vowel_sound(app, name, said):
    with app.test_request_context(headers={"Accept-Language": "fr"}):
        assert languages.gettext("%(name)s's hand", name=name) == said
        assert app.jinja_env.from_string("{{ _(\"%(name)s's hand\", name=n) }}").render(n=name) == said
    with app.test_request_context(headers=GERMAN):
        assert languages.elided("de Ann", {"name": "Ann"}) == "de Ann"


def test_a_name_is_elided_in_french_on_the_round_screen(web, balmoral):
    screen = web.get(f"/games/{balmoral}/rounds/new", headers={"Accept-Language": "fr"}).get_data(as_text=True)
    assert "la main d’Ann" in screen and "de Ann" not in screen


def test_french_punctuation_has_its_narrow_no_break_space_and_german_its_space_before_percent(app):
    with open(TRANSLATIONS / "fr" / "LC_MESSAGES" / "messages.po", "rb") as po:
        catalogue = read_po(po)
    loose = [said for message in catalogue if message.id
             for said in (message.string if isinstance(message.string, tuple) else (message.string,))
             if re.search(r"[ \u00a0][:;?!»%]|«[ \u00a0]", re.sub(r"%\(\w+\)[sd]", "X", said))]
    assert loose == []
    with app.test_request_context(headers=GERMAN):
        assert languages.percent(0.5) == "50\u00a0%"
    with app.test_request_context(headers={"Accept-Language": "fr"}):
        assert re.fullmatch(r"50[\u00a0\u202f]%", languages.percent(0.5))


def test_a_count_on_the_story_and_a_players_page_agrees_with_its_number(app, web, balmoral):
    from factories import player_id

    save_round(web, balmoral, 1, went_out=1, hands={0: "A K 7 7", 2: "10 10 Q 2"}, points={3: "5"})
    story = text(web.get(f"/games/{balmoral}/story", headers={"Accept-Language": "fr"}))
    assert "1 contrat rempli sur 7" in story and "0 contrat rempli sur 7" in story and "contrats remplis" not in story
    ben = text(web.get(f"/players/{player_id(app, 'Ben')}", headers={"Accept-Language": "fi"}))
    assert "/ 1 kierros" in ben and "/ 1 kierrosta" not in ben
