"""The ImGui panels (``panels``, ``tools``, ``meshes``), the exact text fields,
the docking layout and the command table (menus, shortcuts and help from one list)."""
