"""The triggers of the schema's history: the one place where it is written for each database apart.

SQLite's triggers hold their statements (`BEGIN ... END`), PostgreSQL's call a function in PL/pgSQL, so
they cannot be written once with Alembic's `op`. Each revision that adds or changes triggers runs
`install(its revision id)`, which runs that revision's statements for the database at hand. Frozen like the
revisions: a new revision adds its own entries, none is changed.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

# SQLite: what each revision runs
SQLITE: dict[str, tuple[str, ...]] = {
    # The move log is the game: it only grows, one index after the other.
    "0001_initial": (
        """CREATE TRIGGER moves_in_order BEFORE INSERT ON moves
WHEN NEW.idx != COALESCE((SELECT MAX(idx) FROM moves WHERE game_id = NEW.game_id) + 1, 0)
BEGIN
    SELECT RAISE(ABORT, 'moves must be appended in order');
END""",
        """CREATE TRIGGER moves_no_update BEFORE UPDATE ON moves
BEGIN
    SELECT RAISE(ABORT, 'the move log is append-only');
END""",
        """CREATE TRIGGER moves_no_delete BEFORE DELETE ON moves
BEGIN
    SELECT RAISE(ABORT, 'the move log is append-only');
END""",
    ),
    # The audit log is never changed once written; the live move log still only grows, except that an undo may
    # take moves off its end, one at a time from the last, each once it is kept in undone_moves.
    "0004_clock_and_moderation": (
        """CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log
BEGIN
    SELECT RAISE(ABORT, 'the audit log is append-only');
END""",
        """CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log
BEGIN
    SELECT RAISE(ABORT, 'the audit log is append-only');
END""",
        "DROP TRIGGER moves_no_delete",
        """CREATE TRIGGER moves_no_delete BEFORE DELETE ON moves
WHEN OLD.idx != (SELECT MAX(idx) FROM moves WHERE game_id = OLD.game_id)
    OR NOT EXISTS (
        SELECT 1 FROM undone_moves u
        WHERE u.game_id = OLD.game_id AND u.idx = OLD.idx AND u.move = OLD.move AND u.created_at = OLD.created_at
    )
BEGIN
    SELECT RAISE(ABORT, 'the move log is append-only: only an undo takes moves off its end, keeping them');
END""",
    ),
}

# PostgreSQL: the same rules, each trigger calling a function
POSTGRES: dict[str, tuple[str, ...]] = {
    "0001_initial": (
        """CREATE FUNCTION moves_in_order() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.idx != COALESCE((SELECT MAX(idx) FROM moves WHERE game_id = NEW.game_id) + 1, 0) THEN
        RAISE EXCEPTION 'moves must be appended in order';
    END IF;
    RETURN NEW;
END;
$$""",
        "CREATE TRIGGER moves_in_order BEFORE INSERT ON moves FOR EACH ROW EXECUTE FUNCTION moves_in_order()",
        """CREATE FUNCTION moves_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'the move log is append-only';
END;
$$""",
        "CREATE TRIGGER moves_no_update BEFORE UPDATE ON moves FOR EACH ROW EXECUTE FUNCTION moves_append_only()",
        "CREATE TRIGGER moves_no_delete BEFORE DELETE ON moves FOR EACH ROW EXECUTE FUNCTION moves_append_only()",
    ),
    "0004_clock_and_moderation": (
        """CREATE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'the audit log is append-only';
END;
$$""",
        (
            "CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log "
            "FOR EACH ROW EXECUTE FUNCTION audit_log_append_only()"
        ),
        (
            "CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log "
            "FOR EACH ROW EXECUTE FUNCTION audit_log_append_only()"
        ),
        "DROP TRIGGER moves_no_delete ON moves",
        """CREATE FUNCTION moves_undo_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF OLD.idx != (SELECT MAX(idx) FROM moves WHERE game_id = OLD.game_id)
        OR NOT EXISTS (
            SELECT 1 FROM undone_moves u
            WHERE u.game_id = OLD.game_id AND u.idx = OLD.idx AND u.move = OLD.move AND u.created_at = OLD.created_at
        ) THEN
        RAISE EXCEPTION 'the move log is append-only: only an undo takes moves off its end, keeping them';
    END IF;
    RETURN OLD;
END;
$$""",
        "CREATE TRIGGER moves_no_delete BEFORE DELETE ON moves FOR EACH ROW EXECUTE FUNCTION moves_undo_only()",
    ),
}

BY_DIALECT = {"sqlite": SQLITE, "postgresql": POSTGRES}


def install(revision: str) -> None:
    """Run the trigger statements of `revision` on the database being upgraded."""
    dialect = op.get_bind().dialect.name
    for statement in BY_DIALECT[dialect][revision]:
        op.execute(sa.text(statement))
