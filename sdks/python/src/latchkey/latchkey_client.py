"""The client of one Latchkey application."""

import json
import re
import secrets
import threading
import time
import urllib.parse
import uuid
from dataclasses import dataclass
from typing import Any, Callable, Dict, List, Mapping, Optional

from .activation_request import create_activation_request
from .answer_signature import (
    DEFAULT_MAX_CLOCK_SKEW_SECONDS,
    check_answer_signature,
    public_key_from_hex,
)
from .client_errors import SignatureError, TransportError
from .download_file import download_file
from .http_transport import build_opener, send_request
from .machine_id import hash_machine_id, read_raw_machine_id
from .offline_license import Moment, OfflineLicenseCheck, verify_offline_license
from .result_types import Result, ResultCode, code_of

_V1 = "/api/v1"
_MAX_ANSWER_BYTES = 4 * 1024 * 1024
_FIRST_RETRY_DELAY_SECONDS = 0.25
_MIN_DOWNLOAD_TIMEOUT_SECONDS = 600.0
_RETRY_AFTER = re.compile(r"[0-9]{1,6}")
_SHA256_HEX = re.compile(r"[0-9a-fA-F]{64}")
#: The login refusals that carry the release the user should run as ``update``.
_CODES_OFFERING_A_RELEASE = (ResultCode.VERSION_MISMATCH, ResultCode.UPDATES_EXPIRED)

#: Heartbeat answers that mean the session is over; any other refusal (a rate limit) is not a
#: revocation and the loop goes on.
_SESSION_ENDING_CODES = frozenset(
    {
        ResultCode.SESSION_INVALID,
        ResultCode.ACCOUNT_DISABLED,
        ResultCode.ACCOUNT_EXPIRED,
        ResultCode.APP_DISABLED,
        ResultCode.NO_ACTIVE_SUBSCRIPTION,
        ResultCode.EMAIL_NOT_VERIFIED,
        ResultCode.USER_NOT_FOUND,
    }
)

_SIGNATURE_REFUSAL_MESSAGES = {
    "unsigned": "The answer is not signed",
    "signature": "The answer's signature does not hold for this application's key and this request",
    "nonce": "The answer is signed for a request without this request's nonce",
    "stale": "The answer was signed too far from this machine's clock",
    "digest": "The download does not match its signed SHA-256",
}


@dataclass(frozen=True)
class ClientSession:
    """The session a login opened: its token and its user."""

    token: str
    user_id: str


class _HeartbeatLoop:
    def __init__(
        self,
        on_revoked: Optional[Callable[[Result], Any]],
        on_error: Optional[Callable[[Exception], Any]],
    ) -> None:
        self.on_revoked = on_revoked
        self.on_error = on_error
        self.stopped = threading.Event()


class LatchkeyClient:
    """
    A client of one Latchkey application. Every answer is checked before it is read: its
    Ed25519 signature under the pinned key, this request's nonce in it, its time within the
    clock window; a refused answer raises ``SignatureError``, a network or server failure
    ``TransportError``. Business outcomes (a wrong password, an expired account) are results
    with a ``code``, never exceptions. The client never prints, never exits the process and
    never shows a window.

    ``base_url`` is the server's origin, ``api_key`` the application's API key, ``public_key``
    its Ed25519 public key (64 hex digits: pinned, so an answer signed by any other key is
    refused), ``version`` this program's version. ``timeout`` bounds one request in seconds (a
    download has at least ten minutes); ``proxy`` is ``http://[user:password@]host:port``;
    ``hwid`` is this machine's HWID (``machine_id()`` by default); ``device_name`` names this
    machine in the user's devices; ``retries`` is how many times a safe call is tried again;
    ``max_retry_delay`` the longest wait before that (a longer ``Retry-After`` answers the 429);
    ``max_clock_skew_seconds`` how far an answer's signing time may be from this clock.
    """

    def __init__(
        self,
        base_url: str,
        api_key: str,
        public_key: str,
        version: str,
        *,
        timeout: float = 30.0,
        proxy: Optional[str] = None,
        hwid: Optional[str] = None,
        device_name: Optional[str] = None,
        retries: int = 2,
        max_retry_delay: float = 30.0,
        max_clock_skew_seconds: float = DEFAULT_MAX_CLOCK_SKEW_SECONDS,
    ) -> None:
        parts = urllib.parse.urlsplit(base_url) if isinstance(base_url, str) else None
        if parts is None or parts.scheme not in ("http", "https") or not parts.netloc:
            raise ValueError("base_url must be an http: or https: URL")
        self.base_url = base_url.rstrip("/")
        if not isinstance(api_key, str) or api_key == "":
            raise ValueError("api_key is required")
        self.api_key = api_key
        self._key = public_key_from_hex(public_key)
        self.public_key = public_key.lower()
        self.version = version
        if proxy and urllib.parse.urlsplit(proxy).scheme != "http":
            raise ValueError("proxy must be an http: URL (https targets go through a CONNECT tunnel)")
        self._opener = build_opener(proxy or None)
        self.timeout = timeout
        self.retries = retries
        self.max_retry_delay = max_retry_delay
        self.max_clock_skew_seconds = max_clock_skew_seconds
        self.hwid = hwid if hwid is not None else self.machine_id()
        self.device_name = device_name
        self._lock = threading.RLock()
        self._session: Optional[ClientSession] = None
        # The token of the session whose seat this client last borrowed: the seat stays
        # borrowed after that session ends (which forgets the session), and return_seat gives
        # it back.
        self._borrowed_seat_token: Optional[str] = None
        self._heartbeat_loop: Optional[_HeartbeatLoop] = None

    @property
    def session(self) -> Optional[ClientSession]:
        """The session the last login opened, or None."""
        return self._session

    def machine_id(self) -> str:
        """
        This machine's id for this application: its own identifier (Windows ``MachineGuid``,
        macOS ``IOPlatformUUID``, Linux ``/etc/machine-id``) hashed with the application's
        public key, so the raw identifier never leaves the machine.
        """
        return hash_machine_id(read_raw_machine_id(), self.public_key)

    def register(
        self,
        username: str,
        password: str,
        email: Optional[str] = None,
        license_key: Optional[str] = None,
    ) -> Result:
        """A new account; with ``license_key``, the key is redeemed in the same step. No
        session: log in next."""
        payload: Dict[str, Any] = {"username": username, "password": password, "hwid": self.hwid}
        if email:
            payload["email"] = email
        if license_key:
            payload["license_key"] = license_key
        return self._call("/register", is_safe=False, payload=payload)

    def login(
        self,
        username: str,
        password: str,
        required_entitlements: Optional[List[str]] = None,
    ) -> Result:
        """
        Logs in and opens the session (``session/track`` start with the token the login
        issued), so heartbeat, checkout and the user's variables can follow. A refused start
        answers in the login's place. With ``required_entitlements``, the user must hold each
        of them (a verify, before the session opens): if not, no session opens and the answer
        is the verify's refusal (``ENTITLEMENTS_MISSING`` with ``missing_entitlements``) over
        the login's fields.
        """
        payload: Dict[str, Any] = {
            "username": username,
            "password": password,
            "version": self.version,
            "hwid": self.hwid,
        }
        if self.device_name:
            payload["device_name"] = self.device_name
        return self._open_session(
            self._call("/login", is_safe=False, payload=payload), required_entitlements
        )

    def license_login(
        self, license_key: str, required_entitlements: Optional[List[str]] = None
    ) -> Result:
        """
        Logs in with a licence key alone (its first use creates the user) and opens the
        session; ``required_entitlements`` as for ``login``.
        """
        payload: Dict[str, Any] = {
            "license_key": license_key,
            "version": self.version,
            "hwid": self.hwid,
        }
        if self.device_name:
            payload["device_name"] = self.device_name
        return self._open_session(
            self._call("/license/login", is_safe=False, payload=payload), required_entitlements
        )

    def start_trial(
        self,
        hwid: Optional[str] = None,
        username: Optional[str] = None,
        required_entitlements: Optional[List[str]] = None,
    ) -> Result:
        """
        Starts this machine's trial, or logs in the one it already has, and opens the session;
        ``required_entitlements`` as for ``login``. The application offers one trial per machine
        (``hwid``, this client's unless given): the first call creates a trial account (named
        ``username``, else ``trial-`` and random hex) ending after the application's trial days,
        with its trial entitlements; every later call from the machine, whatever ``username``
        it sends, logs in that same account. ``TRIAL_UNAVAILABLE`` when the application offers
        no trial, ``TRIAL_EXPIRED`` once the machine's trial has ended (``expires_at`` says
        when), ``TRIAL_USED`` when the vendor deleted its account. Never sent twice, as a login.
        """
        machine = hwid if hwid is not None else self.hwid
        payload: Dict[str, Any] = {"hwid": machine, "version": self.version}
        if username:
            payload["username"] = username
        if self.device_name:
            payload["device_name"] = self.device_name
        return self._open_session(
            self._call("/trial", is_safe=False, payload=payload), required_entitlements, machine
        )

    def redeem(self, username: str, password: str, license_key: str) -> Result:
        """Adds a licence key to an account; the password proves the holder."""
        payload = {"username": username, "password": password, "license_key": license_key}
        return self._call("/license/redeem", is_safe=False, payload=payload)

    def verify(
        self, user_id: Optional[str] = None, entitlements: Optional[List[str]] = None
    ) -> Result:
        """Is the user (the session's, unless ``user_id`` is given) in good standing now,
        holding every entitlement asked for?"""
        payload: Dict[str, Any] = {
            "user_id": user_id if user_id is not None else self._require_session("verify").user_id
        }
        if entitlements is not None:
            payload["entitlements"] = list(entitlements)
        return self._call("/verify", is_safe=True, payload=payload)

    def heartbeat(self) -> Result:
        """
        Keeps the session alive. A refusal that ends it (paused, expired, released...) forgets
        it here too, and a running heartbeat loop stops and reports it to its ``on_revoked``.
        """
        session = self._require_session("heartbeat")
        answer = self._call(
            "/session/track",
            is_safe=True,
            payload={"action": "heartbeat", "session_token": session.token},
        )
        if not answer.success and answer.code in _SESSION_ENDING_CODES:
            with self._lock:
                if self._session is not session:
                    return answer
                loop = self._heartbeat_loop
                self._forget_session()
            if loop is not None and loop.on_revoked is not None:
                _report_safely(loop.on_revoked, answer)
        return answer

    def resume_session(self, token: str, user_id: str) -> Result:
        """
        Resumes a session the program saved (``session``'s token and user id) at its next
        start, without the password: one heartbeat with its token, and when it is accepted the
        session is this client's again. Any session the client had is forgotten first; a
        refused one is not kept. Answers the heartbeat's result.
        """
        with self._lock:
            self._forget_session()
        answer = self._call(
            "/session/track",
            is_safe=True,
            payload={"action": "heartbeat", "session_token": token},
        )
        if answer.success:
            with self._lock:
                self._session = ClientSession(token=token, user_id=user_id)
        return answer

    def end_session(self) -> Optional[Result]:
        """Ends the session (None when there is none). It is over here whatever the server answers."""
        with self._lock:
            session = self._session
            self._forget_session()
        if session is None:
            return None
        return self._call(
            "/session/track", is_safe=True, payload={"action": "end", "session_token": session.token}
        )

    def get_variable(self, name: str) -> Result:
        """An application variable; the session is sent when there is one (most variables need it)."""
        payload = {"name": name}
        session = self._session
        if session is not None:
            payload["session_token"] = session.token
        return self._call("/var", is_safe=True, payload=payload)

    def get_user_variable(self, name: str) -> Result:
        """One of the session's user's own variables."""
        token = self._require_session("get_user_variable").token
        return self._call("/user-var", is_safe=True, payload={"session_token": token, "name": name})

    def set_user_variable(self, name: str, value: str) -> Result:
        """Creates or replaces one of the session's user's variables, unless the vendor made it
        read-only."""
        token = self._require_session("set_user_variable").token
        payload = {"session_token": token, "name": name, "value": value}
        return self._call("/user-var/set", is_safe=True, payload=payload)

    def use_meter(
        self, name: str, amount: int = 1, idempotency_key: Optional[str] = None
    ) -> Result:
        """
        Counts ``amount`` units against the session's user's usage meter ``name``:
        ``METER_EXHAUSTED`` when a refusing meter would pass its allowance for the period
        (nothing counted; the result still says where the meter stands), ``METER_NOT_FOUND``
        when no active plan of the user has it. The result has ``name``, ``allowance``,
        ``used``, ``remaining``, ``overage``, ``resets_at`` and, when counted, ``replayed``.
        Each increment carries an idempotency key (``idempotency_key``, or a random UUID), so
        the server counts it once however often it arrives: it is retried like the other safe
        calls, with the same key, and a repeat is answered as the first time with ``replayed``
        true. A program that tries an increment again itself passes the same key each time.
        """
        token = self._require_session("use_meter").token
        key = idempotency_key if idempotency_key is not None else str(uuid.uuid4())
        payload = {"session_token": token, "amount": amount, "idempotency_key": key}
        # The name is one segment of the path, whatever it holds.
        path = f"/meters/{urllib.parse.quote(name, safe='')}/use"
        return self._call(path, is_safe=True, payload=payload)

    def reset_devices(self, username: str, password: str, all_devices: bool = False) -> Result:
        """
        Releases this machine's seat (or, with ``all_devices``, every device of the user) where
        the application allows it; the server ends those devices' sessions, so this one is
        forgotten.
        """
        payload: Dict[str, Any] = {"username": username, "password": password}
        if all_devices:
            payload["all"] = True
        else:
            payload["hwid"] = self.hwid
        answer = self._call("/devices/reset", is_safe=False, payload=payload)
        if answer.success:
            with self._lock:
                self._forget_session()
        return answer

    def forgot_password(
        self, username: Optional[str] = None, email: Optional[str] = None
    ) -> Result:
        """
        Mails a link to choose a new password to the account named by ``username`` or by
        ``email`` (exactly one). The answer is the same whether or not the account exists.
        Never sent twice: each request may send a mail.
        """
        if (username is None) == (email is None):
            raise TypeError("forgot_password: give either username or email")
        payload = {"username": username} if username is not None else {"email": email}
        return self._call("/password/forgot", is_safe=False, payload=payload)

    def resend_verification(self, username: str, password: str) -> Result:
        """
        Mails a new link to confirm the account's e-mail address, for an application that lets
        only confirmed addresses log in; the password proves the holder. The answer is the same
        whatever the account. Never sent twice.
        """
        return self._call(
            "/email/verify/resend",
            is_safe=False,
            payload={"username": username, "password": password},
        )

    def checkout(self, ttl_seconds: Optional[int] = None, encrypt: bool = False) -> Result:
        """
        An offline licence for the session: one line (``LK1.…``, or ``LK1E.…`` with
        ``encrypt``) to store as the program likes and check with ``verify_offline_license``
        when the server is out of reach.
        """
        payload: Dict[str, Any] = {"session_token": self._require_session("checkout").token}
        if ttl_seconds is not None:
            payload["ttl_seconds"] = ttl_seconds
        if encrypt:
            payload["encrypt"] = True
        return self._call("/license/checkout", is_safe=True, payload=payload)

    def borrow_seat(self, days: int, encrypt: bool = False) -> Result:
        """
        Borrows the session's floating seat for ``days`` (1 to 365, at most the plan's
        ``maxBorrowDays``): an offline licence, as ``checkout`` answers (``LK1.…``, or
        ``LK1E.…`` with ``encrypt``), holding for those days, and the seat kept taken until
        then, even once the session has ended, unless ``return_seat`` gives it back sooner.
        ``BORROW_NOT_ALLOWED`` when the user's plan is not floating or allows fewer days.
        Borrowing again issues another licence for the same seat, so it is retried like
        ``checkout``.
        """
        token = self._require_session("borrow_seat").token
        payload: Dict[str, Any] = {"session_token": token, "days": days}
        if encrypt:
            payload["encrypt"] = True
        answer = self._call("/session/borrow", is_safe=True, payload=payload)
        if answer.success:
            with self._lock:
                self._borrowed_seat_token = token
        return answer

    def return_seat(self) -> Result:
        """
        Gives back the seat this client last borrowed (with ``borrow_seat``, even if its session
        has ended since), or else the current session's borrowed seat, before the borrow ends:
        another computer may then take it. The licence already issued cannot be recalled:
        discard it. ``SESSION_INVALID`` when that login has no borrowed seat. Giving a seat back
        twice changes nothing, so it is retried like the other safe calls.
        """
        with self._lock:
            session = self._session
            token = self._borrowed_seat_token
            if token is None and session is not None:
                token = session.token
        if token is None:
            raise RuntimeError(
                "return_seat needs a session (or a seat this client borrowed): log in first"
            )
        answer = self._call("/session/return", is_safe=True, payload={"session_token": token})
        # Given back, or never borrowed under that token: either way nothing is left to return.
        if answer.success or answer.code == ResultCode.SESSION_INVALID:
            with self._lock:
                if self._borrowed_seat_token == token:
                    self._borrowed_seat_token = None
        return answer

    def download(self, file_id: str, destination: str, sha256: Optional[str] = None) -> Result:
        """
        Downloads one of the application's files to ``destination``: a signed answer names its
        URL, size and SHA-256, the bytes are streamed beside ``destination`` and kept only when
        they match (else ``SignatureError`` with reason ``digest``, and no file). ``sha256``,
        from an update offer, must also be the file's. On success the result adds ``path``. A
        file that needs a session and was published after the user's updates window is refused
        with ``UPDATES_EXPIRED``.
        """
        payload = {"file_id": file_id}
        session = self._session
        if session is not None:
            payload["session_token"] = session.token
        answer = self._call("/file", is_safe=True, payload=payload)
        if not answer.success:
            return answer
        url, size, digest = answer.get("url"), answer.get("size"), answer.get("sha256")
        if (
            not isinstance(url, str)
            or not isinstance(size, int)
            or isinstance(size, bool)
            or not isinstance(digest, str)
        ):
            raise TransportError("malformed", "The file answer has no URL, size or SHA-256")
        if sha256 is not None and sha256.lower() != digest.lower():
            raise SignatureError("digest", "The file is not the one the update offer signed")
        download_file(
            self._opener,
            urllib.parse.urljoin(f"{self.base_url}/", url),
            destination,
            size,
            digest,
            max(self.timeout, _MIN_DOWNLOAD_TIMEOUT_SECONDS),
        )
        return Result({**answer, "path": destination})

    def check_for_update(self, answer: Mapping[str, Any]) -> Optional[Dict[str, Any]]:
        """
        The release a login refused with ``VERSION_MISMATCH`` or ``UPDATES_EXPIRED`` offers
        (``version``, ``file_id``, ``size``, ``sha256``), or None: the current release, or, for a
        user whose updates window ended before it was published, the newest release published
        within the window (the one they may run). The v1 API has no call of its own for it: the
        offer rides, signed, on the login's answer; pass it to ``download`` with its ``file_id``
        and ``sha256``.
        """
        offers_release = answer.get("code") in _CODES_OFFERING_A_RELEASE
        update = answer.get("update") if offers_release else None
        if not isinstance(update, Mapping):
            return None
        size = update.get("size")
        is_offer = (
            isinstance(update.get("version"), str)
            and isinstance(update.get("file_id"), str)
            and isinstance(size, int)
            and not isinstance(size, bool)
            and isinstance(update.get("sha256"), str)
            and _SHA256_HEX.fullmatch(update["sha256"]) is not None
        )
        return dict(update) if is_offer else None

    def verify_offline_license(
        self,
        license: str,
        hwid: Optional[str] = None,
        application_id: Optional[int] = None,
        now: Optional[Moment] = None,
        last_seen_at: Optional[Moment] = None,
        clock_tolerance_seconds: float = 300,
    ) -> OfflineLicenseCheck:
        """Checks an offline licence with this application's pinned key and this machine's
        HWID (unless another is given), without the network."""
        return verify_offline_license(
            license,
            public_key=self._key,
            hwid=hwid if hwid is not None else self.hwid,
            application_id=application_id,
            now=now,
            last_seen_at=last_seen_at,
            clock_tolerance_seconds=clock_tolerance_seconds,
        )

    def create_activation_request(
        self,
        license_key: Optional[str] = None,
        username: Optional[str] = None,
        encrypt: bool = False,
        hwid: Optional[str] = None,
        nonce: Optional[str] = None,
        now: Optional[Moment] = None,
    ) -> str:
        """
        An activation request for this machine, written without the network: the text
        (``LKA1.…``) the user of a machine that never reaches the server pastes into the
        application's portal (``/portal/<publicId>``) on another computer, signed in or with
        ``license_key``; the portal answers an offline licence for this machine (``LK1E.…``
        with ``encrypt``) to paste back and check with ``verify_offline_license``. It names this
        application's key, this machine (``hwid``, the client's unless given) and the client's
        ``device_name``; ``nonce`` and ``now`` only pin what would otherwise be random and this
        machine's clock. Neither ``license_key`` nor ``username`` is needed when the user signs
        in to the portal.
        """
        return create_activation_request(
            self.public_key,
            hwid if hwid is not None else self.hwid,
            license_key=license_key,
            username=username,
            device_name=self.device_name,
            encrypt=encrypt,
            nonce=nonce,
            now=now,
        )

    def start_heartbeat(
        self,
        interval: float = 30.0,
        on_revoked: Optional[Callable[[Result], Any]] = None,
        on_error: Optional[Callable[[Exception], Any]] = None,
    ) -> None:
        """
        Heartbeats the session every ``interval`` seconds (30, as the server expects: 90 s
        without one is not live) on a daemon thread, which never keeps the program alive. When
        the server ends the session, the loop stops and ``on_revoked`` is told why; network
        failures and refused answers go to ``on_error`` and the loop goes on. The callbacks run
        on the loop's thread: a GUI program hands them to its own thread.
        """
        self._require_session("start_heartbeat")
        loop = _HeartbeatLoop(on_revoked, on_error)
        with self._lock:
            self.stop_heartbeat()
            self._heartbeat_loop = loop
        thread = threading.Thread(
            target=self._run_heartbeat, args=(loop, interval), name="latchkey-heartbeat", daemon=True
        )
        thread.start()

    def stop_heartbeat(self) -> None:
        with self._lock:
            loop = self._heartbeat_loop
            self._heartbeat_loop = None
        if loop is not None:
            loop.stopped.set()

    def _run_heartbeat(self, loop: _HeartbeatLoop, interval: float) -> None:
        while not loop.stopped.wait(interval):
            if self._heartbeat_loop is not loop:
                return
            try:
                # A revocation stops this loop and reaches on_revoked from heartbeat itself.
                self.heartbeat()
            except Exception as error:  # the loop's whole point is to outlive a failed beat
                if self._heartbeat_loop is loop and loop.on_error is not None:
                    _report_safely(loop.on_error, error)

    def _forget_session(self) -> None:
        self.stop_heartbeat()
        self._session = None

    def _require_session(self, call: str) -> ClientSession:
        session = self._session
        if session is None:
            raise RuntimeError(f"{call} needs a session: log in first")
        return session

    def _open_session(
        self,
        login: Result,
        required_entitlements: Optional[List[str]] = None,
        hwid: Optional[str] = None,
    ) -> Result:
        """
        After a successful login: the required entitlements checked (a refusal answers in the
        login's place, its fields over the login's), then ``session/track`` start with the
        login's token, from the machine (``hwid``, this client's unless given) the login named.
        """
        user_id = login.get("user_id")
        if not login.success or not isinstance(user_id, str):
            return login
        with self._lock:
            self._forget_session()
        if required_entitlements:
            verdict = self._call(
                "/verify",
                is_safe=True,
                payload={"user_id": user_id, "entitlements": list(required_entitlements)},
            )
            if not verdict.success:
                unopened = {key: value for key, value in login.items() if key != "session_token"}
                return Result({**unopened, **verdict})
        token = login.get("session_token")
        if not isinstance(token, str):
            token = f"sess_{secrets.token_hex(16)}_{int(time.time())}"
        start = self._call(
            "/session/track",
            is_safe=True,
            payload={
                "action": "start",
                "user_id": user_id,
                "session_token": token,
                "hwid": hwid if hwid is not None else self.hwid,
            },
        )
        if not start.success:
            return start
        with self._lock:
            self._session = ClientSession(token=token, user_id=user_id)
        return Result({**login, "session_token": token})

    def _call(self, path: str, is_safe: bool, payload: Mapping[str, Any]) -> Result:
        """
        One call, tried again only when ``is_safe`` (its repetition changes nothing; a meter's
        increment counts once per idempotency key, which its retries keep): after a failure
        without an answer or a server fault (backing off, or as ``Retry-After`` says),
        and after a 429 whose ``Retry-After`` is within ``max_retry_delay``. A login, a trial's
        start, a registration, a key's redemption or a device release is never sent twice: its
        429 is its answer.
        """
        attempt = 0
        while True:
            is_last_try = not is_safe or attempt >= self.retries
            try:
                answer = self._exchange(path, payload)
            except TransportError as error:
                if is_last_try or error.reason == "malformed":
                    raise
                delay = (
                    error.retry_after_seconds
                    if error.retry_after_seconds is not None
                    else _FIRST_RETRY_DELAY_SECONDS * 2**attempt
                )
                if delay > self.max_retry_delay:
                    raise
                time.sleep(delay)
                attempt += 1
                continue
            wait = answer.get("retry_after_seconds")
            if (
                answer.code != ResultCode.RATE_LIMITED
                or is_last_try
                or wait is None
                or wait > self.max_retry_delay
            ):
                return answer
            time.sleep(wait)
            attempt += 1

    def _exchange(self, path: str, payload: Mapping[str, Any]) -> Result:
        """One request and its checked answer."""
        nonce = secrets.token_hex(16)
        response = send_request(
            self._opener,
            f"{self.base_url}{_V1}{path}",
            headers={
                "Content-Type": "application/json",
                "Accept": "application/json",
                "User-Agent": "latchkey-client-python",
                "X-API-Key": self.api_key,
                "X-Request-Nonce": nonce,
            },
            body=json.dumps(payload).encode("utf-8"),
            timeout=self.timeout,
            max_body_bytes=_MAX_ANSWER_BYTES,
        )
        retry_after = _retry_after_of(response.headers.get("Retry-After"))
        # A server fault is no outcome, signed or not (a proxy's error page is not): the caller
        # learns the server failed, and a safe call tries again.
        if response.status >= 500:
            raise TransportError(
                "server-error",
                f"The server failed (HTTP {response.status})",
                response.status,
                retry_after,
            )
        refusal = check_answer_signature(
            self._key,
            timestamp=response.headers.get("X-Signature-Timestamp"),
            signature=response.headers.get("X-Signature-Ed25519"),
            nonce=nonce,
            body=response.body,
            max_clock_skew_seconds=self.max_clock_skew_seconds,
        )
        if refusal is not None:
            raise SignatureError(refusal, _SIGNATURE_REFUSAL_MESSAGES[refusal])
        try:
            data = json.loads(response.body.decode("utf-8"))
        except ValueError:
            raise TransportError("malformed", "The answer is not JSON", response.status) from None
        if not isinstance(data, dict) or not isinstance(data.get("code"), str):
            raise TransportError("malformed", "The answer has no code", response.status)
        fields = dict(data)
        fields["success"] = data.get("success") is True and data["code"] == "OK"
        fields["code"] = code_of(data["code"])
        fields["message"] = data["message"] if isinstance(data.get("message"), str) else ""
        if data["code"] == "RATE_LIMITED" and retry_after is not None:
            fields["retry_after_seconds"] = retry_after
        # The server leaves the meters out for a user without any: where the answer carries the
        # user's licensing (its entitlements), a program reads an empty list instead of nothing.
        if isinstance(data.get("entitlements"), list) and "meters" not in data:
            fields["meters"] = []
        return Result(fields)


def _retry_after_of(value: Optional[str]) -> Optional[int]:
    return int(value) if isinstance(value, str) and _RETRY_AFTER.fullmatch(value) else None


def _report_safely(callback: Callable[[Any], Any], argument: Any) -> None:
    """Runs a program's callback so that its failure cannot end the loop's thread."""
    try:
        callback(argument)
    except Exception:  # the program's own failure: nothing this library can do with it
        pass
