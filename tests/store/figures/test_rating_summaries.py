"""The stored ratings (``store.figures.rating_summaries``): the rows every change writes are what
rating every game from nothing gives, in finish order then by id; a correction rates again from
the game it changed on, a delete takes a game out and a restore puts it back, a rename changes
nothing, a game is rated once it finishes; a scope rates one rule set or one year; a rebuild
finds rows tampered with and mends them; a player's path and latest games are read from the rows
as their whole history has them.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest
from factories import import_docs
from history_games import classic_doc, game, out, random_docs
from sqlalchemy import case, select, update

from scorekeeper import store
from scorekeeper.rules import RoundRecord
from scorekeeper.store.figures import rating_summaries, ratings
from scorekeeper.store.figures.ratings import rate
from scorekeeper.store.models import Player, RatingSummary, db


@pytest.fixture
def club(app):
    """Four finished games; the first two end at the same time (the id decides)."""
    with app.app_context():
        ids = import_docs([
            classic_doc(["Ann", "Ben", "Cat"], "Ben", "2026-01-01T19:00:00Z", "2026-01-01T20:00:00Z"),
            classic_doc(["Ben", "Cat", "Dev"], "Dev", "2026-01-01T18:00:00Z", "2026-01-01T20:00:00Z"),
            classic_doc(["Ann", "Dev", "Cat"], "Ann", "2026-01-02T19:00:00Z", "2026-01-02T20:00:00Z"),
            classic_doc(["Cat", "Ann", "Ben"], "Cat", "2026-01-03T19:00:00Z", "2026-01-03T20:00:00Z"),
        ])
    return ids


def stored(app=None) -> dict[int, tuple]:
    """Every player's stored rating history over all games."""
    ids = db.session.scalars(select(Player.id)).all()
    return {pid: rating_summaries.history_of(pid).steps for pid in ids}


def test_the_stored_games_are_rated_in_finish_order_then_by_id(app, club):
    with app.app_context():
        standings = rating_summaries.standings()
        assert [s.game_id for s in standings] == club
        # Game 1: Ann goes out in deals 2 to 7; Ben went out in deal 1 and held a 2 in each
        # later deal (12), Cat 2 + 12 = 14, Ann K K K = 30: Ben first, Cat second, Ann third.
        ann, ben, cat = (store.find_player(n).id for n in ("Ann", "Ben", "Cat"))
        ranks = {e.player_id: e.rank for e in standings[0].entries}
        assert ranks == {ben: 1, cat: 2, ann: 3}
        # What the changes stored is what rating every game from nothing gives.
        expected = rate(standings)
        for pid, steps in stored().items():
            # (A stored step counts the player's games; the pure one, every match.)
            assert [replace(s, index=0) for s in steps] == [replace(s, index=0) for s in expected.of(pid).steps]
        assert rating_summaries.rebuild(fix=False) == []


def test_a_correction_of_an_old_game_changes_the_later_ratings(app, club, monkeypatch):
    with app.app_context():
        dev = store.find_player("Dev").id
        before = rating_summaries.history_of(dev)
        rated: list[int] = []
        real = ratings.rate
        monkeypatch.setattr(ratings, "rate", lambda matches, *a, **k: rated.append(len(matches)) or real(matches, *a, **k))
        # Game 3 corrected: Dev went out in deal 1, not Ann.
        store.replace_round(club[2], 1, RoundRecord.create("Dev", {"Ann": "K K K", "Cat": "2"}))
        # Worked out again from that game on: games 3 and 4 (all games; classic), game 3 (2026
        # all; classic 2026 hold the same games), never the games before it.
        assert max(rated) == 2
        after = rating_summaries.history_of(dev)
        assert after.steps[:1] == before.steps[:1] and after.rating != before.rating
        assert rating_summaries.rebuild(fix=False) == []
        # Game 1 corrected: everything after it moves.
        store.replace_round(club[0], 1, RoundRecord.create("Ann", {"Ben": "K K K", "Cat": "2"}))
        assert rating_summaries.history_of(dev).steps[1].before != after.steps[1].before
        assert rating_summaries.rebuild(fix=False) == []


def test_a_deleted_game_leaves_the_ratings_and_a_restore_brings_them_back(app, club):
    with app.app_context():
        before = stored()
        dev = store.find_player("Dev").id
        store.delete_game(club[1])
        assert rating_summaries.game_steps(club[1]) == {}
        assert rating_summaries.history_of(dev).games == 1
        ann = store.find_player("Ann").id
        assert rating_summaries.history_of(ann).rating != before[ann][-1].after
        assert rating_summaries.rebuild(fix=False) == []
        store.restore_game(club[1])
        assert stored() == before
        assert rating_summaries.rebuild(fix=False) == []


def test_a_rename_changes_no_rating(app, club):
    with app.app_context():
        before = stored()
        store.rename_player(store.find_player("Ann").id, "Annie")
        assert stored() == before


def test_a_game_in_progress_is_not_rated_until_it_finishes(app, club):
    with app.app_context():
        ids = import_docs([game("classic", ["Ann", "Eve", "Fay"], [out("Ann", {"Eve": "K", "Fay": "2"})],
                                "2026-01-05T19:00:00Z")])
        assert rating_summaries.game_steps(ids[0]) == {} and rating_summaries.history_of(store.find_player("Eve").id).games == 0
        for number in range(2, 8):
            store.record_round(ids[0], number, RoundRecord.create("Ann", {"Eve": "2", "Fay": "3"}))
        steps = rating_summaries.game_steps(ids[0])
        assert len(steps) == 3 and steps[store.find_player("Ann").id].rank == 1
        assert rating_summaries.rebuild(fix=False) == []
        # Deleting its last round: unfinished again, out of the ratings.
        store.delete_round(ids[0], 7)
        assert rating_summaries.game_steps(ids[0]) == {}
        assert rating_summaries.rebuild(fix=False) == []


def test_the_filters_rate_one_rule_set_and_this_year_only(app):
    now = datetime.now(UTC)
    with app.app_context():
        import_docs(random_docs(6, seed=2, start_at=now - timedelta(days=400)))
        recent = import_docs(random_docs(3, seed=3, start_at=datetime(now.year, 1, 1, 1, tzinfo=UTC)))
        every = rating_summaries.standings()
        year = rating_summaries.standings(year=now.year)
        assert {s.game_id for s in year} <= set(recent) and len(year) < len(every)
        classic = rating_summaries.standings("classic")
        assert classic and all(s.rules == "classic" for s in classic)
        this_year = rating_summaries.scope_of(year=now.year)
        assert rating_summaries.games_rated(this_year) == len(year)
        # Ratings of this year's games only start from nothing.
        for pid, (games, *_) in rating_summaries.latest_steps(this_year).items():
            assert rating_summaries.history_of(pid).games >= games
        assert rating_summaries.games_rated(rating_summaries.scope_of("classic")) == len(classic)
        assert rating_summaries.rebuild(fix=False) == []


def test_the_rebuild_command_finds_and_mends_tampered_ratings(app, club, runner):
    with app.app_context():
        db.session.execute(update(RatingSummary).where(RatingSummary.scope == "all").values(mu_after=1.0))
        db.session.commit()
    result = runner.invoke(args=["games", "rebuild", "--check"])
    assert result.exit_code == 1 and "ratings all:" in result.output
    result = runner.invoke(args=["games", "rebuild"])
    assert result.exit_code == 1 and "ratings all:" in result.output
    result = runner.invoke(args=["games", "rebuild"])
    assert result.exit_code == 0, result.output


# =============================================================== a player's rating read from the rows


def test_a_players_rating_path_holds_the_figures_of_their_whole_rating_history(app, season):
    with app.app_context():
        ids = list(db.session.scalars(select(Player.id))) + [999]
        # Each row names the player's best and lowest game so far, as their history up to it has them.
        for scope in ("all", "classic", "all/2026"):
            for pid in ids:
                steps = rating_summaries.history_of(pid, scope).steps
                for n, row in enumerate(db.session.scalars(select(RatingSummary).where(
                        RatingSummary.scope == scope, RatingSummary.player_id == pid)
                        .order_by(RatingSummary.games)), start=1):
                    so_far = ratings.PlayerRating(pid, steps[:n])
                    assert (row.best_at, row.lowest_at) == (so_far.number(so_far.best), so_far.number(so_far.worst))
        # Ties at the best and the lowest: Dev's rating goes 21, 22, 20, 21, 22, 20, ..., so the
        # first 22 is the best and the first 20 the lowest (the rows say so, as the writing would).
        dev = store.find_player("Dev").id
        db.session.execute(update(RatingSummary).where(RatingSummary.player_id == dev)
                           .values(mu_after=20 + RatingSummary.games % 3, sigma_after=0.0,
                                   best_at=case((RatingSummary.games >= 2, 2), else_=1),
                                   lowest_at=case((RatingSummary.games >= 3, 3), else_=1)))
        db.session.commit()
        for scope in ("all", "classic", "all/2026"):
            for pid in ids:
                whole = rating_summaries.history_of(pid, scope)
                line = [whole.steps[0].before] + [s.after for s in whole.steps] if whole.steps else []
                for most in (4, 5, 8, 13, 200):  # 200: as many as a player's page draws
                    path = rating_summaries.path_of(pid, scope, points=most)
                    assert path.games == whole.games and path.provisional == whole.provisional
                    if not whole.steps:
                        assert path.points == () and path.best is None and path.worst is None
                        continue
                    # The same doubles as Python's, so the same ties: equal, not nearly.
                    assert (path.start, path.rating) == (line[0], whole.rating)
                    # Points of the whole line, rising, from its first to its last, no more
                    # than asked for: every one if they fit, else spread along it.
                    xs = [x for x, _ in path.points]
                    assert path.points == tuple((x, line[x]) for x in xs)
                    assert xs == sorted(set(xs)) and (xs[0], xs[-1]) == (0, whole.games)
                    assert len(xs) <= most
                    if len(line) <= most:
                        assert len(xs) == len(line)
                    else:
                        assert max(b - a for a, b in zip(xs, xs[1:])) <= whole.games / (most - 4 + 1) + 1
                    for mine, theirs in ((path.best, whole.best), (path.worst, whole.worst)):
                        assert (mine.number, mine.game_id, mine.after) == (whole.number(theirs), theirs.game_id,
                                                                            theirs.after)
                        assert (mine.number, mine.after) in path.points
        with pytest.raises(ValueError):
            rating_summaries.path_of(dev, points=3)


def test_the_leaderboard_reads_each_players_last_games_as_their_whole_history_has_them(app, season):
    with app.app_context():
        ids = list(db.session.scalars(select(Player.id)))
        for scope in ("all", "classic", "balmoral", "all/2026", "all/1999"):
            latest = rating_summaries.latest_steps(scope)
            wholes = {pid: rating_summaries.history_of(pid, scope) for pid in ids}
            assert set(latest) == {pid for pid, whole in wholes.items() if whole.steps}
            for pid, (games, wins, last) in latest.items():
                whole = wholes[pid]
                assert (games, wins) == (whole.games, whole.wins)
                assert last == whole.steps[-ratings.RECENT:]


# =============================================================== a house rule set's own winner rule


def test_a_house_ladder_ranks_its_finishers_first_by_its_own_winner_rule(app):
    """A table's own copy of Phase 10 ("lowest-finisher"): Ann and Ben both complete phase 10 in
    the last round; Cat never does and holds the lowest total but Ann's. Ann wins, and Ben, a
    finisher, ranks above Cat: the game's own rules decide, not only a preset's."""
    from scorekeeper.store.figures import rating_summaries
    from scorekeeper import store
    from scorekeeper.rules import PHASE10, GameSetup, RoundRecord, ruleset_document

    document = ruleset_document(PHASE10)
    document["name"] = "Phase 10 at the Pub"
    with app.app_context():
        house = store.save_ruleset(document)
        setup = GameSetup.create(house.rules, ["Ann", "Ben", "Cat"])
        game, _ = store.create_game(setup)
        for number in range(1, 11):
            store.record_round(game.id, number, RoundRecord.create(
                "Ann", {"Ben": "12", "Cat": "1"}, None, ["Ben"], None, deck=house.rules.deck))
        state = store.load(game.id).state
        assert state.finished and state.winners == ("Ann",)
        assert [p.total for p in state.players] == [0, 100, 50]
        (standing,) = rating_summaries.standings()
    names = dict(zip(setup.players, (entry.rank for entry in standing.entries), strict=True))
    assert names == {"Ann": 1, "Ben": 2, "Cat": 3}
