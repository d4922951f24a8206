"""The club's pages: the history and its bin, a player's statistics, the ratings, the roster,
the club nights, the house rule sets and the club link that makes a phone the club's keeper."""
