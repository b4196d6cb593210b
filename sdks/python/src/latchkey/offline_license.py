"""Offline licences (``LK1.`` and ``LK1E.``), verified without the network."""

import base64
import hashlib
import hmac
import json
import re
import time
from dataclasses import dataclass, field
from datetime import datetime, timezone
from enum import Enum
from typing import Any, Dict, Optional, Union

from .aes_gcm import decrypt_aes_256_gcm
from .answer_signature import ed25519_holds, public_key_from_hex
from nacl.signing import VerifyKey


class OfflineLicenseCode(str, Enum):
    """
    Why an offline licence holds or not:
    ``MALFORMED``: not ``LK1.<payload>.<signature>`` / ``LK1E.…`` in canonical base64url;
    ``BAD_SIGNATURE``: not signed by this application's key (edited, made up, another
    application's); ``OTHER_APPLICATION``: signed, but naming another application than the one
    asked for; ``OTHER_MACHINE``: issued to another HWID (an encrypted one does not even decrypt
    here); ``EXPIRED``: now is at or past ``valid_until``; ``CLOCK_MOVED_BACK``: this machine's
    clock is before the licence's issue or the latest time the program has seen, beyond the
    tolerance: set back to stretch the licence.
    """

    OK = "OK"
    MALFORMED = "MALFORMED"
    BAD_SIGNATURE = "BAD_SIGNATURE"
    OTHER_APPLICATION = "OTHER_APPLICATION"
    OTHER_MACHINE = "OTHER_MACHINE"
    EXPIRED = "EXPIRED"
    CLOCK_MOVED_BACK = "CLOCK_MOVED_BACK"

    def __str__(self) -> str:
        return self.value


_MESSAGES = {
    OfflineLicenseCode.OK: "Offline licence valid",
    OfflineLicenseCode.MALFORMED: "This is not an offline licence",
    OfflineLicenseCode.BAD_SIGNATURE: "This offline licence is not signed by this application",
    OfflineLicenseCode.OTHER_APPLICATION: "This offline licence is for another application",
    OfflineLicenseCode.OTHER_MACHINE: "This offline licence belongs to another machine",
    OfflineLicenseCode.EXPIRED: "This offline licence has expired",
    OfflineLicenseCode.CLOCK_MOVED_BACK: "The system clock was set back",
}


@dataclass(frozen=True)
class OfflineLicenseCheck:
    """The verdict on an offline licence; ``content`` once its signature holds (also when its
    terms refuse it): the payload's JSON, snake_case like the client API. Its ``updates_until``
    (the end of the holder's updates window, as login answers it) is None for every release,
    and for a licence issued before the field existed. Its ``meters`` are the usage meters as
    they stood when it was issued (a snapshot: use offline is not counted), an empty list for a
    user without any and for a licence issued before meters existed."""

    success: bool
    code: OfflineLicenseCode
    message: str
    content: Optional[Dict[str, Any]] = field(default=None)

    def to_dict(self) -> Dict[str, Any]:
        """The verdict as a plain dictionary (no ``content`` key when there is none)."""
        verdict: Dict[str, Any] = {
            "success": self.success,
            "code": self.code.value,
            "message": self.message,
        }
        if self.content is not None:
            verdict["content"] = self.content
        return verdict


_PLAIN = ("LK1", "latchkey-license-v1")
_ENCRYPTED = ("LK1E", "latchkey-license-v1e")
_IV_BYTES = 12
_TAG_BYTES = 16
_BASE64URL = re.compile(r"[A-Za-z0-9_-]+")

Moment = Union[datetime, float, int]


def _outcome(code: OfflineLicenseCode, content: Optional[Dict[str, Any]] = None):
    return OfflineLicenseCheck(code is OfflineLicenseCode.OK, code, _MESSAGES[code], content)


def _from_base64url(segment: str) -> Optional[bytes]:
    # Canonical only: the standard decoder forgives padding and non-zero unused bits, so a
    # segment counts only when it re-encodes to exactly itself.
    if not _BASE64URL.fullmatch(segment):
        return None
    try:
        data = base64.urlsafe_b64decode(segment + "=" * (-len(segment) % 4))
    except ValueError:
        return None
    return data if base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii") == segment else None


def _seconds_of_iso(value: Any) -> Optional[float]:
    if not isinstance(value, str):
        return None
    text = value.strip()
    if text.endswith(("Z", "z")):
        text = text[:-1] + "+00:00"
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=timezone.utc)
    return moment.timestamp()


def _seconds_of(moment: Optional[Moment], default: float) -> float:
    if moment is None:
        return default
    if isinstance(moment, datetime):
        if moment.tzinfo is None:
            moment = moment.replace(tzinfo=timezone.utc)
        return moment.timestamp()
    return float(moment)


def _hkdf_sha256(secret: bytes, salt: bytes, info: bytes, length: int = 32) -> bytes:
    pseudo_random_key = hmac.new(salt, secret, hashlib.sha256).digest()
    output, block, counter = b"", b"", 1
    while len(output) < length:
        block = hmac.new(pseudo_random_key, block + info + bytes([counter]), hashlib.sha256).digest()
        output += block
        counter += 1
    return output[:length]


def _decrypt_for_machine(sealed: bytes, hwid: str, key: VerifyKey) -> Optional[bytes]:
    """AES-256-GCM under HKDF-SHA256(HWID, salt: the raw public key, info: the domain); None:
    not this machine's."""
    if len(sealed) < _IV_BYTES + _TAG_BYTES:
        return None
    aes_key = _hkdf_sha256(hwid.encode("utf-8"), bytes(key), _ENCRYPTED[1].encode("ascii"))
    return decrypt_aes_256_gcm(
        aes_key, sealed[:_IV_BYTES], sealed[_IV_BYTES:-_TAG_BYTES], sealed[-_TAG_BYTES:]
    )


def _parse_content(data: bytes) -> Optional[Dict[str, Any]]:
    try:
        content = json.loads(data.decode("utf-8"))
    except ValueError:
        return None
    if not isinstance(content, dict):
        return None
    if _seconds_of_iso(content.get("valid_until")) is None:
        return None
    if _seconds_of_iso(content.get("issued_at")) is None:
        return None
    if content.get("hwid") is not None and not isinstance(content.get("hwid"), str):
        return None
    # Licences issued before updates windows existed lack the field: no window, every release.
    content.setdefault("updates_until", None)
    # The server leaves meters out for a user without any, as licences issued before them do.
    content.setdefault("meters", [])
    return content


def verify_offline_license(
    license: str,
    public_key: Union[str, VerifyKey],
    hwid: str,
    application_id: Optional[int] = None,
    now: Optional[Moment] = None,
    last_seen_at: Optional[Moment] = None,
    clock_tolerance_seconds: float = 300,
) -> OfflineLicenseCheck:
    """
    Checks an offline licence from ``checkout`` without the network: its signature under the
    pinned key (over the domain and the payload segment as it stands), for ``LK1E`` its
    decryption with the key derived from this machine's HWID, then its terms (application,
    machine, validity, and a clock set back). Never raises for a licence, whatever it holds.

    ``hwid`` is this machine's HWID exactly as the program sends it at login; ``now`` and
    ``last_seen_at`` (the latest time the program has seen, kept between runs) are datetimes or
    unix seconds; ``application_id``, when the program knows it, must be the licence's.
    """
    parts = license.split(".") if isinstance(license, str) else []
    if len(parts) != 3 or parts[0] not in (_PLAIN[0], _ENCRYPTED[0]):
        return _outcome(OfflineLicenseCode.MALFORMED)
    prefix, payload, signature = parts
    domain = _PLAIN[1] if prefix == _PLAIN[0] else _ENCRYPTED[1]
    payload_bytes = _from_base64url(payload)
    signature_bytes = _from_base64url(signature)
    if payload_bytes is None or signature_bytes is None or len(signature_bytes) != 64:
        return _outcome(OfflineLicenseCode.MALFORMED)

    key = public_key_from_hex(public_key) if isinstance(public_key, str) else public_key
    if not ed25519_holds(key, f"{domain}.{payload}".encode("ascii"), signature_bytes):
        return _outcome(OfflineLicenseCode.BAD_SIGNATURE)

    data = payload_bytes
    if prefix == _ENCRYPTED[0]:
        decrypted = _decrypt_for_machine(payload_bytes, hwid, key)
        if decrypted is None:
            return _outcome(OfflineLicenseCode.OTHER_MACHINE)
        data = decrypted
    content = _parse_content(data)
    if content is None:
        return _outcome(OfflineLicenseCode.MALFORMED)

    if application_id is not None and content.get("application_id") != application_id:
        return _outcome(OfflineLicenseCode.OTHER_APPLICATION, content)
    if content.get("hwid") is not None and content["hwid"] != hwid:
        return _outcome(OfflineLicenseCode.OTHER_MACHINE, content)
    current = _seconds_of(now, time.time())
    if current >= (_seconds_of_iso(content["valid_until"]) or 0):
        return _outcome(OfflineLicenseCode.EXPIRED, content)
    latest_seen = max(_seconds_of_iso(content["issued_at"]) or 0, _seconds_of(last_seen_at, 0))
    if current + clock_tolerance_seconds < latest_seen:
        return _outcome(OfflineLicenseCode.CLOCK_MOVED_BACK, content)
    return _outcome(OfflineLicenseCode.OK, content)
