"""``python -m app`` is the ``sweeplab`` command."""

import sys

from app.cli import main

sys.exit(main())
