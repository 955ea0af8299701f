"""Jobs (the long work of a user's request, done off the request threads: an upload's check, a
record's replay) and the events counted against quotas (registrations per address), both in the
database so that a restart or another process does not forget them; and an index for the quota
of matches a player has waiting or running.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-27
"""
import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "jobs",
        sa.Column("id", sa.Integer, nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("user_id", sa.Integer, nullable=False),
        sa.Column("state", sa.String(16), nullable=False),
        sa.Column("payload", sa.JSON, nullable=False),
        sa.Column("status", sa.Integer, nullable=True),
        sa.Column("result", sa.JSON, nullable=True),
        sa.Column("holder", sa.String(100), nullable=True),
        sa.Column("lease_until", sa.Float, nullable=True),
        sa.Column("attempts", sa.Integer, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("started_at", sa.Float, nullable=True),
        sa.Column("finished_at", sa.Float, nullable=True),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], name="fk_jobs_user_id_users", ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name="pk_jobs"),
    )
    op.create_index("ix_jobs_user_id", "jobs", ["user_id"])
    op.create_index("ix_jobs_state_created_at", "jobs", ["state", "created_at"])
    op.create_index("uq_jobs_user_id_unfinished", "jobs", ["user_id"], unique=True,
                    sqlite_where=sa.text("finished_at IS NULL"),
                    postgresql_where=sa.text("finished_at IS NULL"))
    op.create_table(
        "quota_events",
        sa.Column("id", sa.Integer, nullable=False),
        sa.Column("key", sa.String(120), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_quota_events"),
    )
    op.create_index("ix_quota_events_key_at", "quota_events", ["key", "at"])
    op.create_index("ix_matches_created_by_status", "matches", ["created_by", "status"])


def downgrade() -> None:
    op.drop_index("ix_matches_created_by_status", table_name="matches")
    op.drop_index("ix_quota_events_key_at", table_name="quota_events")
    op.drop_table("quota_events")
    op.drop_index("uq_jobs_user_id_unfinished", table_name="jobs")
    op.drop_index("ix_jobs_state_created_at", table_name="jobs")
    op.drop_index("ix_jobs_user_id", table_name="jobs")
    op.drop_table("jobs")
