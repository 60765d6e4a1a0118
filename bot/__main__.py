"""`python -m bot`: the command-line entry point."""

import sys

from bot.commands.cli import main

sys.exit(main())
