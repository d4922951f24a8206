"""each game keeps a frozen copy of its rule set's document; each hand its bonuses

Rule sets are data (RULESETS.md): a game is played by the rules it was started with, even when
the house rule set it came from is edited or deleted later. So every game stores the whole
rule-set document as JSON text; the games stored before this had only a preset's key
(``balmoral`` or ``classic``), and get that preset's document. A round's bonuses (a perfect
cut, going out blind) are stored with each player's hand, as the keys of the bonuses earned;
the rounds stored before have none.

The games' summaries, which the app works out from these columns, are filled by the upgrade's
next step, ``flask games rebuild --if-stale``.

Revision ID: a4d2e6f8b013
Revises: 3c9d0e4f2a61
Create Date: 2026-11-30 20:00:00

"""
import logging

import sqlalchemy as sa
from alembic import op

revision = 'a4d2e6f8b013'
down_revision = '3c9d0e4f2a61'
branch_labels = None
depends_on = None

log = logging.getLogger("alembic.runtime.migration")

#: The documents of the only two rule sets a game could be started with before this revision,
#: as the app wrote them (scorekeeper.rules.document_text: JSON without spaces).
DOCUMENTS = {
    'balmoral': (
        '{"name":"Balmoral Rummy","stage_name":"Level","progression":"ladder","stages":[{"contract":"3 sets o'
        'f 3","cards":13},{"contract":"1 set of 3 and 1 run of 4","cards":13},{"contract":"2 sets of 4","card'
        's":13},{"contract":"2 runs of 4","cards":13},{"contract":"1 set of 4 and 1 run of 4","cards":13},{"c'
        'ontract":"4 sets of 3","cards":13},{"contract":"1 set of 3 and 1 run of 7","cards":13}],"deck":"stan'
        'dard","jokers":false,"values":{"A":15,"K":10,"Q":10,"J":10,"10":10,"9":9,"8":8,"7":7,"6":6,"5":5,"4"'
        ':4,"3":3,"2":2},"hand_limit":"dealt","dealer_rules":["winner","rotate"],"min_players":2,"max_players'
        '":8,"decks":[{"up_to":4,"decks":2,"jokers":0},{"up_to":6,"decks":3,"jokers":0},{"up_to":8,"decks":4,'
        '"jokers":0}],"bonuses":[],"winner":"lowest","note":"Runs are one suit; an ace is low or high, but a '
        'run never wraps (Q K A 2 is not a run)."}'
    ),
    'classic': (
        '{"name":"Contract Rummy (classic)","stage_name":"Deal","progression":"deal","stages":[{"contract":"t'
        'wo groups","cards":10},{"contract":"one group and one sequence","cards":10},{"contract":"two sequenc'
        'es","cards":10},{"contract":"three groups","cards":10},{"contract":"two groups and one sequence","ca'
        'rds":12},{"contract":"one group and two sequences","cards":12},{"contract":"three sequences, with no'
        ' unmatched cards","cards":12}],"deck":"standard","jokers":true,"values":{"A":15,"K":10,"Q":10,"J":10'
        ',"10":10,"9":9,"8":8,"7":7,"6":6,"5":5,"4":4,"3":3,"2":2,"JK":15},"hand_limit":"none","dealer_rules"'
        ':["rotate"],"min_players":3,"max_players":8,"decks":[{"up_to":4,"decks":2,"jokers":1},{"up_to":8,"de'
        'cks":3,"jokers":2}],"bonuses":[],"winner":"lowest","note":"A group is three or more of a rank; a seq'
        'uence is three or more in a row of one suit, ace low or high, never K A 2."}'
    ),
}


def upgrade():
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.add_column(sa.Column('rules_document', sa.Text(), server_default='', nullable=False))
    with op.batch_alter_table('hand', schema=None) as batch_op:
        batch_op.add_column(sa.Column('bonuses', sa.String(length=400), server_default='', nullable=False))
    # Each preset's document as the app wrote it for a new game (the same text, so that stored and
    # new games share one entry of the cache of read documents). A game with a key that names
    # no preset keeps '' and cannot be worked out, as it could not before. Every game's summary
    # is worked out again by `flask games rebuild --if-stale`, the upgrade's next step.
    game = sa.table('game', sa.column('rules', sa.String()), sa.column('rules_document', sa.Text()))
    filled = 0
    for key, document in DOCUMENTS.items():
        result = op.get_bind().execute(game.update().where(game.c.rules == key).values(rules_document=document))
        filled += result.rowcount or 0
    log.info("The rules of %d games stored with them", filled)


def downgrade():
    with op.batch_alter_table('hand', schema=None) as batch_op:
        batch_op.drop_column('bonuses')
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.drop_column('rules_document')
