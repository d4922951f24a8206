"""What each player's own phone changes at a game: the seat links that make a phone a player's
own (``seat_keys``), the hands players send until the round is saved (``sent_hands``), and
their "that's not my hand" after it is (``flags``)."""
