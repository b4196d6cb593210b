"""HTTP through the standard library, with an explicit proxy or none."""

import base64
import socket
import time
import urllib.error
import urllib.parse
import urllib.request
from email.message import Message
from http.client import HTTPException, HTTPResponse
from typing import Dict, NamedTuple, Optional
from urllib.parse import unquote

from .client_errors import TransportError


class HttpExchange(NamedTuple):
    status: int
    #: Looked up case-insensitively with ``get``; None when absent.
    headers: Message
    body: bytes


class _ExplicitProxyHandler(urllib.request.ProxyHandler):
    """
    urllib's ProxyHandler without its ``no_proxy`` exception: the program chose this proxy in
    code, so a host the environment exempts still goes through it (as in every Latchkey SDK).
    """

    def proxy_open(self, req, proxy, scheme):
        parts = urllib.parse.urlsplit(proxy)
        if parts.username is not None:
            credentials = f"{unquote(parts.username)}:{unquote(parts.password or '')}"
            token = base64.b64encode(credentials.encode("utf-8")).decode("ascii")
            req.add_header("Proxy-authorization", f"Basic {token}")
        # An http: URL is then sent in absolute form to the proxy, an https: one through a
        # CONNECT tunnel; urllib's HTTP and HTTPS handlers do the rest.
        req.set_proxy(parts.netloc.rpartition("@")[2], "http")
        return None


def build_opener(proxy: Optional[str]) -> urllib.request.OpenerDirector:
    """
    An opener that goes through ``proxy`` (``http://[user:password@]host:port``: an ``http:``
    server in absolute form, an ``https:`` one through a ``CONNECT`` tunnel, TLS end to end) or
    connects directly. Built by hand rather than with ``urllib.request.build_opener``: the
    environment's proxy variables are not this library's to follow (a vendor's program decides),
    redirects are not followed (the client API never redirects, and a redirect would carry the
    API key elsewhere), and every status comes back as an answer rather than an ``HTTPError``.
    """
    opener = urllib.request.OpenerDirector()
    proxies = {"http": proxy, "https": proxy} if proxy else {}
    opener.add_handler(_ExplicitProxyHandler(proxies))
    opener.add_handler(urllib.request.HTTPHandler())
    opener.add_handler(urllib.request.HTTPSHandler())
    return opener


def open_request(
    opener: urllib.request.OpenerDirector,
    url: str,
    method: str,
    headers: Dict[str, str],
    body: Optional[bytes],
    timeout: float,
) -> HTTPResponse:
    """Sends one request and returns the response, its body still to read."""
    request = urllib.request.Request(url, data=body, headers=headers, method=method)
    try:
        response = opener.open(request, timeout=timeout)
    except urllib.error.URLError as error:
        raise as_transport_error(error.reason) from error
    except (OSError, HTTPException) as error:
        raise as_transport_error(error) from error
    if response is None:
        raise TransportError("unreachable", f"Unsupported URL: {url}")
    return response


def read_body(response: HTTPResponse, deadline: float, max_bytes: int, timeout: float) -> bytes:
    """The whole body, at most ``max_bytes``, read before ``deadline`` (monotonic seconds)."""
    chunks = []
    size = 0
    try:
        while True:
            if time.monotonic() > deadline:
                raise TransportError("timeout", f"No answer within {timeout} s")
            chunk = response.read1(65536)
            if not chunk:
                break
            size += len(chunk)
            if size > max_bytes:
                raise TransportError("malformed", "The answer is larger than any the server sends")
            chunks.append(chunk)
    except (OSError, HTTPException) as error:
        raise as_transport_error(error) from error
    finally:
        response.close()
    return b"".join(chunks)


def send_request(
    opener: urllib.request.OpenerDirector,
    url: str,
    headers: Dict[str, str],
    body: bytes,
    timeout: float,
    max_body_bytes: int,
) -> HttpExchange:
    """One whole POST exchange: the answer's body read into memory."""
    deadline = time.monotonic() + timeout
    response = open_request(opener, url, "POST", headers, body, timeout)
    data = read_body(response, deadline, max_body_bytes, timeout)
    return HttpExchange(response.status, response.headers, data)


def as_transport_error(error: object) -> TransportError:
    if isinstance(error, TransportError):
        return error
    # socket.timeout first: before Python 3.10 it is not TimeoutError.
    if isinstance(error, (socket.timeout, TimeoutError)):
        return TransportError("timeout", "No answer in time")
    return TransportError("unreachable", f"{type(error).__name__}: {error}")
