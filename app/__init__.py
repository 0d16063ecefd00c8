"""sweeplab: the editor, its scene model, rendering, UI and command line
(``app/`` in the repository); the physics library is ``sweeplab.physics``
(``physics/``), the GLSL sources ``sweeplab.shaders`` (``shaders/``)."""

__version__ = "0.1.0"
