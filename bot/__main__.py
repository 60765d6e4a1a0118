"""`python -m bot`: the command-line entry point."""

import sys

from bot.cli import main

sys.exit(main())
