"""A game's story and its charts."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest
from factories import (
    new_game,
    player_id,
    text,
)
from history_games import ANN_BEN_CAT, game, out

from scorekeeper.store import replays
from scorekeeper.files import transfer

from scorekeeper.web.charts import (
    COLUMN,
    LEFT,
    RATING_POINTS,
    RIGHT,
    WIDTH,
    levels_chart,
    nice_ticks,
    rating_chart,
    totals_chart,
)
from scorekeeper.files.gamefile import read_document

# =============================================================== a game's story and its charts


def test_the_story_shows_every_hand_who_went_out_made_their_contract_and_dealt(web, four):
    page = text(web.get(f"/games/{four[0]}/story"))
    assert "Ben wins with 0." in page
    assert "Round 1 · Ann dealt 13 cards · Ben went out" in page
    # Ann: level 1, A K, 25 points, total 25; Ben out, made level 1; Cat made level 1 with 5 left.
    assert "Ann Level 1 A K 25 25 Ben Level 1 ✓ made ★ went out 0 0 Cat Level 1 ✓ made 5 5 5" in page
    assert "Round 2 · Ben dealt 13 cards · Ben went out" in page
    assert "Ann Level 1 ✓ made 2 2 27" in page
    assert "Round 7 · Ben dealt" in page


def test_the_story_of_a_classic_game_names_each_deal_and_hands_counted_by_hand(web, four):
    page = text(web.get(f"/games/{four[2]}/story"))
    assert "Deal 3: two sequences · Cat dealt 10 cards · Ann went out" in page
    assert "Cat counted by hand 20 22" in page
    assert "Deal 4: three groups · Ann dealt 10 cards" in page  # the deal rotates
    assert "Deal 5: two groups and one sequence · Ben dealt 12 cards" in page  # 12 cards from deal 5


def svg_of(response, chart_id):
    body = response.get_data(as_text=True)
    match = re.search(rf'<svg [^>]*class="chart" id="{chart_id}".*?</svg>', body, re.S)
    assert match, f"no {chart_id}"
    return ET.fromstring(match.group(0).replace("&nbsp;", " "))


SVG = "{http://www.w3.org/2000/svg}"


def polylines(svg):
    return [el for el in svg.iter() if el.tag in ("polyline", f"{SVG}polyline")]


def test_the_charts_draw_one_line_per_player_in_their_own_colour(web, four):
    response = web.get(f"/games/{four[0]}/story")
    totals = svg_of(response, "totals-chart")
    assert totals.get("role") == "img"
    lines = polylines(totals)
    # Ann, Ben and Cat are players 1, 2 and 3: their colours, whichever seats they take.
    assert [el.get("class") for el in lines] == ["line seat-1", "line seat-2", "line seat-3"]
    # Eight points each: before round 1, then after each of the 7 rounds.
    assert [len(el.get("points").split()) for el in lines] == [8, 8, 8]
    levels = svg_of(response, "levels-chart")
    assert len(polylines(levels)) == 3
    assert "style=" not in response.get_data(as_text=True)
    page = text(response)
    assert "Running totals after each round" in page  # the table beside the chart


def test_the_running_totals_line_climbs_with_the_totals(app, four):
    with app.app_context():
        state = replays.load_game(four[0]).state
    svg = ET.fromstring(str(totals_chart(state)))
    ann = polylines(svg)[0].get("points").split()
    ys = [float(p.split(",")[1]) for p in ann]
    # Ann's totals 0, 25, 27, 30, 34, 39, 45, 52: higher totals are drawn higher up (smaller y).
    assert ys == sorted(ys, reverse=True) and len(set(ys)) == 8
    ben = [float(p.split(",")[1]) for p in polylines(svg)[1].get("points").split()]
    assert len(set(ben)) == 1  # Ben stays on 0
    assert "final totals: Ann 52, Ben 0, Cat 40" in svg.find(f"{SVG}desc").text


def test_a_classic_game_has_no_level_chart(web, app, four):
    response = web.get(f"/games/{four[2]}/story")
    assert 'id="totals-chart"' in response.get_data(as_text=True)
    assert 'id="levels-chart"' not in response.get_data(as_text=True)
    with app.app_context():
        assert levels_chart(replays.load_game(four[2]).state) is None


def test_names_in_a_chart_are_text_not_markup(app):
    doc = game("balmoral", ["<b>Al</b>", "Bo & Co"], [out("Bo & Co", {"<b>Al</b>": "K"})], "2026-01-01T10:00:00Z")
    with app.app_context():
        [o] = transfer.import_files(read_document(doc))
        svg = str(totals_chart(replays.load_game(o.game_id).state))
    assert "<b>" not in svg and "&lt;b&gt;Al&lt;/b&gt;" in svg
    ET.fromstring(svg)  # well formed


def test_nice_ticks_cover_the_highest_total():
    for top in (0, 1, 7, 49, 50, 51, 118, 999, 1000, 4321):
        ticks = nice_ticks(top)
        assert ticks[0] == 0 and ticks[-1] >= top and len(ticks) <= 6


def _drawn(chart) -> list[tuple[float, float]]:
    (line,) = re.findall(r'<polyline class="line[^"]*" points="([^"]+)"', str(chart))
    return [tuple(map(float, point.split(","))) for point in line.split()]


def test_a_rating_over_thousands_of_games_is_drawn_with_the_points_a_screen_can_tell_apart():
    import random

    rng = random.Random(13)
    values = [25.0]
    for _ in range(3659):
        values.append(values[-1] + rng.uniform(-1, 1))
    whole = [round(v, 1) for v in values]
    top, bottom = whole.index(max(whole)), whole.index(min(whole))
    chart = rating_chart("Ann", list(enumerate(values)), (top, values[top]), (bottom, values[bottom]))
    drawn = _drawn(chart)
    columns = (WIDTH - LEFT - RIGHT) / COLUMN + 1
    # At most four points a column (first, highest, lowest, last), from 3,660.
    assert len(drawn) <= 4 * columns < len(values) / 2
    # It starts and ends where the rating did, in order, and reaches its best and its worst.
    assert drawn[0][0] == LEFT and drawn[-1][0] == WIDTH - RIGHT
    assert [x for x, _ in drawn] == sorted(x for x, _ in drawn)
    ys = [y for _, y in drawn]
    ring = {float(cy) for cy in re.findall(r'class="peak" cx="[^"]+" cy="([^"]+)"', str(chart))}
    assert ring == {min(ys), max(ys)}


def test_a_rating_over_thousands_of_games_is_drawn_from_the_points_given_at_their_x():
    # A few points of a line over 3,659 games, as a player's rating path gives them.
    xs = sorted({0, 3659, *range(1, 3659, 19)})
    points = [(x, 25.0 + (x % 97) / 10 - (x % 13)) for x in xs]
    chart = rating_chart("Ann", points, points[1], points[-1])
    drawn = _drawn(chart)
    assert len(drawn) == len(points) <= RATING_POINTS
    plot = WIDTH - LEFT - RIGHT
    assert [x for x, _ in drawn] == [pytest.approx(LEFT + plot * x / 3659, abs=0.05) for x in xs]
    # The x axis still counts every game, and the words every figure.
    assert '>3659</text>' in str(chart) and "over 3659 rated games" in str(chart)
    assert f"from {points[0][1]:.1f} to {points[-1][1]:.1f}" in str(chart)


def test_a_short_line_is_drawn_point_for_point():
    chart = rating_chart("Ann", list(enumerate([25.0, 26.5, 24.0, 27.25, 25.5])))
    assert len(_drawn(chart)) == 5


def test_a_game_just_started_has_a_story_without_charts(web):
    gid = new_game(web, ANN_BEN_CAT)
    response = web.get(f"/games/{gid}/story")
    assert response.status_code == 200
    assert "Just started" in text(response)
    assert 'class="chart"' not in response.get_data(as_text=True)


@pytest.mark.parametrize("url", [
    "/games/999/story", "/players/999", "/games/999.json", "/games/999.csv", "/games/999/delete",
    "/games/999/purge", "/games/abc/story",
])
def test_unknown_ids_are_404(web, four, url):
    assert web.get(url).status_code == 404


@pytest.mark.parametrize("vs, status, message", [
    ("abc", 404, '"abc" is not a player number.'),
    ("999", 404, "There is no player number 999."),
])
def test_an_unknown_head_to_head_is_explained(web, app, four, vs, status, message):
    response = web.get(f"/players/{player_id(app, 'Ann')}?vs={vs}")
    assert response.status_code == status
    assert message in text(response)


def test_head_to_head_with_someone_never_met_or_oneself(web, app, four):
    web.post("/players/", data={"name": "Zed"})
    ann = player_id(app, "Ann")
    assert "Zed and Ann have not played a game together." in text(web.get(f"/players/{ann}?vs={player_id(app, 'Zed')}"))
    assert "Choose someone else" in text(web.get(f"/players/{ann}?vs={ann}"))
    assert "has not played a game yet" in text(web.get(f"/players/{player_id(app, 'Zed')}"))


def test_the_board_marks_the_player_who_went_out_as_having_made_the_contract_as_the_story_does(web):
    from factories import board, save_round, text_of

    game_id = new_game(web, ["Ann", "Ben", "Cat"])  # Balmoral: a ladder
    save_round(web, game_id, 1, went_out=1, hands={0: "A", 2: "2"}, achieved=[2])
    body = board(web, game_id).get_data(as_text=True)
    row = re.search(r'<table class="round-table">.*?<tbody>(.*?)</tbody>', body, re.S).group(1)
    cells = [text_of(c) for c in re.findall(r'<td class="num[^"]*">(.*?)</td>', row, re.S)]
    assert cells == ["15", "0 ★ went out ✓ made the level", "2 ✓ made the level"]
    assert "Ben Level 1 ✓ made ★ went out 0 0" in text(web.get(f"/games/{game_id}/story"))


@pytest.mark.parametrize("games", [1, 6, 16, 20, 99, 100, 1426, 3659, 12345])
def test_the_x_axis_is_labelled_at_round_numbers_with_room_between_labels(games):
    chart = rating_chart("Ann", [(i, 25.0 + (i % 7)) for i in range(games + 1)])
    labels = [(float(x), text) for x, text in re.findall(
        r'<text class="tick" x="([^"]+)" y="[^"]+" text-anchor="middle">(\d+)</text>', str(chart))]
    numbers = [int(t) for _, t in labels]
    assert numbers[0] == 0 and numbers[-1] == games
    steps = {b - a for a, b in zip(numbers[:-2], numbers[1:-1], strict=True)}
    assert len(steps) <= 1 and all(str(step).strip("0") in {"1", "2", "25", "5"} for step in steps)
    # Each label about 7 units a digit wide at 12px: none runs into the next.
    for (x, t), (next_x, u) in zip(labels, labels[1:], strict=False):
        assert next_x - x >= (len(t) + len(u)) * 7 / 2 + 4, (t, u)


def test_a_player_keeps_their_colour_from_game_to_game_and_their_name_links_to_them(web, app):
    from factories import player_id, save_round

    first = new_game(web, ["Ann", "Ben", "Cat"])
    second = new_game(web, ["Cat", "Dan", "Ann"])
    for game_id in (first, second):
        save_round(web, game_id, 1, went_out=0, hands={1: "A", 2: "2"})
    history = web.get("/history").get_data(as_text=True)
    dots = {}
    for pid, colour, name in re.findall(r'<a class="who" href="/players/(\d+)"><span class="dot seat-(\d)"[^>]*></span>(\w+)</a>',
                                        history):
        dots.setdefault(name, set()).add(colour)
        assert int(pid) == player_id(app, name)
    assert set(dots) == {"Ann", "Ben", "Cat", "Dan"}
    assert all(len(colours) == 1 for colours in dots.values()), dots
    assert len({c for colours in dots.values() for c in colours}) == 4
    # The charts of both games draw Cat in the same colour.
    lines = [[el.get("class") for el in polylines(svg_of(web.get(f"/games/{g}/story"), "totals-chart"))]
             for g in (first, second)]
    assert lines[0][2] == lines[1][0] == f"line seat-{dots['Cat'].pop()}"


def test_each_legend_entry_draws_its_players_line_in_the_same_colour_and_pattern(web, four):
    response = web.get(f"/games/{four[0]}/story")
    body = response.get_data(as_text=True)
    for chart_id in ("totals-chart", "levels-chart"):
        lines = {}
        for group in svg_of(response, chart_id).iter():
            if group.get("class") == "series":
                name = next(el.text for el in group if el.tag.endswith("title"))
                lines[name] = next(el.get("class") for el in group if el.tag.endswith("polyline"))
        section = body[body.index(f'id="{chart_id}"'):]
        legend = section[section.index('<ul class="legend"'):section.index("</ul>")]
        keys = dict((name, cls) for cls, name in re.findall(r'<line class="([^"]+)"[^>]*/></svg>([^<]+?) <strong>', legend))
        assert keys == lines, chart_id
        assert len(set(keys.values())) == len(keys)
