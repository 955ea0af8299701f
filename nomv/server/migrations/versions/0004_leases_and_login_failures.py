"""Several server processes on one database: leases (the one process that searches a computer
seat's move) and failed logins (counted per name and per address, across processes).

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-26
"""
import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "leases",
        sa.Column("name", sa.String(100), nullable=False),
        sa.Column("holder", sa.String(100), nullable=False),
        sa.Column("until", sa.Float, nullable=False),
        sa.PrimaryKeyConstraint("name", name="pk_leases"),
    )
    op.create_table(
        "login_failures",
        sa.Column("id", sa.Integer, nullable=False),
        sa.Column("key", sa.String(120), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_login_failures"),
    )
    op.create_index("ix_login_failures_key_at", "login_failures", ["key", "at"])


def downgrade() -> None:
    op.drop_index("ix_login_failures_key_at", table_name="login_failures")
    op.drop_table("login_failures")
    op.drop_table("leases")
