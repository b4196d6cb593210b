"""The check every answer passes before anything reads it."""

import re
import time
from typing import Optional, Union

try:
    from nacl.exceptions import BadSignatureError
    from nacl.signing import VerifyKey
except ImportError as missing:  # pragma: no cover - depends on the installation
    raise ImportError(
        "latchkey checks each answer's Ed25519 signature with PyNaCl, which is not installed: "
        'pip install "latchkey[nacl]" (or your system\'s python3-nacl package)'
    ) from missing

_HEX_PUBLIC_KEY = re.compile(r"[0-9a-fA-F]{64}")
_HEX_SIGNATURE = re.compile(r"[0-9a-fA-F]{128}")
# [0-9], not \d: Python's \d also takes other scripts' digits, which are no unix time.
_UNIX_SECONDS = re.compile(r"[0-9]{1,15}")

#: How far an answer's signing time may be from this machine's clock (the server's advice).
DEFAULT_MAX_CLOCK_SKEW_SECONDS = 300


def public_key_from_hex(public_key_hex: str) -> VerifyKey:
    """The Ed25519 key of a 64-hex public key; ValueError on anything else (a programming error)."""
    if not isinstance(public_key_hex, str) or not _HEX_PUBLIC_KEY.fullmatch(public_key_hex):
        raise ValueError("public_key must be the application's Ed25519 public key: 64 hex digits")
    return VerifyKey(bytes.fromhex(public_key_hex))


def ed25519_holds(key: VerifyKey, message: bytes, signature: bytes) -> bool:
    """Whether ``signature`` is the key's over ``message``."""
    try:
        key.verify(message, signature)
        return True
    except (BadSignatureError, ValueError):
        return False


def check_answer_signature(
    public_key: Union[str, VerifyKey],
    timestamp: Optional[str],
    signature: Optional[str],
    nonce: str,
    body: Union[bytes, str],
    now: Optional[float] = None,
    max_clock_skew_seconds: float = DEFAULT_MAX_CLOCK_SKEW_SECONDS,
) -> Optional[str]:
    """
    Why an answer is not to be believed, or None when it is genuine: its Ed25519 signature
    covers ``{timestamp}.{nonce}.{body}`` under the pinned key (the nonce binds it to this
    request, so an answer recorded earlier cannot be replayed), and it was signed within
    ``max_clock_skew_seconds`` of this machine's clock. The signature is checked first, so
    ``stale`` only ever describes a genuine answer.

    ``timestamp`` and ``signature`` are the ``X-Signature-Timestamp`` and
    ``X-Signature-Ed25519`` headers as received (None when absent), ``nonce`` the
    ``X-Request-Nonce`` this request sent ('' for none), ``body`` the bytes exactly as received,
    ``now`` this machine's clock in unix seconds.
    """
    if not isinstance(timestamp, str) or not _UNIX_SECONDS.fullmatch(timestamp):
        return "unsigned"
    if not isinstance(signature, str) or not _HEX_SIGNATURE.fullmatch(signature):
        return "unsigned"
    key = public_key_from_hex(public_key) if isinstance(public_key, str) else public_key
    body_bytes = body.encode("utf-8") if isinstance(body, str) else bytes(body)
    signature_bytes = bytes.fromhex(signature)

    def holds_for(signed_nonce: str) -> bool:
        signed = f"{timestamp}.{signed_nonce}.".encode("utf-8") + body_bytes
        return ed25519_holds(key, signed, signature_bytes)

    if not holds_for(nonce):
        # Only to say why: an answer signed for no nonce is refused all the same.
        return "nonce" if nonce != "" and holds_for("") else "signature"
    current = time.time() if now is None else now
    if abs(current - int(timestamp)) > max_clock_skew_seconds:
        return "stale"
    return None
