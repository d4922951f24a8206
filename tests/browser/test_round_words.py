"""The phone's own sentences about a round, for a house rule set whose word for a round is its
own: a French phone says "tour" (masculine) with nothing around it that agrees with it, where a
preset's "manche" and "donne" take "la" and feminine participles."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from scorekeeper import store
from scorekeeper.rules import PRESETS, GameSetup, parse_ruleset, ruleset_document

from .test_table import mark_out, pick


def french_house_game(live_app) -> tuple[int, str]:
    """Ann, Ben and Cat playing Liverpool's deals under a house rule set that calls a deal "Tour":
    the game's id and its edit key."""
    document = ruleset_document(PRESETS["liverpool"]) | {"name": "Liverpool chez nous", "stage_name": "Tour"}
    rules = parse_ruleset(document, key="liverpool-chez-nous")
    with live_app.app_context():
        game, key = store.create_game(GameSetup.create(rules, ["Ann", "Ben", "Cat"], first_dealer="Ann"))
        return game.id, key


@pytest.mark.offline
def test_a_round_kept_and_taken_back_on_a_french_phone_says_the_tables_own_word_plainly(page: Page, server, context,
                                                                                        live_app):
    game, key = french_house_game(live_app)
    context.set_extra_http_headers({"Accept-Language": "fr"})
    page.goto(f"{server}/games/{game}/join#key={key}")
    expect(page).to_have_url(f"{server}/games/{game}")
    page.locator("a[href$='/rounds/new']").first.tap()
    form = page.locator("form.round-form[data-own-word]")
    expect(form).to_have_count(1)
    expect(page.locator("button[name=save]")).to_have_text("Enregistrer\u202f: tour 1")
    mark_out(page, "Ben")
    for name in ("Ann", "Cat"):
        pick(page, name)
        page.locator(".keypad [data-rank='K']").first.tap()
    context.set_offline(True)
    page.locator("button[name=save]").tap()
    expect(page.locator(".outbox-note")).to_contain_text("Tour 1\u202f: en attente d’envoi")
    undo = page.locator("[data-undo-waiting]")
    expect(undo).to_have_text("Annuler\u202f: tour 1 (rien n’est encore envoyé)")
    undo.tap()
    expect(page.locator(".offline-note")).to_contain_text("Annulation avant l’envoi\u202f: Tour 1.")
    context.set_offline(False)
