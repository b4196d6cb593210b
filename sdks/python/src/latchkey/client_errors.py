"""The two ways a call fails without an outcome: an answer not to be believed, and no answer."""

from typing import Optional, Tuple

#: Why an answer was refused before anything read it:
#: ``unsigned``: the signature headers are missing or malformed;
#: ``signature``: the Ed25519 signature does not hold for the pinned key, this request's nonce
#: and the bytes received (a changed body, another key, a replayed answer);
#: ``nonce``: the answer is signed for a request that carried no nonce, so this request's nonce
#: never reached the server (something in between removed it);
#: ``stale``: genuinely signed, but at a time too far from this machine's clock;
#: ``digest``: downloaded bytes whose size or SHA-256 is not what the signed answer said.
SIGNATURE_ERROR_REASONS: Tuple[str, ...] = ("unsigned", "signature", "nonce", "stale", "digest")

#: Why no usable answer came:
#: ``unreachable``: no HTTP answer at all (refused, DNS, reset, proxy refused);
#: ``timeout``: none within the timeout;
#: ``server-error``: a 5xx, a server fault rather than an answer;
#: ``malformed``: an answer that is not the client API's JSON, or too large.
TRANSPORT_ERROR_REASONS: Tuple[str, ...] = ("unreachable", "timeout", "server-error", "malformed")


class LatchkeyError(Exception):
    """The base of the library's own errors."""


class SignatureError(LatchkeyError):
    """An answer (or a download) that did not prove it comes from the application: never trusted."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason
        self.message = message


class TransportError(LatchkeyError):
    """The network or the server failed: the outcome is unknown, not a refusal."""

    def __init__(
        self,
        reason: str,
        message: str,
        status: Optional[int] = None,
        retry_after_seconds: Optional[int] = None,
    ) -> None:
        super().__init__(message)
        self.reason = reason
        self.message = message
        #: The HTTP status, when an answer came.
        self.status = status
        #: Seconds the server asked to wait (a 503's ``Retry-After``), when it did.
        self.retry_after_seconds = retry_after_seconds
