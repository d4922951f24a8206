"""the places of games whose winner is the lowest among those who complete the last stage

A game's summary keeps each seat's place. Where the winner is the lowest total among the players
who complete the last stage (Phase 10's rule), the engine places players by the stage reached
first and the total second (a player on phase 10 is ahead of one on phase 9, whatever the
points), where it had placed them by total alone. The schema does not change; the summaries of
those games are worked out again by the upgrade's next step, ``flask games rebuild --if-stale``
(a stored summary written by another logic than the app's is out of date: see
scorekeeper/store/rebuild.py), so this revision does nothing but mark the change.

Revision ID: c8a1f0d2e4b7
Revises: 9f4b2e6c1d83
Create Date: 2026-11-30 23:20:00

"""
revision = 'c8a1f0d2e4b7'
down_revision = '9f4b2e6c1d83'
branch_labels = None
depends_on = None


def upgrade():
    pass


def downgrade():
    pass
