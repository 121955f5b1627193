"""Hit for Six's services: the one-file ground, Test by Post and The Averages (storage-facing)."""
