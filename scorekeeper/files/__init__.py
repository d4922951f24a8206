"""Game files in and out: the game file, backups, imports and the CSV."""
