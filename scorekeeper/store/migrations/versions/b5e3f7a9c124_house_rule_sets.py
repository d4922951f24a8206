"""house rule sets: a table's own rule-set documents, saved on the server

Games keep their own copy of their rules (a4d2e6f8b013), so nothing refers to this table: a
house rule set can be edited or deleted whatever games were played by it.

Revision ID: b5e3f7a9c124
Revises: a4d2e6f8b013
Create Date: 2026-11-30 20:10:00

"""
import sqlalchemy as sa
from alembic import op

revision = 'b5e3f7a9c124'
down_revision = 'a4d2e6f8b013'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'house_ruleset',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('name', sa.String(length=60), nullable=False),
        sa.Column('name_key', sa.String(length=200), nullable=False),
        sa.Column('document', sa.Text(), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_house_ruleset')),
        sa.UniqueConstraint('name_key', name=op.f('uq_house_ruleset_name_key')),
        sqlite_autoincrement=True,
    )


def downgrade():
    op.drop_table('house_ruleset')
