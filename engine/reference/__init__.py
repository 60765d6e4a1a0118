"""The engine as it was on main at commit baada59, kept as the reference.

`bench.engine` measures the fast engine against it side by side, and
tests/test_engine_fast_moves.py requires both to list the same legal moves
and play the same random games move for move. Only imports were adapted
(moves, errors and events are the current engine's, unchanged in meaning).
Nothing else in the project uses it.
"""
