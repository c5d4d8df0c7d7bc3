"""`python -m voyager.cli`: what the `voyager` command runs."""
import sys

from voyager.cli import main

sys.exit(main())
