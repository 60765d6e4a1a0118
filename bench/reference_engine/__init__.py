"""The engine as it was on main at commit baada59, kept as the reference.

`bench.engine` measures the fast engine against it side by side, and
tests/test_engine_fast_moves.py requires both to list the same legal moves
and play the same random games move for move; tests/test_longest.py and
`bench.longest` compare the longest-path search with its own. Only imports
were adapted (moves and events are the current engine's, unchanged in
meaning; `errors.py` is the engine's errors as they were, facts only in the
message). It lives with the benchmarks, outside the installed package;
nothing in the product uses it.
"""
