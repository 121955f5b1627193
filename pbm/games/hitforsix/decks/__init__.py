"""Hit for Six's decks: built from Cricsheet, shipped as data, loaded and checked."""
