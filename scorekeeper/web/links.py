"""The addresses handed to other phones (watch, edit and club links), and who decides their host.

A link's host must not come from whatever ``Host`` a request claims (``Host: evil.example``
would hand out an edit link to evil.example). Either ``PUBLIC_URL`` names the address phones
open (``http://192.168.1.20:8000``, ``https://scores.example.org``), and every link is made
on it whatever the request said; or Flask's ``TRUSTED_HOSTS`` lists the names this server
answers to, and a request for any other host is refused (400) before a link is made
(``make run`` sets it to this machine's names and addresses).

A key goes after ``#key=``: browsers send no fragment to a server, so it reaches no access
log, and the page drops it from the history (static/keylink.js).
"""

from __future__ import annotations

import ipaddress
from urllib.parse import urlsplit

from flask import current_app, url_for


def external(endpoint: str, **values) -> str:
    public = current_app.config.get("PUBLIC_URL")
    if public:
        return str(public).rstrip("/") + url_for(endpoint, **values)
    return url_for(endpoint, _external=True, **values)


def edit_link(game_id: int, key: str) -> str:
    return external("games.join", game_id=game_id) + "#key=" + key


def seat_link(game_id: int, key: str) -> str:
    """A player's own link: this phone may send that player's hand, and nothing else."""
    return external("seats.join", game_id=game_id) + "#key=" + key


def night_link(night_id: int, key: str) -> str:
    """A club night's link: the phone that opens it runs the night with the keeper."""
    return external("nights.join", night_id=night_id) + "#key=" + key


def club_link(key: str) -> str:
    return external("club.join") + "#key=" + key


def host_of(url: str) -> str:
    return urlsplit(url).hostname or ""


def network_address(url: str) -> str | None:
    """This server's own address on the table's network, as the other phones open it
    (``192.168.1.20:8000``, on the port of ``url``, a link made here): the first of the names it answers to (``TRUSTED_HOSTS``, which
    ``make run`` sets to this machine's names and addresses) that is an IPv4 address of a local
    network, else a ``.local`` name; None when it names none."""
    port = urlsplit(url).port
    hosts = [str(h) for h in current_app.config.get("TRUSTED_HOSTS") or []]

    def on_network(host: str) -> bool:
        try:
            ip = ipaddress.ip_address(host)
        except ValueError:
            return False
        return ip.version == 4 and ip.is_private and not ip.is_loopback and not ip.is_link_local

    found = next((h for h in hosts if on_network(h)), None) or next((h for h in hosts if h.endswith(".local")), None)
    if found is None:
        return None
    return found if port in (None, 80) else f"{found}:{port}"
