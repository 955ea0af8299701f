"""A computer player's estimate with each of its moves: the share of the points it expects
(0 to 1), shown beside its seat ("expects 78%").

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-24
"""
import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("moves") as batch:
        batch.add_column(sa.Column("expects", sa.Float(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("moves") as batch:
        batch.drop_column("expects")
