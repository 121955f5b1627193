"""Hit for Six outside the engine: deck building and loading, and the game's services."""
