"""GLSL sources of the editor's programs: package data, read through
``importlib.resources`` by ``sweeplab.programs`` (``app/programs.py``)."""
