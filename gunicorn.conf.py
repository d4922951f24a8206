"""How gunicorn serves Scorekeeper, besides what the Makefile passes (workers, bind, the access
log): gunicorn reads this file from the working directory, as `make run` and `make bench` start it.

A worker's first request should cost what any other does (`make bench`: a fresh worker's first
answer within 2x a warm one). The app readies itself when it is made (``app.warm_up``); these
are the two things gunicorn itself would otherwise do during a worker's first request, measured
with cProfile at 3 to 5 ms and about 2 ms of the unchanged watch poll's 1.5."""

# gunicorn's own HTTP parser, named: "auto" looks for the optional C parser (gunicorn_h1c, not
# installed) on the path, once per worker, during its first request.
http_parser = "python"


def post_worker_init(worker):
    # The networks of the proxies whose X-Forwarded-* headers are trusted, parsed from the
    # setting once per worker and kept: here, rather than during the first request.
    networks = getattr(worker.cfg, "forwarded_allow_networks", None)
    if networks is not None:
        networks()
