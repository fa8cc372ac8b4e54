"""`python -m cli ...` runs the `marketfold` command (tests and the supervisor use it)."""

import sys

from cli.main import main

if __name__ == "__main__":
    sys.exit(main())
