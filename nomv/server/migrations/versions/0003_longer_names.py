"""Names of up to 40 characters, in any script (they were 32 letters, digits, '_', '.', '-').

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-24
"""
import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("users") as batch:
        batch.alter_column("name", type_=sa.String(40), existing_type=sa.String(32), existing_nullable=False)
        batch.alter_column("name_key", type_=sa.String(40), existing_type=sa.String(32), existing_nullable=False)


def downgrade() -> None:
    with op.batch_alter_table("users") as batch:
        batch.alter_column("name", type_=sa.String(32), existing_type=sa.String(40), existing_nullable=False)
        batch.alter_column("name_key", type_=sa.String(32), existing_type=sa.String(40), existing_nullable=False)
