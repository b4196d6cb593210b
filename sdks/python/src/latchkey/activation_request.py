"""Activation requests (``LKA1.``): an air-gapped machine asks the portal for its licence."""

import base64
import hashlib
import json
import re
import secrets
import time
from datetime import datetime, timedelta, timezone
from typing import Any, Dict, Optional

from .offline_license import Moment

_PREFIX = "LKA1"
_CHECK_DOMAIN = "latchkey-activation-v1"
_CHECK_LENGTH = 16
_HEX_PUBLIC_KEY = re.compile(r"[0-9a-fA-F]{64}")
_NONCE = re.compile(r"[A-Za-z0-9_-]{16,64}")
_EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)
_ONE_MILLISECOND = timedelta(milliseconds=1)


def _base64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _iso_milliseconds(moment: Optional[Moment]) -> str:
    """The time in UTC to the millisecond, as JavaScript's ``toISOString`` writes it (a naive
    datetime is UTC, a number unix seconds)."""
    if moment is None:
        milliseconds = time.time_ns() // 1_000_000
    elif isinstance(moment, datetime):
        aware = moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)
        milliseconds = (aware - _EPOCH) // _ONE_MILLISECOND
    elif isinstance(moment, (int, float)) and not isinstance(moment, bool):
        milliseconds = int(moment * 1000 // 1)
    else:
        raise ValueError("now must be a datetime or unix seconds")
    utc = _EPOCH + milliseconds * _ONE_MILLISECOND
    return (
        f"{utc.year:04d}-{utc.month:02d}-{utc.day:02d}T{utc.hour:02d}:{utc.minute:02d}:"
        f"{utc.second:02d}.{utc.microsecond // 1000:03d}Z"
    )


def _check_text(name: str, value: Optional[str]) -> None:
    if value is None:
        return
    if not isinstance(value, str):
        raise ValueError(f"{name} must be text")
    # A lone surrogate is not Unicode (no UTF-8 encodes it) and the server stores no NUL.
    if "\0" in value or any("\ud800" <= character <= "\udfff" for character in value):
        raise ValueError(f"{name} must be Unicode text without NUL")


def create_activation_request(
    public_key: str,
    hwid: str,
    license_key: Optional[str] = None,
    username: Optional[str] = None,
    device_name: Optional[str] = None,
    encrypt: bool = False,
    nonce: Optional[str] = None,
    now: Optional[Moment] = None,
) -> str:
    """
    The text of an activation request, ``LKA1.<payload>.<check>``, written without the
    network. A program on a machine that never reaches the server shows it to its user, who
    pastes it into the application's portal on another computer (signed in, or with
    ``license_key``) and pastes the offline licence the portal answers (``LK1E.`` with
    ``encrypt``) back into the program, to check with ``verify_offline_license``.

    ``public_key`` is the application's (64 hex digits), ``hwid`` this machine's exactly as the
    program sends it at login; ``username`` the account the user named, ``device_name`` a name
    for the machine in the user's devices; ``nonce`` (16 to 64 of ``A-Z a-z 0-9 _ -``, 16
    random bytes in base64url by default) and ``now`` (a datetime or unix seconds; this
    machine's clock by default) only pin what would otherwise be random and the clock.

    ``<payload>`` is the base64url of the UTF-8 JSON content (``app``, ``hwid``,
    ``license_key``, ``username``, ``device_name``, ``encrypt``, ``nonce``, ``created_at``, in
    that order; an empty text and ``encrypt`` False are left out), ``<check>`` the first 16
    characters of the base64url of SHA-256 over ``latchkey-activation-v1.`` and the payload
    segment: nothing secret signs it, the check catches a request copied in part. The same
    bytes in every Latchkey SDK. Raises ``ValueError`` for a public key that is not 64 hex
    digits, an empty HWID, a nonce outside its alphabet or length, or a text that is not
    Unicode without NUL.
    """
    if not isinstance(public_key, str) or not _HEX_PUBLIC_KEY.fullmatch(public_key):
        raise ValueError("public_key must be the application's Ed25519 public key: 64 hex digits")
    if not isinstance(hwid, str) or hwid == "":
        raise ValueError("hwid is required")
    if nonce is None:
        nonce = _base64url(secrets.token_bytes(16))
    if not isinstance(nonce, str) or not _NONCE.fullmatch(nonce):
        raise ValueError("nonce must be 16 to 64 of A-Z, a-z, 0-9, _ and -")
    for name, value in (
        ("hwid", hwid),
        ("license_key", license_key),
        ("username", username),
        ("device_name", device_name),
    ):
        _check_text(name, value)
    created_at = _iso_milliseconds(now)

    # The order is the contract's: every SDK writes the same bytes for the same request.
    content: Dict[str, Any] = {"app": public_key.lower(), "hwid": hwid}
    if license_key:
        content["license_key"] = license_key
    if username:
        content["username"] = username
    if device_name:
        content["device_name"] = device_name
    if encrypt:
        content["encrypt"] = True
    content["nonce"] = nonce
    content["created_at"] = created_at
    # As JavaScript's JSON.stringify writes it: no spaces, every character beyond ASCII as is.
    text = json.dumps(content, ensure_ascii=False, separators=(",", ":"))
    payload = _base64url(text.encode("utf-8"))
    digest = hashlib.sha256(f"{_CHECK_DOMAIN}.{payload}".encode("ascii")).digest()
    return f"{_PREFIX}.{payload}.{_base64url(digest)[:_CHECK_LENGTH]}"

