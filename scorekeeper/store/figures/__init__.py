"""The figures worked out from the facts and stored with them, in the same transaction: each
game's summary (summaries), the club's ratings (ratings: openskill's model; rating_summaries:
their stored rows); store/rebuild.py works them all out again from the facts."""
