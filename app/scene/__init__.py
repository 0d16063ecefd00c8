"""The document: scenes and fixtures, their files, what each kind of shape is.

``model`` (scenes, load and save), ``history`` (undo / redo), ``shape_kinds`` (each
kind's parameters, physics shape and drawing), ``tessellate`` (a kind's drawing:
triangles, outlines and points, plain numpy), ``mesh_sources`` (mesh files and
generators), ``fixture`` (regression fixtures), ``autosave``, ``atomic`` (file
writes) and ``json_files`` (reading either format).  No GL, no UI: tested headless.
"""
