"""The shipped Hit for Six decks, built by ``pbm decks build`` (docs/rules/hitforsix-decks.md)."""
