"""Player statistics and the player pages, checked against figures worked out by hand in
history_games.py (games 1 to 4)."""

from __future__ import annotations

from collections import Counter

import pytest
from factories import (
    player_id,
    text,
    upload,
)
from history_games import G3, random_docs
from hypothesis import given
from hypothesis import strategies as st
from sqlalchemy import select

from scorekeeper.club import history, statistics
from scorekeeper.rules import BALMORAL
from scorekeeper.store.figures.summaries import climbs_of
from scorekeeper import store
from scorekeeper.files import transfer
from scorekeeper.files.transfer import backup as export_all
from scorekeeper.files.gamefile import backup_document, read_document
from scorekeeper.store.figures import summaries
from scorekeeper.store.models import Game, Player, Seat, db

# =============================================================== statistics, by hand


def stats_of(app, name):
    with app.app_context():
        return history.player_stats(player_id(app, name))


def test_results_per_rule_set_agree_with_the_hand_worked_figures(app, four):
    ann = stats_of(app, "Ann")
    bal, cla = ann.by_rules["balmoral"], ann.by_rules["classic"]
    assert (bal.played, bal.finished, bal.won, bal.shared) == (2, 1, 0, 0)
    assert bal.finals_total == 52 and bal.average_final == 52 and bal.best_final == 52
    assert (bal.rounds, bal.penalty, bal.went_out) == (9, 56, 1)
    assert bal.average_penalty == pytest.approx(56 / 9)
    assert bal.win_rate == 0
    assert (cla.played, cla.finished, cla.won, cla.shared) == (2, 2, 2, 1)
    assert cla.finals_total == 27 and cla.average_final == 13.5 and cla.best_final == 5
    assert (cla.rounds, cla.penalty, cla.went_out) == (14, 27, 7)
    assert cla.win_rate == 1
    o = ann.overall
    assert (o.played, o.finished, o.won, o.shared, o.rounds, o.penalty, o.went_out) == (4, 3, 2, 1, 23, 83, 8)
    assert o.win_rate == pytest.approx(2 / 3)
    assert list(ann.by_rules) == ["balmoral", "classic"]


def test_the_ladder_counts_the_rounds_each_level_took(app, four):
    ann = stats_of(app, "Ann")
    level = {lv.level: lv for lv in ann.levels}
    assert len(level) == 7
    # Level 1: 2 rounds in game 1, 1 round in game 2.
    assert (level[1].made, level[1].rounds_to_make, level[1].longest, level[1].average) == (2, 3, 2, 1.5)
    # Level 2: never made; game 1 ended with Ann on it after 5 rounds (game 2 is still going: not counted).
    assert (level[2].made, level[2].ended_on, level[2].rounds_ended_on, level[2].average) == (0, 1, 5, None)
    assert all(level[n].made == 0 and level[n].ended_on == 0 for n in range(3, 8))
    assert ann.slowest_level.level == 1
    ben = {lv.level: lv for lv in stats_of(app, "Ben").levels}
    # Ben: level 1 in 1 round (game 1) and 2 rounds (game 2); levels 2 to 7 one round each.
    assert (ben[1].made, ben[1].rounds_to_make) == (2, 3)
    assert [(ben[n].made, ben[n].rounds_to_make) for n in range(2, 8)] == [(1, 1)] * 6
    cat = {lv.level: lv for lv in stats_of(app, "Cat").levels}
    assert (cat[1].made, cat[1].rounds_to_make, cat[2].ended_on, cat[2].rounds_ended_on) == (1, 1, 1, 6)


def levels_one_climb_at_a_time(rules, climbs):
    """The ladder's figures worked out climb by climb, as they were before climbs were counted
    part by part: what :func:`statistics.levels` must still give."""
    tallies = {stage.number: statistics.LevelTally(stage.number, stage.contract) for stage in rules.stages}
    for made, stuck_level, stuck_rounds in climbs:
        for level, spent in climbs_of(made):
            tally = tallies.setdefault(level, statistics.LevelTally(level, ""))
            tally.made += 1
            tally.rounds_to_make += spent
            tally.longest = max(tally.longest, spent)
        if stuck_level is not None:
            tally = tallies.setdefault(stuck_level, statistics.LevelTally(stuck_level, ""))
            tally.ended_on += 1
            tally.rounds_ended_on += stuck_rounds or 0
    return [tallies[k] for k in sorted(tallies)]


def a_climb(draw_levels):
    """A seat's stored climbs: "level:rounds" for levels made in order (up to 9: a house ladder
    may once have had more levels than Balmoral's), and the level it was stuck on, if any."""
    return st.tuples(
        st.lists(st.integers(1, 12), max_size=draw_levels).map(
            lambda spent: " ".join(f"{level}:{n}" for level, n in enumerate(spent, start=1))),
        st.one_of(st.none(), st.integers(1, 9)),
        st.one_of(st.none(), st.integers(0, 12)),
    ).map(lambda c: (c[0], c[1], c[2] if c[1] is not None else None))


@given(st.lists(a_climb(9), max_size=60))
def test_the_ladder_counted_part_by_part_agrees_with_counting_climb_by_climb(climbs):
    assert statistics.levels(BALMORAL, climbs) == levels_one_climb_at_a_time(BALMORAL, climbs)


def stats_game_by_game(player_id):
    """A player's figures added up game by game from the stored summaries of every kept game,
    in Python: what the sums SQL works out must agree with them."""
    by_rules, opponents, climbs, starts = {}, Counter(), {}, []
    for g in summaries.read(Game.deleted_at.is_(None)):
        at = g.seat_of(player_id)
        if at is None:
            continue
        opponents.update(s.player_id for s in g.seats if s.player_id != player_id)
        if not g.worked_out:
            continue
        seat = g.seats[at]
        t = by_rules.setdefault(g.rules, statistics.Tally())
        t.played += 1
        if g.finished:
            t.finished += 1
            t.finals_total += seat.total
            t.best_final = seat.total if t.best_final is None else min(t.best_final, seat.total)
            if seat.won:
                t.won += 1
                t.shared += len(g.winner_seats) > 1
        t.rounds += g.rounds
        t.penalty += seat.total
        t.went_out += seat.times_out
        climbs.setdefault(g.rules, []).append((" ".join(f"{level}:{n}" for level, n in seat.climbs),
                                               *(seat.stuck or (None, None))))
        starts.append(g.started_at)
    return by_rules, dict(opponents), climbs, starts


def test_the_statistics_added_up_in_sql_agree_with_adding_up_game_by_game(app):
    from scorekeeper.rules import PHASE10, GameSetup, Progression, RoundRecord, ruleset_document

    with app.app_context():
        ids = [o.game_id for o in transfer.import_files(read_document(backup_document(
            random_docs(24, seed=3) + random_docs(4, seed=8, rules=PHASE10))))]
        # A second ladder of the same kind: a table's own Phase 10, with phases made.
        document = ruleset_document(PHASE10)
        document["name"] = "Phase 10 at the Pub"
        house = store.save_ruleset(document)
        game, _ = store.create_game(GameSetup.create(house.rules, ["Ann", "Ben", "Cat"]))
        for number in range(1, 4):
            store.record_round(game.id, number, RoundRecord.create(
                "Ann", {"Ben": "12", "Cat": "1"}, None, ["Ben"], None, deck=house.rules.deck))
        for gid in ids[::7]:
            store.delete_game(gid)
        for pid in db.session.scalars(select(Player.id)):
            stats = history.player_stats(pid)
            by_rules, opponents, climbs, starts = stats_game_by_game(pid)
            assert stats.by_rules == by_rules
            assert {o.player_id: o.games for o in stats.opponents} == opponents
            assert (stats.first_played, stats.last_played) == (min(starts, default=None), max(starts, default=None))
            assert [ladder.key for ladder in stats.ladders] == [k for k in stats.by_rules
                                                                 if stats.rules(k).progression is Progression.LADDER]
            for ladder in stats.ladders:
                assert ladder.levels == statistics.levels(ladder.rules, climbs[ladder.key])
            assert any(ladder.key == house.key for ladder in stats.ladders) == (pid in game_players(game.id))


def game_players(game_id):
    return {s.player_id for s in db.session.scalars(select(Seat).where(Seat.game_id == game_id))}


def test_a_player_who_never_played_balmoral_has_no_ladder(app):
    with app.app_context():
        transfer.import_files(read_document(G3))
    assert stats_of(app, "Ann").levels == []


def head_to_head(app, stats, name):
    opponent = player_id(app, name)
    with app.app_context():
        return history.head_to_head(stats, opponent)


def test_head_to_head_counts_who_finished_ahead_and_who_won(app, four):
    ann = stats_of(app, "Ann")
    ben = head_to_head(app, ann, "Ben")
    # Game 1: 52 v 0 behind; game 3: 22 v 46 ahead; game 4: 5 v 38 ahead; game 2 unfinished.
    assert (ben.games, ben.finished, ben.ahead, ben.behind, ben.level) == (4, 3, 2, 1, 0)
    assert (ben.player_won, ben.opponent_won) == (2, 1)
    cat = head_to_head(app, ann, "Cat")
    # Game 1: 52 v 40 behind; game 3: 22 v 37 ahead; game 4: 5 v 5 level (both won).
    assert (cat.games, cat.finished, cat.ahead, cat.behind, cat.level) == (3, 3, 1, 1, 1)
    assert (cat.player_won, cat.opponent_won) == (2, 1)
    assert [o.name for o in ann.opponents] == ["Ben", "Cat"]
    assert [o.games for o in ann.opponents] == [4, 3]


def test_recent_games_are_newest_first_with_the_outcome_from_the_players_seat(app, four):
    ann = stats_of(app, "Ann")
    assert [pg.summary.id for pg in ann.recent] == list(reversed(four))
    assert [pg.outcome for pg in ann.recent] == ["shared the win", "won", "in progress", "3rd of 3"]
    assert [pg.total for pg in ann.recent] == [5, 22, 4, 52]


def test_deleted_games_leave_the_statistics(app, four):
    with app.app_context():
        store.delete_game(four[2])  # game 3, classic, Ann won
    ann = stats_of(app, "Ann")
    assert ann.by_rules["classic"].played == 1
    assert ann.overall.won == 1
    with app.app_context():
        store.restore_game(four[2])
    assert stats_of(app, "Ann").overall.won == 2


def test_the_player_page_shows_the_figures(web, app, four):
    page = text(web.get(f"/players/{player_id(app, 'Ann')}"))
    assert "Ann" in page
    assert "Games won 2 of 3" in page
    assert "Win rate 67%" in page
    assert "Balmoral Rummy Played 2 (1 in progress) Won 0 of 1 Win rate 0% Average final 52.0 Best final 52" in page
    assert "Average final 13.5 Best final 5 Penalty a round 1.9 Went out 7 of 14 rounds" in page
    assert "1 3 sets of 3 slowest 2 1.5 2 0" in page


def test_the_head_to_head_on_the_player_page(web, app, four):
    ann, cat = player_id(app, "Ann"), player_id(app, "Cat")
    page = text(web.get(f"/players/{ann}?vs={cat}"))
    assert "3 games together" in page
    assert "Finished ahead (lower total) 1 1" in page
    assert "Won the game 2 1" in page
    assert "Ties (the same total): 1" in page


def test_the_roster_links_each_player_to_their_page(web, app, four):
    body = web.get("/players/").get_data(as_text=True)
    assert f'href="/players/{player_id(app, "Cat")}"' in body


def test_statistics_agree_with_the_exported_results_after_importing_a_backup(web, app):
    docs = random_docs(40, seed=11)
    response = upload(web, backup_document(docs), "backup.json")
    assert response.status_code == 200, text(response)
    assert "40 games imported" in text(response)
    with app.app_context():
        exported = export_all()["games"]
        players = db.session.scalars(select(Player)).all()
        ids = {p.name: p.id for p in players}
    # Every page renders.
    pages = 0
    while True:
        pages += 1
        response = web.get(f"/history?page={pages}")
        assert response.status_code == 200
        if "Older →" not in text(response):
            break
    assert pages == 2
    with app.app_context():
        game_ids = store.all_game_ids()
    for gid in game_ids:
        assert web.get(f"/games/{gid}/story").status_code == 200
    # The figures on every player page are those of the exported results.
    for name, pid in ids.items():
        assert web.get(f"/players/{pid}").status_code == 200
        mine = [g for g in exported if name in g["players"]]
        finished = [g for g in mine if g["result"]["finished"]]
        won = [g for g in finished if name in g["result"]["winners"]]
        finals = [next(p["total"] for p in g["result"]["players"] if p["name"] == name) for g in finished]
        penalties = [pen for g in mine for p in g["result"]["players"] if p["name"] == name for pen in p["penalties"]]
        outs = sum(1 for g in mine for r in g["rounds"] if r["went_out"] == name)
        s = stats_of(app, name).overall
        assert (s.played, s.finished, s.won) == (len(mine), len(finished), len(won))
        assert (s.finals_total, s.best_final) == (sum(finals), min(finals, default=None))
        assert (s.rounds, s.penalty, s.went_out) == (len(penalties), sum(penalties), outs)
        page = text(web.get(f"/players/{pid}"))
        assert f"Games won {len(won)} of {len(finished)}" in page


@pytest.mark.parametrize("language, rate", [("en", "67%"), ("de", "67\u00a0%"), ("fr", "67\u00a0%"), ("fi", "67\u00a0%"),
                                            ("es", "67\u00a0%")])
def test_a_win_rate_is_written_as_the_readers_language_writes_a_percentage(web, app, four, language, rate):
    page = web.get(f"/players/{player_id(app, 'Ann')}", headers={"Accept-Language": language}).get_data(as_text=True)
    assert f">{rate}<" in page
