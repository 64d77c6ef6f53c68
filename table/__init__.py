"""The game: the pure rules core (`table.rules`), the session, the journal and the command line."""
