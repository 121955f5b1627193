"""Players' questions by mail: STATUS, SQUAD, FIXTURES, TABLE, SCOUT, RULES."""
