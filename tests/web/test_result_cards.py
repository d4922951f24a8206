"""A result card: a game's or a club night's result as a picture to share. Its words (places,
ties, totals, levels, the rule set, the date, the club) as text in two languages; the PNG as
Pillow opens it; its address: 404, ETag and 304, its language; the pages that offer it and carry
it as their preview (Open Graph)."""

from __future__ import annotations

import re
from datetime import date
from fractions import Fraction
from io import BytesIO

import pytest
from PIL import Image

from factories import ANN_AND_BEN_TIE, a_round, classic_game, new_game, save_round, text
from scorekeeper import store
from scorekeeper.club.nights import GameResult, SeatResult, standings
from scorekeeper.web import cards, picture

from test_night_pages import open_a_night


def balmoral_over(web) -> int:
    """Ben goes out every round; Ann makes her contract every round but keeps an ace; Cat never
    makes hers: Ben wins with 0, Ann 105 (completed 7 of 7 levels), Cat 14 (none)."""
    game_id = new_game(web, ["Ann", "Ben", "Cat"])
    for number in range(1, 8):
        save_round(web, game_id, number, went_out=1, hands={0: "A", 2: "2"}, achieved=[0])
    return game_id


def game_card_in(app, game_id: int, lang: str) -> cards.Card:
    with app.test_request_context(f"/games/{game_id}/card.png?lang={lang}"):
        loaded = store.load(game_id)
        return cards.game_card(loaded.state, loaded.game.started_at, loaded.game.finished_at, cards.club_name())


# --------------------------------------------------------------- the card's words


def test_a_finished_ladder_game_says_its_podium_levels_totals_rules_and_date_in_english(web, app):
    game_id = balmoral_over(web)
    card = game_card_in(app, game_id, "en")
    assert card.title == "Game over" and card.headline == "Ben wins with 0."
    assert card.heads == ("Place", "Player", "Total")
    assert [(line.place, line.name, line.detail, line.total, line.medal) for line in card.lines] == [
        ("1st", "Ben", "completed 7 of 7 levels", "0", 1),
        ("2nd", "Cat", "completed 0 of 7 levels", "14", 2),
        ("3rd", "Ann", "completed 7 of 7 levels", "105", 3),
    ]
    assert card.club == "Scorekeeper"
    assert re.fullmatch(r"Balmoral Rummy · \d\d \w{3} \d{4}", card.footer)


def test_a_finished_ladder_game_in_french_with_the_club_s_name(web, app, monkeypatch):
    game_id = balmoral_over(web)
    monkeypatch.setitem(app.config, "CLUB_NAME", "Club de rami d’Åbo")  # the session's app: set for this test
    card = game_card_in(app, game_id, "fr")
    assert card.club == "Club de rami d’Åbo"
    assert card.title == "Partie terminée"
    assert [(line.place, line.name, line.total) for line in card.lines] == [
        ("1er", "Ben", "0"), ("2e", "Cat", "14"), ("3e", "Ann", "105")]
    assert card.lines[0].detail == "7 niveaux réussis sur 7"
    assert card.footer.startswith("Rami Balmoral · ")


def test_tied_places_are_shown_as_ties_and_a_deal_game_has_no_levels(web, app):
    game_id = classic_game(web, ANN_AND_BEN_TIE)
    card = game_card_in(app, game_id, "en")
    assert card.headline == "Ann and Ben share the win with 35 each."
    assert [(line.place, line.name, line.detail, line.medal) for line in card.lines] == [
        ("1st", "Ann", "(tied)", 1), ("1st", "Ben", "(tied)", 1), ("3rd", "Cat", "", 3)]
    french = game_card_in(app, game_id, "fr")
    assert [(line.place, line.detail) for line in french.lines] == [("1er", "(ex æquo)"), ("1er", "(ex æquo)"),
                                                                    ("3e", "")]


def test_a_game_in_play_is_shown_as_it_stands_with_each_player_s_contract(web, app):
    game_id = new_game(web, ["Ann", "Ben", "Cat"])
    card = game_card_in(app, game_id, "en")
    assert card.title == "Game in progress" and card.headline == "No round played yet."
    assert {line.place for line in card.lines} == {"–"} and all(line.medal is None for line in card.lines)
    save_round(web, game_id, 1, went_out=1, hands={0: "A", 2: "2"}, achieved=[0])
    card = game_card_in(app, game_id, "en")
    assert card.headline == "As it stands after 1 round."
    assert [(line.name, line.detail) for line in card.lines] == [
        ("Ben", "Level 2: 1 set of 3 and 1 run of 4"), ("Cat", "Level 1: 3 sets of 3"),
        ("Ann", "Level 2: 1 set of 3 and 1 run of 4")]


def a_night(*games: GameResult):
    return standings(games)


def seat(pid: int, name: str, total: int, place: int) -> SeatResult:
    return SeatResult(pid, name, total, place)


def test_a_closed_night_says_its_podium_with_ties_and_place_points(app):
    tables = a_night(GameResult(1, True, (seat(1, "Ann", 10, 1), seat(2, "Ben", 30, 2), seat(3, "Cat", 50, 3))),
                     GameResult(2, True, (seat(4, "Dan", 10, 1), seat(5, "Eve", 30, 2), seat(6, "Fay", 50, 3))))
    with app.test_request_context("/nights/1/card.png?lang=en"):
        card = cards.night_card(date(2026, 12, 3), True, tables, "Balmoral Rummy", "The Thursday Club")
    assert card.title == "Club night of Thu 03 Dec 2026" and card.club == "The Thursday Club"
    assert card.headline == "Ann and Dan share the night's win."
    assert card.heads == ("Place", "Player", "Place points")
    assert [(line.place, line.name, line.detail, line.total) for line in card.lines][:3] == [
        ("1st", "Ann", "(tied) · 1 game", "1.00"), ("1st", "Dan", "(tied) · 1 game", "1.00"),
        ("3rd", "Ben", "(tied) · 1 game", "0.50")]
    assert card.footer == "Balmoral Rummy"
    with app.test_request_context("/nights/1/card.png?lang=fr"):
        card = cards.night_card(date(2026, 12, 3), False, tables, "Rami Balmoral", "The Thursday Club")
    assert card.title == "Soirée du jeu. 3 déc. 2026"
    assert card.headline.startswith("La soirée continue")
    assert (card.lines[0].place, card.lines[0].total) == ("1er", "1,00")


def test_a_night_s_card_lists_sixteen_players_and_counts_the_rest(app):
    games = [GameResult(g, True, (seat(2 * g, f"P{2 * g}", 10, 1), seat(2 * g + 1, f"P{2 * g + 1}", 20, 2)))
             for g in range(10)]
    with app.test_request_context("/nights/1/card.png?lang=en"):
        card = cards.night_card(date(2026, 12, 3), True, a_night(*games), "Balmoral Rummy", "Club")
    assert len(card.lines) == cards.MOST_LINES == 16 and card.more == "and 4 more players"
    assert card.text().splitlines()[-2:] == ["and 4 more players", "Balmoral Rummy"]
    image = Image.open(BytesIO(picture.draw(card)))
    assert image.size == picture.size_of(card) == (1200, 262 + 64 * 17 + 96)


def test_an_open_night_with_one_winner_and_one_still_playing(app):
    tables = a_night(GameResult(1, False, (seat(1, "Ann", 10, 1), seat(2, "Ben", 30, 2))))
    with app.test_request_context("/nights/1/card.png?lang=en"):
        closed = cards.night_card(date(2026, 12, 3), True, tables, "Balmoral Rummy", "Club")
        empty = cards.night_card(date(2026, 12, 3), False, [], "Balmoral Rummy", "Club")
    assert closed.headline == "Ann wins the night."
    assert closed.lines[0].detail == "1 game · (still playing)"
    assert empty.headline == "No game yet tonight." and empty.lines == ()
    assert tables[0].points == Fraction(1)


# --------------------------------------------------------------- the picture


def test_the_picture_is_a_png_of_the_expected_size_and_grows_with_the_players(web, app):
    game_id = balmoral_over(web)
    card = game_card_in(app, game_id, "fr")
    image = Image.open(BytesIO(picture.draw(card)))
    assert image.format == "PNG" and image.size == (1200, 630) == picture.size_of(card)
    many = cards.Card("Club", "Title", "Headline", ("Place", "Player", "Total"),
                      tuple(cards.Line(f"{n}.", f"Player {n}", "", str(n), None) for n in range(1, 12)), "Footer")
    tall = Image.open(BytesIO(picture.draw(many)))
    assert tall.size == picture.size_of(many) and tall.size[1] > 630


def test_every_language_s_letters_are_in_the_font():
    # Each letter drawn apart from the font's "missing" box: none is drawn as that box.
    font = picture.face(40, picture.REGULAR)
    missing = font.getmask("\ue000").getbbox()
    for letter in "äöåÄÖÅéèçñ¡¿«»€":
        assert font.getmask(letter).getbbox() != missing, letter
    assert font.getlength("\u202f") < font.getlength("\ue000")  # a narrow space, not a box


def test_a_long_name_is_cut_to_fit_not_drawn_over_the_total():
    card = cards.Card("Club", "Title", "Headline " * 30, ("Place", "Player", "Total"),
                      (cards.Line("1st", "Bartholomew-Maximilian " * 5, "(tied)", "12345", 1),), "Footer")
    assert Image.open(BytesIO(picture.draw(card))).size == (1200, 630)
    font = picture.face(32, picture.SEMIBOLD)
    assert picture.fit("Bartholomew " * 10, font, 300).endswith("…")
    assert font.getlength(picture.fit("Bartholomew " * 10, font, 300)) <= 300


def test_a_long_more_players_line_is_cut_to_fit_the_card():
    # As a long language's "and 4 more players" might be: cut to fit in the size it is drawn at.
    card = cards.Card("Club", "Title", "Headline", ("Place", "Player", "Total"),
                      (cards.Line("1st", "Ann", "", "1", 1),), "Footer", more="and 4 more players " * 8)
    image = Image.open(BytesIO(picture.draw(card)))
    middle = picture.TOP + picture.ROW + picture.ROW // 2
    margin = image.crop((image.size[0] - picture.MARGIN + 1, middle - picture.ROW // 2, image.size[0], middle + picture.ROW // 2))
    assert {colour for _count, colour in margin.getcolors()} == {picture.FELT}


# --------------------------------------------------------------- the addresses


def test_a_game_s_card_is_served_revalidated_and_varies_by_language(web):
    game_id = classic_game(web, ANN_AND_BEN_TIE)
    answer = web.get(f"/games/{game_id}/card.png")
    assert answer.status_code == 200 and answer.mimetype == "image/png"
    assert answer.headers["Cache-Control"] == "no-cache" and answer.headers["ETag"]
    assert Image.open(BytesIO(answer.data)).size == (1200, 630)
    again = web.get(f"/games/{game_id}/card.png", headers={"If-None-Match": answer.headers["ETag"]})
    assert again.status_code == 304 and not again.data
    french = web.get(f"/games/{game_id}/card.png?lang=fr", headers={"If-None-Match": answer.headers["ETag"]})
    assert french.status_code == 200 and french.headers["ETag"] != answer.headers["ETag"]
    german = web.get(f"/games/{game_id}/card.png", headers={"Accept-Language": "de"})
    assert german.headers["ETag"] not in (answer.headers["ETag"], french.headers["ETag"])
    assert "Accept-Language" in answer.headers["Vary"]


def test_a_change_to_the_game_gives_its_card_a_new_etag(web):
    game_id = new_game(web, ["Ann", "Ben", "Cat"])
    before = web.get(f"/games/{game_id}/card.png").headers["ETag"]
    save_round(web, game_id, 1, went_out=1, hands={0: "A", 2: "2"}, achieved=[0])
    answer = web.get(f"/games/{game_id}/card.png", headers={"If-None-Match": before})
    assert answer.status_code == 200 and answer.headers["ETag"] != before


def test_no_such_game_or_night_is_a_404_and_a_game_in_the_bin_has_no_card(web, app):
    assert web.get("/games/999999/card.png").status_code == 404
    assert web.get("/nights/999999/card.png").status_code == 404
    game_id = classic_game(web, ANN_AND_BEN_TIE)
    with app.app_context():
        store.delete_game(game_id)
    assert web.get(f"/games/{game_id}/card.png").status_code == 404
    page = web.get(f"/games/{game_id}").get_data(as_text=True)
    assert og(page, "og:image") is None and "data-share-file" not in page


def test_a_night_s_card_is_served_and_its_etag_follows_its_standings(web, app):
    url = open_a_night(web, ["Ann", "Ben", "Cat", "Dan"])
    answer = web.get(f"{url}/card.png")
    assert answer.status_code == 200 and Image.open(BytesIO(answer.data)).format == "PNG"
    assert answer.headers["Cache-Control"] == "no-cache"
    assert web.get(f"{url}/card.png", headers={"If-None-Match": answer.headers["ETag"]}).status_code == 304
    web.post(f"{url}/draw", data={"how": "random"})
    web.post(f"{url}/tables/1/start")
    with app.app_context():
        game_id = store.night_games(int(url.rsplit("/", 1)[1]))[0].game_id
        names = list(store.load(game_id).state.setup.players)
        store.record_round(game_id, 1, a_round(names[0], {n: "K" for n in names[1:]}, achieved=[names[0]]))
    played = web.get(f"{url}/card.png", headers={"If-None-Match": answer.headers["ETag"]})
    assert played.status_code == 200 and played.headers["ETag"] != answer.headers["ETag"]
    french = web.get(f"{url}/card.png?lang=fr", headers={"If-None-Match": played.headers["ETag"]})
    assert french.status_code == 200 and french.headers["ETag"] != played.headers["ETag"]


# --------------------------------------------------------------- the pages that offer it


def og(page: str, name: str) -> str | None:
    found = re.search(rf'<meta (?:property|name)="{re.escape(name)}" content="([^"]*)"', page)
    return found.group(1) if found else None


@pytest.mark.parametrize("path", ["/games/{id}/watch", "/games/{id}"])
def test_the_game_s_pages_carry_the_card_as_their_preview(web, path):
    game_id = classic_game(web, ANN_AND_BEN_TIE)
    page = web.get(path.format(id=game_id)).get_data(as_text=True)
    assert og(page, "og:image") == f"http://localhost/games/{game_id}/card.png?lang=en"
    assert og(page, "twitter:card") == "summary_large_image"
    assert "Contract Rummy (classic)" in og(page, "og:title")
    assert og(page, "og:description") == og(page, "og:image:alt") == "Ann and Ben share the win with 35 each."
    french = web.get(path.format(id=game_id), headers={"Accept-Language": "fr"}).get_data(as_text=True)
    assert og(french, "og:image").endswith(f"/games/{game_id}/card.png?lang=fr")
    # The page itself stays in its reader's language, whatever language a link to it named.
    assert '<html lang="en">' in web.get(path.format(id=game_id) + "?lang=fr").get_data(as_text=True)


def test_a_finished_game_offers_its_card_to_share_a_game_in_play_does_not(web):
    game_id = classic_game(web, ANN_AND_BEN_TIE)
    page = web.get(f"/games/{game_id}/watch").get_data(as_text=True)
    link = re.search(r'<a [^>]*data-share-file[^>]*>[^<]*</a>', page).group(0)
    assert f'href="/games/{game_id}/card.png?lang=en"' in link and "download=" in link
    assert "Share the result" in link
    playing = new_game(web, ["Ann", "Ben", "Cat"])
    assert "data-share-file" not in web.get(f"/games/{playing}").get_data(as_text=True)


def test_a_closed_night_offers_its_card_and_carries_it_as_its_preview(web):
    url = open_a_night(web, ["Ann", "Ben", "Cat", "Dan"])
    page = web.get(url).get_data(as_text=True)
    assert og(page, "og:image") == f"http://localhost{url}/card.png?lang=en"
    assert og(page, "twitter:card") == "summary_large_image"
    assert "data-share-file" not in page
    web.post(f"{url}/close")
    page = web.get(url).get_data(as_text=True)
    assert "data-share-file" in page and "Share the result" in text(web.get(url))


def test_the_club_s_name_is_the_previews_site_name_and_a_new_name_a_new_card(web, app, monkeypatch):
    game_id = classic_game(web, ANN_AND_BEN_TIE)
    before = web.get(f"/games/{game_id}/card.png").headers["ETag"]
    assert og(web.get(f"/games/{game_id}/watch").get_data(as_text=True), "og:site_name") == "Scorekeeper"
    monkeypatch.setitem(app.config, "CLUB_NAME", "The Thursday Club")  # the session's app: set for this test
    assert og(web.get(f"/games/{game_id}/watch").get_data(as_text=True), "og:site_name") == "The Thursday Club"
    answer = web.get(f"/games/{game_id}/card.png", headers={"If-None-Match": before})
    assert answer.status_code == 200 and answer.headers["ETag"] != before
