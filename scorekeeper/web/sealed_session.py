"""The session cookie, sealed: encrypted and authenticated, so that it can be neither read nor
changed without the server's secret.

Flask's own cookie is only signed: anyone who sees one request on the table's open Wi-Fi could
decode it and read the club key and every edit key the phone holds, and then keep score (or run
the club) from their own phone. The share page needs the raw edit keys again to show the links,
so the keys stay in the phone's session, and the session is sealed instead. AES-GCM from
``cryptography`` (a well-kept library rather than our own cipher), its key derived from
``SECRET_KEY`` with HKDF; each entry of ``SECRET_KEY_FALLBACKS`` still opens older cookies.

The content is compressed before it is sealed, as Flask's signed cookie was: an edit key is 43
characters of base64 for 32 random bytes, and zlib packs those characters back to about their
raw bytes (a packing of our own into raw bytes would save about one byte a key). Sealing costs
16 bytes more than signing: 30 edit keys and the club key still make a cookie of about 1.7 KB,
and with 10 seats' keys and 3 games' seat links about 3.3 KB, under the 4 KB a browser keeps.
"""

from __future__ import annotations

import base64
import binascii
import os
import struct
import time
import zlib
from functools import lru_cache

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from flask import Flask, Request, Response, request
from flask.sessions import SecureCookieSession, SecureCookieSessionInterface

#: The nonce AES-GCM takes: 96 random bits, a fresh one for every cookie written.
NONCE = 12
#: When the cookie was sealed (seconds since 1970), before the content: its age is checked
#: against ``PERMANENT_SESSION_LIFETIME`` as Flask's signed cookie's timestamp was.
SEALED_AT = struct.Struct(">I")
#: Longer than any cookie a browser sends back (4 KB): a longer one is not even decoded.
MOST = 8192
#: Names what the key is for, so a key derived from the same secret elsewhere never matches.
PURPOSE = b"scorekeeper session cookie v1"


@lru_cache(maxsize=8)
def cipher(secret: str | bytes) -> AESGCM:
    material = secret.encode("utf-8") if isinstance(secret, str) else secret
    key = HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=PURPOSE).derive(material)
    return AESGCM(key)


def ciphers(app: Flask) -> list[AESGCM]:
    """The newest secret's first (it seals), then the fallbacks' (they only open)."""
    secrets = [app.secret_key, *reversed(app.config.get("SECRET_KEY_FALLBACKS") or [])]
    return [cipher(secret) for secret in secrets if secret]


class SessionInterface(SecureCookieSessionInterface):
    """The session cookie is sealed, and Secure whenever the page was served over HTTPS."""

    def get_cookie_secure(self, app: Flask) -> bool:
        return bool(app.config.get("SESSION_COOKIE_SECURE")) or request.is_secure

    def seal(self, app: Flask, data: dict) -> str:
        plain = SEALED_AT.pack(int(time.time())) + zlib.compress(self.serializer.dumps(data).encode("utf-8"), 9)
        nonce = os.urandom(NONCE)
        sealed = nonce + ciphers(app)[0].encrypt(nonce, plain, None)
        return base64.urlsafe_b64encode(sealed).rstrip(b"=").decode("ascii")

    def unseal(self, app: Flask, value: str) -> dict | None:
        """The content of a cookie this server sealed and that has not expired, else None."""
        if len(value) > MOST or not value.isascii():
            return None
        try:
            sealed = base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
        except (binascii.Error, ValueError):
            return None
        nonce, body = sealed[:NONCE], sealed[NONCE:]
        if len(nonce) < NONCE:
            return None
        for each in ciphers(app):
            try:
                plain = each.decrypt(nonce, body, None)
            except InvalidTag:
                continue
            (sealed_at,) = SEALED_AT.unpack_from(plain)
            if time.time() - sealed_at > app.permanent_session_lifetime.total_seconds():
                return None
            data = self.serializer.loads(zlib.decompress(plain[SEALED_AT.size:]).decode("utf-8"))
            return data if isinstance(data, dict) else None
        return None

    def open_session(self, app: Flask, request: Request) -> SecureCookieSession | None:
        if not app.secret_key:
            return None
        value = request.cookies.get(self.get_cookie_name(app))
        if not value:
            return self.session_class()
        data = self.unseal(app, value)
        if data is not None:
            return self.session_class(data)
        # A phone's cookie from before the sessions were sealed: Flask's signed one. Read once
        # (its signature still checked) and written back sealed with this very answer, so the
        # phone keeps its keys and the readable copy goes out of use. Anything else, tampered
        # or sealed with a secret no longer kept, is an empty session, as an expired one is.
        old = super().open_session(app, request)
        if old:
            old.modified = True
        return old

    def save_session(self, app: Flask, session: SecureCookieSession, response: Response) -> None:
        name = self.get_cookie_name(app)
        domain = self.get_cookie_domain(app)
        path = self.get_cookie_path(app)
        secure = self.get_cookie_secure(app)
        partitioned = self.get_cookie_partitioned(app)
        samesite = self.get_cookie_samesite(app)
        httponly = self.get_cookie_httponly(app)
        if session.accessed:
            response.vary.add("Cookie")
        if not session:
            if session.modified:
                response.delete_cookie(name, domain=domain, path=path, secure=secure, partitioned=partitioned,
                                       samesite=samesite, httponly=httponly)
                response.vary.add("Cookie")
            return
        if not self.should_set_cookie(app, session):
            return
        response.set_cookie(name, self.seal(app, dict(session)), expires=self.get_expiration_time(app, session),
                            httponly=httponly, domain=domain, path=path, secure=secure, partitioned=partitioned,
                            samesite=samesite)
        response.vary.add("Cookie")
