"""sweeplab's editor: scene model, interaction, rendering, UI and command line."""
