"""What the 3D view shows, as plain data: the view model, and the analyses it draws.

``reports`` answers every target (sweep, float32 lens, second opinion); ``model``
turns a scene and its reports into drawables; ``meshes`` (sphere trees, walks, mesh contacts and overlaps),
``path_hits`` (every contact interval), ``scan`` (perturbation scans),
``minkowski`` (the teaching view), ``turn`` (a turning sweep: poses, ghosts, the pivot's arc), ``advancement``
(a turning sweep's iterations), ``lessons`` (lessons taught on live scenes) and ``camera`` (the orbit camera's
matrices); shapes become triangles in ``scene.tessellate``.  No GL: tested headless.
"""
