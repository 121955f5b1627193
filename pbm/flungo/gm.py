"""The GM's Flungo commands by mail."""
