"""Games: the list, starting a new game, the scoreboard, playing again."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from flask import Blueprint, Response, abort, current_app, flash, make_response, request, session, url_for
from wtforms import SelectChoice

from scorekeeper.web import assets, languages, links
from scorekeeper.web import keyring
from scorekeeper.web.languages import gettext, problem_words
from scorekeeper.club import history
from scorekeeper import store
from scorekeeper.web.forms import ConfirmForm, NewGameForm
from scorekeeper.store import MAX_ID, rules_of
from scorekeeper.web.forms.round import small_int
from scorekeeper.rules import GameSetup, RuleSet, RuleSetError, SetupError, name_key, same_rules
from scorekeeper.web.views import undone
from scorekeeper.web.views.common import go, held, is_htmx, key_page, no_store, render, whole_number

bp = Blueprint("games", __name__)

MAX_SEATS = 8


@bp.get("/")
def index():
    recent = history.recent_games(limit=100)
    playing = [g for g in recent if g.worked_out and not g.finished]
    finished = [g for g in recent if g.finished]
    return render("index.html", playing=playing, finished=finished)


def _seats_from_form(form) -> tuple[list[str], int, bool]:
    """The names typed into the seats, blanks closed up, the first dealer's place among them,
    and whether the seat marked to deal first was left without a name."""
    raw = [form.get(f"seat-{i}", "").strip()[:80] for i in range(MAX_SEATS)]
    chosen = small_int(form.get("dealer", "0")) or 0
    seats = [s for s in raw if s]
    named = chosen < MAX_SEATS and bool(raw[chosen])
    dealer = sum(1 for s in raw[:chosen] if s) if named else 0
    return seats, dealer, not named and bool(seats)


def _apply_seat_action(seats: list[str], dealer: int, form) -> tuple[list[str], int]:
    """The buttons that arrange the table before a game starts."""
    if "pick" in form:
        name = form["pick"]
        if len(seats) < MAX_SEATS and name_key(name) not in {name_key(s) for s in seats}:
            seats.append(name)
    elif small_int(form.get("up")) is not None:
        i = small_int(form["up"])
        if 0 < i < len(seats):
            seats[i - 1], seats[i] = seats[i], seats[i - 1]
            dealer = {i: i - 1, i - 1: i}.get(dealer, dealer)
    elif small_int(form.get("drop")) is not None:
        i = small_int(form["drop"])
        if i < len(seats):
            del seats[i]
            dealer = dealer - 1 if dealer > i else (0 if dealer == i else dealer)
    return seats, min(dealer, max(len(seats) - 1, 0))


@dataclass(frozen=True)
class RulesChoice:
    """One rule set the new-game page offers: a preset, a house rule set, or the rules an old
    game was played by (``game-ID``: "like this game" when those are no longer a listed one)."""

    value: str
    rules: RuleSet
    group: str


#: The start of the choice that keeps an old game's own rules (``game-12``).
_KEPT = "game-"


def _rules_choices(like: int | None) -> list[RulesChoice]:
    """Every preset, then every house rule set; first, when starting like an old game whose
    frozen rules are none of those any more (a house rule set changed or deleted since), those
    rules: a table that asks for "the same again" means the rules it just played by."""
    choices = [RulesChoice(e.key, e.rules, gettext("Built in") if e.preset else gettext("House rules"))
               for e in store.list_rulesets()]
    old = _frozen_rules(like)
    if old is not None and not any(c.value == old.key and same_rules(c.rules, old) for c in choices):
        choices.insert(0, RulesChoice(f"{_KEPT}{like}", old, gettext("As game %(number)s", number=like)))
    return choices


def _frozen_rules(game_id: int | None) -> RuleSet | None:
    """The rules a stored game keeps (its own frozen copy), or None if there is no such game."""
    if game_id is None or not 0 < game_id <= MAX_ID:
        return None
    game = store.get_game(game_id)
    if game is None:
        return None
    try:
        return rules_of(game)
    except RuleSetError:  # rules this version of the engine no longer reads: none to offer
        return None


def _like_id() -> int | None:
    """The game a new game is started like (``?like=``, then the form's hidden ``like``)."""
    raw = request.args.get("like") if request.method == "GET" else request.form.get("like")
    if raw is None or not (raw.isascii() and raw.isdigit()):
        return None
    # A number no game has (any too long to read is one): the page answers 404 (_like).
    return int(raw) if len(raw) <= 20 else MAX_ID + 1


@bp.route("/games/new", methods=["GET", "POST"])
def new_game():
    form = NewGameForm()
    seats: list[str] = []
    dealer = 0
    errors: dict[str, list[str]] = {}
    like = _like_id()
    choices = _rules_choices(like)
    form.rules.choices = [SelectChoice(c.value, c.rules.name) for c in choices]
    if request.method == "GET":
        if like is not None:
            seats, dealer = _like(like, form, choices)
        if form.rules.data not in {c.value for c in choices}:
            form.rules.data = choices[0].value
    else:
        seats, dealer, empty_dealer = _seats_from_form(request.form)
        seats, dealer = _apply_seat_action(seats, dealer, request.form)
        if "start" not in request.form and request.form.get("shown_rules") not in (None, form.rules.data):
            # The rules were changed: the decks and jokers typed were for the others; suggest anew.
            form.decks.data = form.jokers.data = None
            form.decks.raw_data = form.jokers.raw_data = []
        if "start" in request.form:
            if empty_dealer:
                errors["first_dealer"] = [gettext('The seat marked "deals first" has no name: type one, or mark another seat.')]
            elif form.validate_on_submit():
                rules = next(c.rules for c in choices if c.value == form.rules.data)
                try:
                    setup = GameSetup.create(
                        rules,
                        seats,
                        first_dealer=seats[dealer] if seats else None,
                        dealer_rule=form.dealer_rule.data if len(rules.dealer_rules) > 1 else None,
                        decks=form.decks.data,
                        jokers=form.jokers.data,
                    )
                except SetupError as exc:
                    for problem in exc.problems:
                        errors.setdefault(problem.field or "players", []).append(problem_words(problem))
                else:
                    game, key = store.create_game(setup)
                    keyring.remember(game.id, key)
                    return go(url_for("games.scoreboard", game_id=game.id))
            else:
                for name, messages in form.errors.items():
                    if name == "rules":
                        messages = [gettext("Choose the rules to play by: one of those listed.")]
                    errors.setdefault(name, []).extend(messages)
    chosen = next((c for c in choices if c.value == form.rules.data), choices[0])
    rules = chosen.rules
    suggested = rules.suggested_decks(min(max(len(seats), rules.min_players), rules.max_players))
    taken = {name_key(s) for s in seats}
    everyone = store.roster()
    known = {p.name_key: p.id for p in everyone}
    roster = [p for p in everyone if p.name_key not in taken]
    status = 422 if errors else 200
    return render(
        "new_game.html",
        status,
        form=form,
        seats=seats,
        dealer=dealer,
        blank_seats=max(0, min(MAX_SEATS, max(len(seats) + 1, 4)) - len(seats)),
        max_seats=MAX_SEATS,
        errors=errors,
        rules=rules,
        chosen=chosen,
        choices=choices,
        like=like,
        suggested=suggested,
        roster=roster,
        seat_players=[known.get(name_key(s)) for s in seats],
    )


def _like(game_id: int, form: NewGameForm, choices: list[RulesChoice]) -> tuple[list[str], int]:
    if not 0 < game_id <= MAX_ID:  # no game, and a number too big for the database to look up
        abort(404)
    try:
        loaded = store.load(game_id)
    except store.NotFound:
        abort(404)
    setup = loaded.state.setup
    kept = f"{_KEPT}{game_id}"
    form.rules.data = kept if any(c.value == kept for c in choices) else setup.rules.key
    form.dealer_rule.data = setup.dealer_rule.value
    form.decks.data = setup.decks
    form.jokers.data = setup.jokers if setup.rules.uses_jokers else None
    dealer = (setup.seat_of(setup.first_dealer) + 1) % len(setup.players)
    return list(setup.players), dealer


def _load(game_id: int) -> store.LoadedGame:
    try:
        return store.load(game_id)
    except store.NotFound:
        abort(404)


def etag_of(game_id: int, version: int, watching: bool, editable: bool, fragment: bool = False) -> str:
    """The board's validator. The whole page and the htmx fragment of one version differ, so
    they never share one: a reload that revalidated a page against a fragment's ETag would get
    304 and show the bare fragment (no styles, no scripts, no live updates)."""
    return f"g{game_id}-v{version}-{'w' if watching else 's'}{'e' if editable else 'r'}{'-f' if fragment else ''}"


def board_etag(game, watching: bool, editable: bool, offer: bool) -> str:
    """Everything a board shows, as its ETag: the game's version (every change to the game,
    deletes and renames too, adds one), who looks (watching, editing), page or fragment; the
    release of the templates (an upgrade shows the page anew); this browser's form token,
    which the page carries (a browser whose session was replaced gets the page anew, not a
    form it can no longer post); and whether it offers to restore a round just undone
    (``offer``: a board that does differs from the same version without). Every server works
    out the same one from the database. The page's language too: a phone whose language
    changed (a choice, another browser language) never gets a 304 for the other one."""
    return (f"{etag_of(game.id, game.version, watching, editable, fragment=is_htmx())}"
            f".{assets.release(current_app)}.{form_token_digest()}.{languages.locale_code()}"
            f"{'.undone' if offer else ''}")


def form_token_digest() -> str:
    """This browser's form token, in a few characters, for the ETag of a page that carries it."""
    token = session.get(current_app.config.get("WTF_CSRF_FIELD_NAME", "csrf_token"), "")
    return hashlib.sha256(token.encode()).hexdigest()[:8] if isinstance(token, str) and token else "none"


def board_response(game_id: int, watching: bool, template: str = "scoreboard.html", status: int = 200,
                   loaded: store.LoadedGame | None = None, peeked: store.Peeked | None = None):
    """The board of one version of one game; 304 when the phone holds this one already (after
    one query by primary key: nothing replayed, nothing rendered). ``loaded``: the game as a
    change just left it, its state worked out already (not read and replayed again);
    ``peeked``: the game's row as the view peeked at it already (not read again)."""
    game = loaded.game if loaded is not None else peeked or store.peek(game_id)
    if game is None:
        abort(404)
    editable, offer = _looks(game, watching)
    etag = board_etag(game, watching, editable, offer)
    # A page that shows a message (flashed after a change) is always sent whole, and has no
    # ETag: the phone's next reload must not get it back with its message by a 304.
    message = bool(session.get("_flashes"))
    holds = held(etag) if status == 200 and not message else None
    if holds is not None:
        return _not_modified(holds)
    loaded = loaded or _load(game_id)  # with its rounds, in the same snapshot as the row just read
    game = loaded.game
    editable, offer = _looks(game, watching)
    # The players' words on its rounds, for the scorekeeper (none read at a table without seat links).
    flags = store.flags_of(loaded) if editable else []
    response = render(template, status, loaded=loaded, game=game, state=loaded.state, editable=editable,
                      watching=watching, flags=flags)
    if status == 200 and not message:
        response.set_etag(board_etag(game, watching, editable, offer))
    response.headers["Cache-Control"] = "no-cache"
    return response


def _looks(game, watching: bool) -> tuple[bool, bool]:
    """Whether this browser keeps the game's score here, and whether its board offers to
    restore a round it just undid (only a board that keeps score does)."""
    editable = not watching and keyring.can_edit(game)
    return editable, editable and undone.offered(game) is not None


def _not_modified(etag: str) -> Response:
    response = Response(status=304)
    response.set_etag(etag)
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.get("/games/<int:game_id>")
def scoreboard(game_id: int):
    return board_response(game_id, watching=False)


@bp.get("/games/<int:game_id>/watch")
def watch(game_id: int):
    """The read-only live view for everyone at the table."""
    return board_response(game_id, watching=True)


@bp.get("/games/<int:game_id>/live")
def live(game_id: int):
    """A watcher's poll (``?v=`` the version it shows): 204 after one query by primary key when
    nothing changed, else the board."""
    peeked = store.peek(game_id)  # the version, and for a board the rest of its ETag, in one query
    if peeked is None:
        abort(404)
    watching = request.args.get("watch") == "1"
    if request.args.get("v", type=whole_number) == peeked.version:
        response = make_response("", 204)
        response.headers["Cache-Control"] = "no-cache"
        return response
    return board_response(game_id, watching, template="_board_live.html", peeked=peeked)


@bp.get("/games/<int:game_id>/share")
def share(game_id: int):
    loaded = _load(game_id)
    editable = keyring.can_edit(loaded.game)
    watch_url = links.external("games.watch", game_id=game_id)
    edit_url = None
    if editable:
        key = keyring.session_key(game_id)
        if key:
            edit_url = links.edit_link(game_id, key)
    local = links.host_of(watch_url) in {"localhost", "127.0.0.1", "::1"}
    address = links.network_address(watch_url) if local else None
    response = render("share.html", loaded=loaded, game=loaded.game, state=loaded.state, editable=editable,
                      watch_url=watch_url, edit_url=edit_url, local=local, address=address,
                      watch_qr=qr_svg(watch_url), edit_qr=qr_svg(edit_url) if edit_url else None,
                      seat_links=_seat_links(loaded) if editable else [],
                      has_seat_links=editable and loaded.seat_links)
    # It shows the edit key (its link and QR code): kept by no cache.
    return no_store(response) if editable else response


def _seat_links(loaded: store.LoadedGame) -> list[tuple[str, str, str]]:
    """Each player's name, seat link and its QR code, as this phone made them (none when it made
    none, or another phone has made new ones since)."""
    keys = keyring.made_here(loaded.id)
    if not keys or len(keys) != len(loaded.seats) or store.seat_of(loaded.id, keys[0]) is None:
        return []
    return [(seat.name, url, qr_svg(url))
            for seat, url in ((seat, links.seat_link(loaded.id, key)) for seat, key in zip(loaded.seats, keys, strict=True))]


def qr_svg(url: str) -> str:
    import segno
    from markupsafe import Markup

    code = segno.make(url, error="m")
    svg = code.svg_inline(scale=5, border=2, dark="#000000", light="#ffffff", omitsize=True)
    return Markup(svg)


@bp.route("/games/<int:game_id>/join", methods=["GET", "POST"])
def join(game_id: int):
    """Open a "keep score on another phone" link (``join#key=...``): the page posts the key
    and this browser may then edit the game. An old ``join?key=...`` link shows the same page
    with the key filled in."""
    loaded = _load(game_id)
    if request.method == "GET":
        return key_page("join.html", game=loaded.game, problem=None, prefilled=request.args.get("key", "")[:200])
    if not ConfirmForm().validate_on_submit():
        abort(400)
    key = request.form.get("key", "").strip()
    if not store.key_matches(loaded.game, key):
        return key_page("join.html", 403, game=loaded.game,
                        problem=gettext("This edit link no longer works: the scorekeeper made a new key, or the "
                                        "link was cut short. You can still watch the game; ask for a fresh link to "
                                        "keep score."))
    keyring.remember(game_id, key)
    flash(gettext("This phone can now keep score for this game."), "ok")
    return go(url_for("games.scoreboard", game_id=game_id))


@bp.post("/games/<int:game_id>/key")
def new_key(game_id: int):
    """Make a new edit key: every other phone's edit link stops working."""
    loaded = _load(game_id)
    if not keyring.can_edit(loaded.game):
        abort(403)
    key = store.reissue_key(game_id)
    keyring.remember(game_id, key)
    flash(gettext("New edit link made: the old links no longer let anyone change this game."), "ok")
    return go(url_for("games.share", game_id=game_id))


@bp.post("/games/<int:game_id>/again")
def play_again(game_id: int):
    """Start a new game with the same seats, the first deal moved one seat on."""
    form = ConfirmForm()
    if not form.validate_on_submit():
        abort(400)
    try:
        loaded = store.load(game_id)
    except store.NotFound:
        abort(404)
    if not keyring.can_edit(loaded.game):
        # The seats and rules are the game's: only its scorekeeper starts the next one from it.
        abort(403)
    old = loaded.state.setup
    dealer = old.players[(old.seat_of(old.first_dealer) + 1) % len(old.players)]
    try:
        # The same checks as any new game (names, seats, decks), not a copy taken on trust.
        setup = GameSetup.create(old.rules, old.players, first_dealer=dealer, dealer_rule=old.dealer_rule,
                                 decks=old.decks, jokers=old.jokers)
    except SetupError as exc:
        flash(gettext("This table cannot start a new game: %(reason)s.", reason=problem_words(exc.first)), "error")
        return go(url_for("games.scoreboard", game_id=game_id))
    game, key = store.create_game(setup)
    keyring.remember(game.id, key)
    flash(gettext("New game with the same players: %(name)s deals first.", name=dealer), "ok")
    return go(url_for("games.scoreboard", game_id=game.id))
