"""Reading many games: the history, statistics and the ratings' leaderboard."""
