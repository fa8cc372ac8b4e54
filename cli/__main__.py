"""`python -m cli ...` runs the `marketfold` command (tests and the supervisor use it)."""

import sys

from cli.main import main

sys.exit(main())
