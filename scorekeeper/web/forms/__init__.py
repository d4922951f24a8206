"""The forms: WTForms for the fixed-shape ones here; the round screen's draft, whose shape is the
game's (``round``), and the house-rules editor (``rules``) beside them."""

from __future__ import annotations

from flask_babel import lazy_gettext
from flask_wtf import FlaskForm
from wtforms import IntegerField, RadioField, SelectChoice, StringField
from wtforms.validators import InputRequired, NumberRange, Optional

from scorekeeper.rules import PRESETS, DealerRule
from scorekeeper.rules.replay import MAX_NAME


class PlayerForm(FlaskForm):
    name = StringField("Name", validators=[InputRequired(message=lazy_gettext("Type a name."))],
                       render_kw={"maxlength": MAX_NAME, "autocomplete": "off"})


class NewGameForm(FlaskForm):
    #: The choices are set by the page: every preset, then the house rule sets (see views.games).
    rules = RadioField("Rules", choices=[SelectChoice(key, r.name) for key, r in PRESETS.items()],
                       default=next(iter(PRESETS)))
    dealer_rule = RadioField(
        "Who deals next", choices=[SelectChoice(r.value, r.description) for r in DealerRule], default=DealerRule.WINNER.value
    )
    decks = IntegerField("Decks", validators=[Optional(), NumberRange(1, 8, lazy_gettext("Decks must be from 1 to 8."))])
    jokers = IntegerField("Jokers", validators=[Optional(), NumberRange(0, 8, lazy_gettext("Jokers must be from 0 to 8."))])


class ConfirmForm(FlaskForm):
    """An empty form: only its CSRF token matters."""
