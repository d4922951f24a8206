"""The round screen's presenter (scorekeeper/web/round_screen.py): what the screen says beside
its fields, worked out from the engine's state and the draft, in the reader's words."""

from scorekeeper.rules import BALMORAL, CLASSIC, GameSetup, RoundRecord, replay, start
from scorekeeper.web.forms.round import RoundDraft
from scorekeeper.web.round_screen import ending, last_words, side_by_side

GERMAN = {"Accept-Language": "de"}


def test_saving_ends_the_game_for_each_player_who_makes_the_last_level(app):
    setup = GameSetup.create(BALMORAL, ["Ann", "Ben", "Cat"])
    before = replay(setup, [RoundRecord.create("Ben", {"Ann": "2", "Cat": "2"}, achieved=["Ann"])] * 6)
    draft = RoundDraft.blank(7, 3)
    with app.test_request_context():
        assert ending(before, draft) == []
        draft.went_out = 1
        draft.seats[0].achieved = True
        assert ending(before, draft) == ["Ann completes level 7", "Ben completes level 7"]
        assert last_words(before) == ""


def test_the_last_deal_ends_the_game_whatever_happens_in_it(app):
    setup = GameSetup.create(CLASSIC, ["Ann", "Ben", "Cat"])
    before = replay(setup, [RoundRecord.create("Ann", {"Ben": "2", "Cat": "2"})] * 6)
    with app.test_request_context():
        assert ending(before, RoundDraft.blank(7, 3)) == ["deal 7 is the last"]
    with app.test_request_context(headers=GERMAN):
        assert last_words(start(setup)) == ""
        assert ending(before, RoundDraft.blank(7, 3)) == [last_words(before)] != ["deal 7 is the last"]


def test_two_versions_of_a_round_side_by_side_in_words(app):
    setup = GameSetup.create(BALMORAL, ["Ann", "Ben"])
    stored = {"went_out": "Ann", "hands": {"Ben": "K 7"}, "points": {}, "achieved": ["Ann"]}
    mine = {"went_out": "Ben", "hands": {}, "points": {"Ann": 35}, "achieved": ["Ben"]}
    with app.test_request_context():
        assert side_by_side(setup, stored, mine) == [("Ann", "went out", "35 points, no level"),
                                                     ("Ben", "K 7, no level", "went out")]
