"""Games: the list, starting a new game, the scoreboard, playing again."""

from __future__ import annotations

from flask import Blueprint, abort, flash, request, url_for

from .. import store
from ..forms import ConfirmForm, NewGameForm
from ..rules import RULESETS, GameSetup, SetupError, get_rules, name_key
from .common import go, render

bp = Blueprint("games", __name__)

MAX_SEATS = 8


@bp.get("/")
def index():
    loaded = store.load_many(store.recent_game_ids(limit=100))
    playing = [g for g in loaded if not g.state.finished]
    finished = [g for g in loaded if g.state.finished]
    return render("index.html", playing=playing, finished=finished)


def _seats_from_form(form) -> list[str]:
    seats = [form.get(f"seat-{i}", "").strip()[:80] for i in range(MAX_SEATS)]
    return [s for s in seats if s]


def _apply_seat_action(seats: list[str], dealer: int, form) -> tuple[list[str], int]:
    """The buttons that arrange the table before a game starts."""
    if "pick" in form:
        name = form["pick"]
        if len(seats) < MAX_SEATS and name_key(name) not in {name_key(s) for s in seats}:
            seats.append(name)
    elif form.get("up", "").isdigit():
        i = int(form["up"])
        if 0 < i < len(seats):
            seats[i - 1], seats[i] = seats[i], seats[i - 1]
            dealer = {i: i - 1, i - 1: i}.get(dealer, dealer)
    elif form.get("drop", "").isdigit():
        i = int(form["drop"])
        if i < len(seats):
            del seats[i]
            dealer = dealer - 1 if dealer > i else (0 if dealer == i else dealer)
    return seats, min(dealer, max(len(seats) - 1, 0))


@bp.route("/games/new", methods=["GET", "POST"])
def new_game():
    form = NewGameForm()
    seats: list[str] = []
    dealer = 0
    errors: dict[str, list[str]] = {}
    if request.method == "GET":
        from_game = request.args.get("like", type=int)
        if from_game:
            seats, dealer = _like(from_game, form)
    else:
        seats = _seats_from_form(request.form)
        dealer = request.form.get("dealer", "0")
        dealer = int(dealer) if dealer.isdigit() else 0
        seats, dealer = _apply_seat_action(seats, dealer, request.form)
        if "start" in request.form:
            if form.validate_on_submit():
                rules = get_rules(form.rules.data) if form.rules.data in RULESETS else None
                try:
                    setup = GameSetup.create(
                        rules,
                        seats,
                        first_dealer=seats[dealer] if seats else None,
                        dealer_rule=form.dealer_rule.data if rules.key == "balmoral" else None,
                        decks=form.decks.data,
                        jokers=form.jokers.data,
                    )
                except SetupError as exc:
                    for problem in exc.problems:
                        errors.setdefault(problem.field or "players", []).append(str(problem))
                else:
                    game = store.create_game(setup)
                    return go(url_for("games.scoreboard", game_id=game.id))
            else:
                for name, messages in form.errors.items():
                    errors.setdefault(name, []).extend(messages)
    rules = RULESETS.get(form.rules.data or "balmoral", RULESETS["balmoral"])
    suggested = rules.suggested_decks(max(len(seats), rules.min_players))
    taken = {name_key(s) for s in seats}
    roster = [p for p in store.roster() if p.name_key not in taken]
    status = 422 if errors else 200
    return render(
        "new_game.html",
        status,
        form=form,
        seats=seats,
        dealer=dealer,
        blank_seats=max(0, min(MAX_SEATS, max(len(seats) + 1, 4)) - len(seats)),
        errors=errors,
        rules=rules,
        rulesets=RULESETS,
        suggested=suggested,
        roster=roster,
    )


def _like(game_id: int, form: NewGameForm) -> tuple[list[str], int]:
    try:
        loaded = store.load(game_id)
    except store.NotFound:
        abort(404)
    setup = loaded.state.setup
    form.rules.data = setup.rules.key
    form.dealer_rule.data = setup.dealer_rule.value
    form.decks.data = setup.decks
    form.jokers.data = setup.jokers
    dealer = (setup.seat_of(setup.first_dealer) + 1) % len(setup.players)
    return list(setup.players), dealer


@bp.get("/games/<int:game_id>")
def scoreboard(game_id: int):
    try:
        loaded = store.load(game_id)
    except store.NotFound:
        abort(404)
    return render("scoreboard.html", loaded=loaded, game=loaded.game, state=loaded.state, confirm=ConfirmForm())


@bp.post("/games/<int:game_id>/again")
def play_again(game_id: int):
    """Start a new game with the same seats, the first deal moved one seat on."""
    form = ConfirmForm()
    if not form.validate_on_submit():
        abort(400)
    try:
        old = store.load(game_id).state.setup
    except store.NotFound:
        abort(404)
    dealer = old.players[(old.seat_of(old.first_dealer) + 1) % len(old.players)]
    setup = GameSetup(old.rules, old.players, dealer, old.dealer_rule, old.decks, old.jokers)
    game = store.create_game(setup)
    flash(f"New game with the same players: {dealer} deals first.", "ok")
    return go(url_for("games.scoreboard", game_id=game.id))
