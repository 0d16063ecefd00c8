"""``python -m sweeplab`` is the ``sweeplab`` command."""

import sys

from sweeplab.cli import main

sys.exit(main())
