"""Downloads checked against the signed size and SHA-256 before they are kept."""

import hashlib
import os
import secrets
import time
import urllib.request

from .client_errors import SignatureError, TransportError
from .http_transport import as_transport_error, open_request


def _digest_refusal(what: str) -> SignatureError:
    return SignatureError(
        "digest", f"The download does not match its signed size and SHA-256: {what}"
    )


def download_file(
    opener: urllib.request.OpenerDirector,
    url: str,
    destination: str,
    size: int,
    sha256: str,
    timeout: float,
) -> None:
    """
    Streams a download into a temporary file beside ``destination`` while hashing it, and moves
    it into place only when its size and SHA-256 are the signed ones. The bytes themselves are
    not signed (anything on the way could change them), the hash is; a file that does not match
    is deleted, never left where the program would run it.
    """
    directory = os.path.dirname(os.path.abspath(destination))
    temporary = os.path.join(
        directory, f".{os.path.basename(destination)}.{secrets.token_hex(6)}.part"
    )
    deadline = time.monotonic() + timeout
    digest = hashlib.sha256()
    received = 0
    is_complete = False
    try:
        response = open_request(opener, url, "GET", {}, None, timeout)
        try:
            if response.status != 200:
                raise TransportError(
                    "server-error" if response.status >= 500 else "unreachable",
                    f"The download answered HTTP {response.status}",
                    response.status,
                )
            descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(descriptor, "wb") as file:
                while True:
                    if time.monotonic() > deadline:
                        raise TransportError("timeout", f"Download not done within {timeout} s")
                    chunk = response.read(65536)
                    if not chunk:
                        break
                    received += len(chunk)
                    if received > size:
                        # More than was signed is wrong already: stop rather than fill the disk.
                        raise _digest_refusal(f"more than the {size} bytes signed")
                    digest.update(chunk)
                    file.write(chunk)
        except (SignatureError, TransportError):
            raise
        except Exception as error:
            raise as_transport_error(error) from error
        finally:
            response.close()
        actual = digest.hexdigest()
        if received != size or actual != sha256.lower():
            raise _digest_refusal(f"{received} bytes with SHA-256 {actual}")
        os.replace(temporary, destination)
        is_complete = True
    finally:
        if not is_complete:
            _remove(temporary)


def _remove(path: str) -> None:
    try:
        os.remove(path)
    except FileNotFoundError:
        pass
