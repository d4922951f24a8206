"""The roster (``store.players``): a name once, a rename is a change to every game the player
sat at, and a player who has played stays."""

from __future__ import annotations

import pytest
from factories import a_round, start_game, version_of

from scorekeeper import store


def test_a_name_is_on_the_roster_once_however_it_is_spelled(app):
    with app.app_context():
        store.add_player("Ann")
        with pytest.raises(store.PlayerNameError):
            store.add_player("  ann ")
        assert [p.name for p in store.roster()] == ["Ann"]


def test_a_rename_moves_the_version_of_every_game_the_player_sat_at_and_no_other(app):
    with app.app_context():
        with_ann, without = start_game(), start_game(("Ben", "Cat"))
        ann = store.find_player("Ann").id
        store.rename_player(ann, "Annie")
        assert (version_of(with_ann), version_of(without)) == (2, 1)
        assert store.load(with_ann).state.setup.players[0] == "Annie"
        store.rename_player(ann, "Annie")  # the same name: nothing changes
        assert version_of(with_ann) == 2


def test_a_rename_to_another_players_name_is_refused(app):
    with app.app_context():
        start_game()
        with pytest.raises(store.PlayerNameError):
            store.rename_player(store.find_player("Ann").id, "BEN")
        assert store.find_player("Ann") is not None


def test_a_player_who_has_played_stays_on_the_roster(app):
    with app.app_context():
        game_id = start_game()
        store.record_round(game_id, 1, a_round("Ann", {"Ben": "K", "Cat": "5"}))
        with pytest.raises(store.PlayerNameError):
            store.remove_player(store.find_player("Ben").id)
        dev = store.add_player("Dev").id
        store.remove_player(dev)
        assert store.games_played_by_everyone()[store.find_player("Ben").id].kept == 1
        assert store.get_player(dev) is None
