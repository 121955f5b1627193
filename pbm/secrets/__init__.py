"""Players' and the GM's secrets: made, hashed, sealed, scrubbed from every stored form."""
