"""What the 3D view shows, as plain data: the view model, and the analyses it draws.

``model`` runs the sweeps of a scene and turns them into drawables and per-target
reports; ``meshes`` (sphere trees, walks, mesh contacts and overlaps),
``path_hits`` (every contact interval), ``scan`` (perturbation scans),
``minkowski`` (the teaching view), ``tessellate`` (shapes into triangles and
lines) and ``camera`` (the orbit camera's matrices).  No GL: tested headless.
"""
