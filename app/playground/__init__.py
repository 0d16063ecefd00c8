"""The playground: a small deterministic rigid-body simulation whose collisions are
sweeplab's sweeps (``world``), run inside the editor (``ui.playground``)."""
