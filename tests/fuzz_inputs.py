"""Hypothesis strategies for the fuzz tests: hostile text, and rounds and games near enough to
real ones that they get past the first check and reach the rules.

A "near" document is a valid one with a few (possibly zero) mutations drawn from what hurts
web apps: markup and script, SQL, invisible and reversed text, huge and negative numbers,
wrong types, unknown fields. Zero mutations is the simplest case, so Hypothesis shrinks a
failure towards the valid document and the one mutation that matters.
"""

from __future__ import annotations

from hypothesis import strategies as st

from scorekeeper.rules.cards import MAX_HAND_TEXT
from scorekeeper.rules.replay import MAX_NAME, name_key

PLAYERS = ["Ann", "Ben", "Cat", "Dev"]

#: Names a card table may really type: all valid, all must come back escaped and unchanged.
ODD_BUT_VALID_NAMES = [
    "<script>alert(1)</script>", "<img src=x onerror=alert(1)>", "'; DROP TABLE player;--", '" OR 1=1 --',
    "{{7*7}}", "${jndi:ldap://x/a}", "Zoë", "李雷", "\U0001f0a1 Ace", "O'Brien & Sons", "x" * MAX_NAME,
    "&lt;b&gt;", "%s%s%n", "١٢٣",
]
#: Text no name or hand may be: control characters, bidi overrides, zero-width, too long, empty.
REFUSED_TEXT = [
    "Ann\u202e", "\u202eAnn", "A\x00nn", "Ann\u200b", "\ufeffBen", "Cat\r\nSet-Cookie: x=1", "Dev\x1b[31m",
    "x" * (MAX_NAME + 1), "ß" * MAX_NAME, "\ufb03" * MAX_NAME, " ", "", "\u2066Eve\u2069", "\x7f", "\x85",
]
#: Texts that are no hand of cards (or too many cards).
NOT_HANDS = [
    "<script>alert(1)</script>", "'; DROP TABLE hand;--", "A" * (MAX_HAND_TEXT + 1), "K" * 5000, "²",
    "1e9", "-5", "A\x00K", "A\u202eK", "K " * 200, "tajqk98765432" * 30, "11", "0", "JKJKJKJKJK", "🂡",
]
HOSTILE = ODD_BUT_VALID_NAMES + REFUSED_TEXT + NOT_HANDS
#: Numbers and non-numbers where a count or a points total belongs.
ODD_NUMBERS = [-5, -1, 0, 1, 10**9, 10**30, 2**63, 1.5, 1e308, "12", "", None, True, [], {}]

RANKS = ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2"]
TYPED_RANKS = RANKS + ["t", "k", "a", "ak77", "10jq"]

hostile_text = st.one_of(
    st.sampled_from(HOSTILE),
    st.text(max_size=MAX_NAME + 5),
    st.text(st.characters(categories=["Cc", "Cf", "Zs", "Zl", "Zp", "Mn", "Co", "Cs"]), min_size=1, max_size=8),
)
odd_values = st.one_of(st.sampled_from(ODD_NUMBERS), hostile_text, st.integers())


def card_text(jokers: bool) -> st.SearchStrategy[str]:
    ranks = TYPED_RANKS + (["JK", "joker", "*"] if jokers else [])
    return st.lists(st.sampled_from(ranks), max_size=7).map(" ".join)


@st.composite
def near_round(draw, players: list[str] = PLAYERS, numbered: bool = False, jokers: bool = False,
               ladder: bool = True) -> dict:
    """A round of a game with ``players``: valid, then up to three hostile mutations."""
    went_out = draw(st.sampled_from(players))
    doc: dict = {"went_out": went_out, "hands": {}, "points": {}}
    for name in players:
        if name == went_out:
            continue
        if draw(st.integers(0, 3)):
            doc["hands"][name] = draw(card_text(jokers))
        else:
            doc["points"][name] = draw(st.sampled_from([0, 2, 35, 60]))
    if ladder:
        doc["achieved"] = draw(st.lists(st.sampled_from(players), max_size=2, unique=True))
    if numbered:
        doc["number"] = draw(st.integers(1, 5))
    for _ in range(draw(st.integers(0, 3))):
        mutation = draw(st.integers(0, 8))
        target = draw(st.sampled_from(players))
        if not (isinstance(doc["hands"], dict) and isinstance(doc["points"], dict)):
            mutation = 0  # an earlier mutation made them no objects
        if mutation == 0:
            doc["went_out"] = draw(st.one_of(hostile_text, odd_values))
        elif mutation == 1:
            doc["hands"][target] = draw(st.one_of(st.sampled_from(NOT_HANDS), hostile_text, odd_values))
        elif mutation == 2:
            doc["points"][target] = draw(odd_values)
        elif mutation == 3:
            doc["hands"][draw(hostile_text)] = draw(card_text(jokers))
        elif mutation == 4:
            doc[draw(st.sampled_from(["surprise", "went out", "hands ", "result", "__proto__"]))] = draw(odd_values)
        elif mutation == 5:
            doc["hands"].pop(target, None)
            doc["points"].pop(target, None)
        elif mutation == 6:
            doc["achieved"] = draw(st.one_of(st.lists(hostile_text, max_size=9), odd_values))
        elif mutation == 7:
            doc["number"] = draw(odd_values)
        else:
            field = draw(st.sampled_from(["hands", "points"]))
            doc[field] = draw(odd_values)
    return doc


TIMES = ["2026-11-29T19:05:00Z", "2026-11-29T19:05:00+01:00", "2026-11-29", "0001-01-01T00:00:00+01:00",
         "9999-12-31T23:59:59-01:00", "0001-01-01T00:00:00Z", "not a time", "2026-13-45T99:99:99Z"]


@st.composite
def near_game(draw) -> dict:
    """A game file: valid (odd names and all), then up to three hostile mutations."""
    rules = draw(st.sampled_from(["balmoral", "classic"]))
    pool = PLAYERS + ODD_BUT_VALID_NAMES + ["Eve", "Fay", "Gus", "Hal"]
    players = draw(st.lists(st.sampled_from(pool), min_size=3, max_size=8, unique_by=name_key))
    doc: dict = {"format": "scorekeeper-game/1", "rules": rules, "players": players,
                 "first_dealer": draw(st.sampled_from(players))}
    if draw(st.booleans()):
        doc["decks"] = draw(st.integers(1, 8))
        doc["jokers"] = draw(st.integers(0, 8)) if rules == "classic" else 0
    if rules == "balmoral" and draw(st.booleans()):
        doc["dealer_rule"] = draw(st.sampled_from(["winner", "rotate"]))
    if draw(st.booleans()):
        doc["started_at"] = draw(st.sampled_from(TIMES))
    doc["rounds"] = draw(st.lists(near_round(players, jokers=rules == "classic", ladder=rules == "balmoral"),
                                  max_size=3))
    if draw(st.booleans()):
        doc["result"] = {"finished": False, "winners": []}
    for _ in range(draw(st.integers(0, 3))):
        field = draw(st.sampled_from(["format", "rules", "players", "first_dealer", "dealer_rule", "decks",
                                      "jokers", "started_at", "finished_at", "rounds", "result", "surprise"]))
        if field == "players" and draw(st.booleans()):
            doc["players"] = [*players[:-1], draw(hostile_text)]
        elif field in ("decks", "jokers") and draw(st.booleans()):
            doc[field] = draw(st.sampled_from([0, -1, 9, 10**20]))
        elif field in ("started_at", "finished_at"):
            doc[field] = draw(st.one_of(st.sampled_from(TIMES), odd_values))
        else:
            doc[field] = draw(odd_values)
    return doc
