"""Subcommands of `python -m bot`."""
