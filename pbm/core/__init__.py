"""What every room of pbm stands on: configuration, the error tree, the clock, safe screen text."""
