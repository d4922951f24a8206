"""The JSON API (``/api``), one blueprint: a game, its rounds and the club's files and rule sets
(``games``), a player's own seat (``seats``, which adds its routes to the same blueprint), and
the errors both answer with (``errors``)."""
