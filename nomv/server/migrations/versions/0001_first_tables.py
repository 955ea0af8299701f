"""The first tables: users, sessions, scripts, matches, seats, moves, ratings.

Revision ID: 0001
Revises:
Create Date: 2025-01-01
"""
import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "users",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(32), nullable=False),
        sa.Column("name_key", sa.String(32), nullable=False),
        sa.Column("password_hash", sa.String(255), nullable=False),
        sa.Column("email", sa.String(254), nullable=True),
        sa.Column("notify", sa.Boolean(), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_users"),
        sa.UniqueConstraint("name_key", name="uq_users_name_key"),
    )
    op.create_table(
        "sessions",
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("used_at", sa.Float(), nullable=False),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], name="fk_sessions_user_id_users",
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("token_hash", name="pk_sessions"),
    )
    op.create_index("ix_sessions_user_id", "sessions", ["user_id"])
    op.create_table(
        "scripts",
        sa.Column("sha256", sa.String(64), nullable=False),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("catalogue", sa.String(250), nullable=False),
        sa.Column("origin", sa.String(16), nullable=False),
        sa.Column("author_id", sa.Integer(), nullable=True),
        sa.Column("source", sa.Text(), nullable=False),
        sa.Column("size", sa.Integer(), nullable=False),
        sa.Column("info", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.ForeignKeyConstraint(["author_id"], ["users.id"], name="fk_scripts_author_id_users"),
        sa.PrimaryKeyConstraint("sha256", name="pk_scripts"),
    )
    op.create_index("ix_scripts_catalogue", "scripts", ["catalogue"])
    op.create_index("ix_scripts_author_id", "scripts", ["author_id"])
    op.create_table(
        "matches",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("script_sha256", sa.String(64), nullable=False),
        sa.Column("game", sa.String(250), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("variant", sa.String(200), nullable=True),
        sa.Column("players", sa.Integer(), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("ply", sa.Integer(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("to_move", sa.Integer(), nullable=True),
        sa.Column("outcome", sa.JSON(), nullable=True),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("time_per_move", sa.Float(), nullable=True),
        sa.Column("deadline", sa.Float(), nullable=True),
        sa.Column("invite", sa.String(64), nullable=True),
        sa.Column("draw_offer", sa.JSON(), nullable=True),
        sa.Column("takeback", sa.JSON(), nullable=True),
        sa.Column("created_by", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("updated_at", sa.Float(), nullable=False),
        sa.ForeignKeyConstraint(["script_sha256"], ["scripts.sha256"],
                                name="fk_matches_script_sha256_scripts"),
        sa.ForeignKeyConstraint(["created_by"], ["users.id"], name="fk_matches_created_by_users"),
        sa.PrimaryKeyConstraint("id", name="pk_matches"),
        sa.UniqueConstraint("invite", name="uq_matches_invite"),
    )
    op.create_index("ix_matches_status_deadline", "matches", ["status", "deadline"])
    op.create_table(
        "seats",
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=True),
        sa.Column("spec", sa.String(200), nullable=True),
        sa.Column("accepted", sa.Boolean(), nullable=False),
        sa.ForeignKeyConstraint(["match_id"], ["matches.id"], name="fk_seats_match_id_matches",
                                ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], name="fk_seats_user_id_users"),
        sa.PrimaryKeyConstraint("match_id", "seat", name="pk_seats"),
    )
    op.create_index("ix_seats_user_id", "seats", ["user_id"])
    op.create_table(
        "moves",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("ply", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("steps", sa.JSON(), nullable=False),
        sa.Column("notation", sa.Text(), nullable=False),
        sa.Column("played_at", sa.Float(), nullable=False),
        sa.Column("taken_back_at", sa.Float(), nullable=True),
        sa.ForeignKeyConstraint(["match_id"], ["matches.id"], name="fk_moves_match_id_matches",
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name="pk_moves"),
    )
    # Of the moves not taken back, one per (match, ply): the database settles races.
    op.create_index("uq_moves_match_id_ply_live", "moves", ["match_id", "ply"], unique=True,
                    sqlite_where=sa.text("taken_back_at IS NULL"),
                    postgresql_where=sa.text("taken_back_at IS NULL"))
    op.create_table(
        "ratings",
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("game", sa.String(250), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("wins", sa.Integer(), nullable=False),
        sa.Column("draws", sa.Integer(), nullable=False),
        sa.Column("losses", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.Float(), nullable=False),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], name="fk_ratings_user_id_users",
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("user_id", "game", name="pk_ratings"),
    )


def downgrade() -> None:
    for table in ("ratings", "moves", "seats", "matches", "scripts", "sessions", "users"):
        op.drop_table(table)
