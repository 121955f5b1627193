"""pbm: a play-by-mail game server. Importing it has no side effects."""

__version__ = "0.1.0"
