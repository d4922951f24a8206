"""a player's rating, game by game, read from an index

The index of a player's rating rows (scope, player, games) also carries each game and the
rating after it (mu, sigma): a player's page reads their rating over thousands of games
from the index alone, not from a page of the table for each game.

Revision ID: 4e8c2a7b9d15
Revises: 6d2f8a1c9e47
Create Date: 2026-12-11 10:00:00

"""
from alembic import op

revision = '4e8c2a7b9d15'
down_revision = '6d2f8a1c9e47'
branch_labels = None
depends_on = None


def upgrade():
    op.create_index('ix_rating_summary_scope_player_id_games_path', 'rating_summary',
                    ['scope', 'player_id', 'games', 'game_id', 'mu_after', 'sigma_after'], unique=False)
    op.drop_index('ix_rating_summary_scope_player_id_games', table_name='rating_summary')


def downgrade():
    op.create_index('ix_rating_summary_scope_player_id_games', 'rating_summary', ['scope', 'player_id', 'games'],
                    unique=False)
    op.drop_index('ix_rating_summary_scope_player_id_games_path', table_name='rating_summary')
