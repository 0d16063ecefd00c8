"""GL only: drawing a view model (``renderer``) and ImGui's draw lists
(``imgui_renderer``) with moderngl, the shader programs, a headless context, PNG
files.  Computes no physics."""
