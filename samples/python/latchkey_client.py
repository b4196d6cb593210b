# Latchkey client sample: Python 3 with Tkinter and PyNaCl (pip install pynacl,
# or Debian/Ubuntu: apt install python3-tk python3-nacl). Run: python3 latchkey_client.py
#
# The login window logs in with a username and password, registers an account (with a licence
# key if you sell them), logs in with a licence key alone, or has a link to choose a new password
# mailed to the account's address (Forgot password?) or, where the application lets only
# confirmed addresses log in, a new link to confirm it (Resend verification e-mail); the main
# window shows the user's
# entitlements and subscriptions, redeems further keys onto the account, and releases this
# device from the account (a new PC: another machine can then log in). After each login it
# checks out an offline licence (kept in ~/.latchkey beside the saved session): when a later start
# cannot reach the server at all, that licence, checked with the pinned key, lets the user work
# offline until it runs out, on this machine only. The main window shows the vendor's message
# and the user's note (remote variables) and saves a new note. A version the server no longer
# accepts is offered the current release, downloaded beside the program and kept only if it
# matches the SHA-256 the server signed.

# Settings: Latchkey fills these in when you copy the sample from the console.
API_KEY = "YOUR_API_KEY"
BASE_URL = "YOUR_LATCHKEY_URL"
APP_VERSION = "YOUR_APP_VERSION"
# The application's Ed25519 public key (hex): every answer must be signed with it.
SIGNING_PUBLIC_KEY = "YOUR_SIGNING_PUBLIC_KEY"
# Entitlement codes this program needs (e.g. ["PRO"]): verify refuses a user who lacks one
# (ENTITLEMENTS_MISSING). Empty: any user in good standing may use it.
REQUIRED_ENTITLEMENTS = []
# Remote variables (set in the console): the application's message shown on the main screen,
# and the user's own note, which the user may change unless the vendor made it read-only.
WELCOME_MESSAGE_VARIABLE = "welcome_message"
NOTE_VARIABLE = "note"

HEARTBEAT_INTERVAL_SECONDS = 30
VERIFY_INTERVAL_SECONDS = 300
MAX_VERIFY_FAILURES = 3
HTTP_TIMEOUT_SECONDS = 30
MAX_CLOCK_SKEW_SECONDS = 300
# How long an update's download may take between two reads.
DOWNLOAD_TIMEOUT_SECONDS = 60
# How long a licence checked out after login lets the program run without the network (7 days;
# the application's Max Offline Days caps it).
OFFLINE_LICENSE_TTL_SECONDS = 604800
# How far the clock may seem to go back between runs before an offline licence is refused.
CLOCK_TOLERANCE_SECONDS = 300
# Where Linux keeps the machine identifier the hardware id is made from (the first one found).
MACHINE_ID_FILES = ("/etc/machine-id", "/var/lib/dbus/machine-id")

import base64  # noqa: E402 (the settings above stay at the very top, where vendors look)
import hashlib  # noqa: E402
import re  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
import platform  # noqa: E402
import queue  # noqa: E402
import secrets  # noqa: E402
import socket  # noqa: E402
import sys  # noqa: E402
import threading  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
import urllib.error  # noqa: E402
import urllib.parse  # noqa: E402
import urllib.request  # noqa: E402
import uuid  # noqa: E402
from datetime import datetime, timedelta, timezone  # noqa: E402
from pathlib import Path  # noqa: E402

import tkinter as tk  # noqa: E402
from tkinter import messagebox, simpledialog  # noqa: E402

from nacl.exceptions import BadSignatureError  # noqa: E402
from nacl.signing import VerifyKey  # noqa: E402

NOT_VERIFIED_MESSAGE = "The server response could not be verified."
VERIFY_AFTER_LOGIN_FAILED_MESSAGE = "Session verification failed. Please try logging in again."
SESSION_EXPIRED_MESSAGE = "Your session has expired. Please login again."
LOGGED_OUT_MESSAGE = "You have been logged out."
MISSING_CREDENTIALS_MESSAGE = "Please enter both username and password."
MISSING_LICENSE_KEY_MESSAGE = "Please enter a licence key."
MISSING_REDEEM_FIELDS_MESSAGE = "Please enter a licence key and your password."
MISSING_PASSWORD_MESSAGE = "Please enter your password."
MISSING_USERNAME_OR_EMAIL_MESSAGE = "Please enter your username or your e-mail address."
RESEND_VERIFICATION_HINT = (
    'Click "Resend verification e-mail" on the login screen to be mailed a new link.'
)
OFFLINE_REFUSED_TITLE = "Offline Licence Refused"
SERVER_UNREACHABLE_TITLE = "Server Unreachable"
SERVER_UNREACHABLE_MESSAGE = (
    "Cannot reach the server, and there is no offline licence on this machine."
)
UPDATE_REFUSED_TITLE = "Update Refused"
UPDATE_TAMPERED_MESSAGE = "The download does not match its signed SHA-256."
RELEASE_CONFIRM_MESSAGE = (
    "Release this device from your account? You will be signed out here, and another machine"
    " can then log in with your account."
)

# Refusals (of a login, a registration, a redemption or a verify) by the answer's stable code
# (never by its text: vendors rewrite messages). The flag says whether the program must exit
# after showing the message. Other codes get the title of the action that failed.
REFUSAL_TITLES = {
    "VERSION_MISMATCH": ("Update Required", True),
    "HWID_MISMATCH": ("Hardware Mismatch", False),
    "ACCOUNT_EXPIRED": ("Account Expired", False),
    "ACCOUNT_DISABLED": ("Account Disabled", False),
    "BLACKLISTED": ("Access Blocked", True),
    "NO_ACTIVE_SUBSCRIPTION": ("Subscription Required", False),
    "LICENSE_REQUIRED": ("Licence Key Required", False),
    "LICENSE_INVALID": ("Invalid Licence Key", False),
    "LICENSE_USED": ("Licence Key Used", False),
    "LICENSE_BANNED": ("Licence Key Banned", False),
    "LICENSE_EXPIRED": ("Licence Key Lapsed", False),
    "ENTITLEMENTS_MISSING": ("Feature Not Included", False),
    "RESET_NOT_ALLOWED": ("Reset Not Allowed", False),
    "RESET_COOLDOWN": ("Reset Not Yet Available", False),
    "DEVICE_NOT_FOUND": ("Device Not Found", False),
    "MAIL_UNAVAILABLE": ("E-mail Unavailable", False),
    "EMAIL_NOT_VERIFIED": ("E-mail Not Verified", False),
}


def refusal_title(code, fallback_title):
    """(title, must_exit) for a refusal's code."""
    return REFUSAL_TITLES.get(code, (fallback_title, False))


def refusal_text(response):
    """The server's message, with what is missing and when to retry where it says so."""
    text = response.message
    missing = response.data.get("missing_entitlements")
    if isinstance(missing, list) and missing:
        text += " (missing: " + ", ".join(str(code) for code in missing) + ")"
    next_reset_at = response.data.get("next_reset_at")
    if response.code == "RESET_COOLDOWN" and isinstance(next_reset_at, str) and next_reset_at:
        text += f" (next release possible at {local_time(next_reset_at)})"
    if response.code == "RATE_LIMITED" and response.retry_after:
        text += f" Please try again in {response.retry_after} seconds."
    if response.code == "EMAIL_NOT_VERIFIED":
        text += f" {RESEND_VERIFICATION_HINT}"
    return text


def local_time(iso):
    """A server time (ISO 8601) as this computer's local time to the minute, rounded up (never
    before the time meant); the text as it came when it is not one."""
    try:
        at = datetime.fromisoformat(iso.replace("Z", "+00:00"))
    except (AttributeError, TypeError, ValueError):
        return str(iso)
    if at.tzinfo is None:
        at = at.replace(tzinfo=timezone.utc)
    if at.second or at.microsecond:
        at = at.replace(second=0, microsecond=0) + timedelta(minutes=1)
    return at.astimezone().strftime("%Y-%m-%d %H:%M")


def released_text(response):
    """What a release says: the server's message, and when the next one is possible."""
    text = response.message
    next_reset_at = response.data.get("next_reset_at")
    if isinstance(next_reset_at, str) and next_reset_at:
        text += f". You can release a device again from {local_time(next_reset_at)}."
    return text


def device_name():
    """This machine's name, sent with a login so that devices can be told apart: at most 128
    characters (counted as the server counts them, in UTF-16 code units), or None."""
    try:
        name = socket.gethostname().strip()
    except OSError:
        return None
    name = name[:128]
    while len(name.encode("utf-16-le")) > 256:
        name = name[:-1]
    return name or None


def licensing_of(data):
    """What the user holds, from a login, verify, register or redeem answer: the sorted
    entitlement codes and the active subscriptions as (plan, expires_at or None: lifetime)."""
    entitlements = data.get("entitlements")
    subscriptions = data.get("subscriptions")
    if not isinstance(entitlements, list):
        entitlements = []
    if not isinstance(subscriptions, list):
        subscriptions = []
    held = []
    for item in subscriptions:
        if isinstance(item, dict) and isinstance(item.get("plan"), str):
            expires_at = item.get("expires_at")
            held.append((item["plan"], expires_at if isinstance(expires_at, str) else None))
    return {
        "entitlements": [code for code in entitlements if isinstance(code, str)],
        "subscriptions": held,
    }


def format_entitlements(entitlements):
    return ", ".join(entitlements) if entitlements else "None"


def format_subscriptions(subscriptions):
    if not subscriptions:
        return "None"
    return ", ".join(
        f"{plan} until {expires_at}" if expires_at else f"{plan} (lifetime)"
        for plan, expires_at in subscriptions
    )


def log(text):
    """One line per event on standard output (never a password; tokens only by 8 chars)."""
    print(f"[latchkey] {text}", flush=True)


# --- Signed responses ---------------------------------------------------------------------


def verify_signature(public_key_hex, timestamp, nonce, body, signature_hex, now=None):
    """True when `body` (the raw response bytes) was signed by the application's key for this
    request's nonce, at a time within MAX_CLOCK_SKEW_SECONDS of our clock.

    The signature covers the bytes `{timestamp}.{nonce}.{body}`: a fake server without the
    private key cannot produce it, and the nonce stops a genuine old answer being replayed.
    """
    if not isinstance(timestamp, str) or not timestamp.isdigit() or len(timestamp) > 12:
        return False
    current = time.time() if now is None else now
    if abs(current - int(timestamp)) > MAX_CLOCK_SKEW_SECONDS:
        return False
    try:
        key = VerifyKey(bytes.fromhex(public_key_hex))
        signature = bytes.fromhex(signature_hex or "")
        if len(signature) != 64:
            return False
        message = f"{timestamp}.{nonce}.".encode("utf-8") + bytes(body)
        key.verify(message, signature)
        return True
    except (BadSignatureError, ValueError, TypeError):
        return False
    except Exception:  # any other refusal of the key or signature by libsodium
        return False


class ResponseNotVerified(Exception):
    """The answer's signature or timestamp did not check out: never treat it as success."""


class NetworkError(Exception):
    """No usable answer: connection refused, timeout, a server fault (5xx), unreadable JSON."""


class ServerUnreachable(NetworkError):
    """No HTTP answer at all (refused, DNS, timeout): the only case in which the program may
    fall back to its offline licence. A server that answers is never bypassed."""


class ApiResponse:
    def __init__(self, status, data, retry_after):
        self.status = status
        self.data = data
        self.retry_after = retry_after

    @property
    def is_success(self):
        return self.data.get("success") is True and self.data.get("code") == "OK"

    @property
    def code(self):
        return str(self.data.get("code", ""))

    @property
    def message(self):
        return str(self.data.get("message", ""))


def call_api(path, payload):
    """POST JSON to the client API and return the verified, parsed answer."""
    nonce = secrets.token_hex(16)
    request = urllib.request.Request(
        BASE_URL.rstrip("/") + path,
        data=json.dumps(payload).encode("utf-8"),
        method="POST",
        headers={
            "Content-Type": "application/json",
            "Accept": "application/json",
            "X-API-Key": API_KEY,
            "X-Request-Nonce": nonce,
        },
    )
    try:
        with urllib.request.urlopen(request, timeout=HTTP_TIMEOUT_SECONDS) as response:
            status, headers, body = response.status, response.headers, response.read()
    except urllib.error.HTTPError as error:
        # 4xx/5xx answers are signed too, and must be checked like any other.
        status, headers = error.code, error.headers
        body = error.read()
    except (urllib.error.URLError, OSError) as error:
        raise ServerUnreachable(str(getattr(error, "reason", error))) from error

    # Verified before parsing: nothing in an unverified body may be read, let alone trusted.
    if not verify_signature(
        SIGNING_PUBLIC_KEY,
        headers.get("X-Signature-Timestamp"),
        nonce,
        body,
        headers.get("X-Signature-Ed25519"),
    ):
        raise ResponseNotVerified(NOT_VERIFIED_MESSAGE)
    try:
        data = json.loads(body.decode("utf-8"))
    except ValueError as error:
        raise NetworkError("Failed to parse response") from error
    if not isinstance(data, dict):
        raise NetworkError("Failed to parse response")
    if status >= 500:
        raise NetworkError(f"server error {status}: {data.get('message', '')}")
    return ApiResponse(status, data, headers.get("Retry-After"))


# --- Hardware ID and the saved session ------------------------------------------------------


def hardware_id():
    """SHA-256 (hex) of this machine's identifiers: /etc/machine-id on Linux, the MachineGuid
    on Windows, the platform UUID on macOS; else the machine name and other values."""
    parts = []
    if sys.platform == "win32":
        try:
            import winreg

            with winreg.OpenKey(
                winreg.HKEY_LOCAL_MACHINE,
                r"SOFTWARE\Microsoft\Cryptography",
                0,
                winreg.KEY_READ | winreg.KEY_WOW64_64KEY,
            ) as key:
                parts.append(str(winreg.QueryValueEx(key, "MachineGuid")[0]))
        except OSError:
            pass
    elif sys.platform == "darwin":
        try:
            import subprocess

            output = subprocess.run(
                ["ioreg", "-rd1", "-c", "IOPlatformExpertDevice"],
                capture_output=True,
                text=True,
                timeout=5,
            ).stdout
            for line in output.splitlines():
                if "IOPlatformUUID" in line:
                    parts.append(line.split("=")[-1].strip().strip('"'))
        except (OSError, ValueError):
            pass
    else:
        for candidate in MACHINE_ID_FILES:
            try:
                machine_id = Path(candidate).read_text(encoding="utf-8").strip()
            except OSError:
                continue
            if machine_id:
                parts.append(machine_id)
                break
    if not parts:
        parts = ["fallback", platform.node(), platform.machine(), platform.system()]
    return hashlib.sha256("|".join(parts).encode("utf-8")).hexdigest()


def saved_session_path():
    return Path.home() / ".latchkey" / f"{API_KEY[:12]}.json"


def load_saved_session():
    """The saved {"user_id", "username"}, or None."""
    try:
        data = json.loads(saved_session_path().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    user_id = data.get("user_id") if isinstance(data, dict) else None
    if not isinstance(user_id, str) or not user_id:
        return None
    return {"user_id": user_id, "username": str(data.get("username", ""))}


def save_user_id(user_id, username):
    path = saved_session_path()
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        text = json.dumps({"user_id": user_id, "username": username})
        path.write_text(text, encoding="utf-8")
        os.chmod(path, 0o600)
    except OSError as error:
        log(f"could not save the session: {error}")


def clear_saved_user_id():
    try:
        saved_session_path().unlink()
    except FileNotFoundError:
        pass
    except OSError as error:
        log(f"could not clear the saved session: {error}")


# --- The offline licence ----------------------------------------------------------------------

BASE64URL = re.compile(r"[A-Za-z0-9_-]+")


def base64url_decode(segment):
    """RFC 4648 section 5 without padding, as the licence format writes it, and canonical: the
    standard decoder skips stray characters and ignores non-zero unused bits, so a segment
    counts only when it re-encodes to exactly itself. ValueError when it is not that."""
    if not isinstance(segment, str) or not BASE64URL.fullmatch(segment):
        raise ValueError("not base64url")
    data = base64.urlsafe_b64decode(segment + "=" * (-len(segment) % 4))
    if base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii") != segment:
        raise ValueError("not canonical base64url")
    return data


def iso_seconds(iso):
    """A server time (ISO 8601) as unix seconds, or None."""
    try:
        at = datetime.fromisoformat(str(iso).replace("Z", "+00:00"))
    except ValueError:
        return None
    if at.tzinfo is None:
        at = at.replace(tzinfo=timezone.utc)
    return at.timestamp()


def verify_offline_license(license, public_key_hex, application_id, hwid, now=None, last_seen=0):
    """Checks an offline licence (`LK1.<payload>.<signature>`, docs/client-api.md "Offline
    licences") without the network. Returns (refusal, content): refusal None when it holds,
    else "not-signed", "another-machine", "expired" or "clock"; content when it could be read.

    - The signature, under the application's public key pinned in this program, covers
      `latchkey-license-v1.` and the payload segment: only the server holds the private key,
      so an edited or home-made licence is refused (and so is one of another application).
    - The licence names the machine it was issued to: a copy on another machine is refused.
    - Offline, this machine's clock is the only judge of `valid_until`, so setting it back
      would stretch the licence for ever: `last_seen` is the latest time this program has
      seen, and a clock more than CLOCK_TOLERANCE_SECONDS before it (or before the licence
      was issued) has been moved backwards.
    """
    parts = license.split(".") if isinstance(license, str) else []
    # This program checks licences out in the plain form; an encrypted one (LK1E) is not its own.
    if len(parts) != 3 or parts[0] != "LK1":
        return "not-signed", None
    _, payload, signature = parts
    if not BASE64URL.fullmatch(payload) or not BASE64URL.fullmatch(signature):
        return "not-signed", None
    try:
        signature_bytes = base64url_decode(signature)
        if len(signature_bytes) != 64:
            return "not-signed", None
        key = VerifyKey(bytes.fromhex(public_key_hex))
        key.verify(f"latchkey-license-v1.{payload}".encode("ascii"), signature_bytes)
        content = json.loads(base64url_decode(payload).decode("utf-8"))
    except Exception:  # a bad signature, key or payload: nothing this application signed
        return "not-signed", None
    if not isinstance(content, dict):
        return "not-signed", None
    if content.get("application_id") != application_id:
        return "not-signed", content
    if not isinstance(content.get("hwid"), str) or content["hwid"] != hwid:
        return "another-machine", content
    current = time.time() if now is None else now
    valid_until = iso_seconds(content.get("valid_until"))
    if valid_until is None or current > valid_until:
        return "expired", content
    latest_seen = max(last_seen or 0, iso_seconds(content.get("issued_at")) or 0)
    if current + CLOCK_TOLERANCE_SECONDS < latest_seen:
        return "clock", content
    return None, content


def offline_refusal_message(refusal, content):
    """What the user reads when an offline licence is refused."""
    if refusal == "another-machine":
        return "This offline licence belongs to another machine."
    if refusal == "expired":
        return f"This offline licence expired on {local_time(content.get('valid_until'))}."
    if refusal == "clock":
        return "The system clock moved backwards since the last run."
    return "This offline licence is not signed by this application."


def offline_license_path():
    """Beside the saved session: {"license", "last_seen", "application_id"}."""
    return Path.home() / ".latchkey" / f"{API_KEY[:12]}.offline.json"


def load_offline_license():
    try:
        data = json.loads(offline_license_path().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or not isinstance(data.get("license"), str):
        return None
    return data


def write_offline_license(data):
    """Written whole or not at all (a new file, then renamed over the old one): each heartbeat
    rewrites it, and a crash or a reader mid-write must never find half a licence."""
    path = offline_license_path()
    temporary = path.with_name(path.name + ".tmp")
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        temporary.write_text(json.dumps(data), encoding="utf-8")
        os.chmod(temporary, 0o600)
        os.replace(temporary, path)
    except OSError as error:
        log(f"could not save the offline licence: {error}")


def later_of_now(last_seen):
    """The later of `last_seen` and now, in unix seconds: `last_seen` never goes back."""
    previous = last_seen if isinstance(last_seen, (int, float)) else 0
    return max(int(previous), int(time.time()))


def store_offline_license(license, application_id):
    """Stores a licence just checked out. `application_id` is the one it names: it came in an
    answer signed for this request, so it is this application's, and a licence read offline
    must name it."""
    previous = load_offline_license() or {}
    write_offline_license(
        {
            "license": license,
            "last_seen": later_of_now(previous.get("last_seen")),
            "application_id": application_id,
        }
    )


def record_last_seen():
    """Moves `last_seen` to now unless it is later already (a clock set back must not lower it)."""
    stored = load_offline_license()
    if stored is not None:
        write_offline_license({**stored, "last_seen": later_of_now(stored.get("last_seen"))})


def clear_offline_license():
    try:
        offline_license_path().unlink()
    except FileNotFoundError:
        pass
    except OSError as error:
        log(f"could not clear the offline licence: {error}")


def forget_user():
    """The saved session and the offline licence go together: a user who leaves takes both."""
    clear_saved_user_id()
    clear_offline_license()


def license_content_of(license):
    """The payload of a licence string (not checked: only for what the server just signed)."""
    try:
        return json.loads(base64url_decode(str(license).split(".")[1]).decode("utf-8"))
    except (IndexError, ValueError):
        return None


# --- The update download -----------------------------------------------------------------------


def offered_update(data):
    """The `update` of a VERSION_MISMATCH answer (version, file_id, size, sha256), or None."""
    update = data.get("update")
    if not isinstance(update, dict):
        return None
    size, sha256 = update.get("size"), update.get("sha256")
    if not isinstance(update.get("version"), str) or not isinstance(update.get("file_id"), str):
        return None
    if not isinstance(size, int) or isinstance(size, bool) or size < 0:
        return None
    if not isinstance(sha256, str) or not re.fullmatch(r"[0-9a-fA-F]{64}", sha256):
        return None
    return update


class UpdateTampered(Exception):
    """The downloaded bytes are not the ones the server signed (size or SHA-256)."""


def download_update(update, directory, session_token=None):
    """Downloads an offered update into `directory`: POST /file for a short-lived URL, then the
    bytes into a temporary file while their SHA-256 is computed. The bytes themselves are not
    signed (anything between here and the server could change them), so they are kept, as
    update-<version>.bin, only when their size and SHA-256 are the ones the server signed;
    otherwise the temporary file is deleted and UpdateTampered raised. Returns the saved path,
    or the refused /file answer (an ApiResponse)."""
    payload = {"file_id": update["file_id"]}
    if session_token:
        payload["session_token"] = session_token
    link = call_api("/api/v1/file", payload)
    if not link.is_success or not isinstance(link.data.get("url"), str):
        return link
    url = urllib.parse.urljoin(BASE_URL.rstrip("/") + "/", link.data["url"])
    expected_size = update["size"]
    digest = hashlib.sha256()
    size = 0
    handle, temporary = tempfile.mkstemp(prefix=".update-", suffix=".part", dir=directory)
    try:
        with os.fdopen(handle, "wb") as output:
            with urllib.request.urlopen(url, timeout=DOWNLOAD_TIMEOUT_SECONDS) as response:
                while True:
                    chunk = response.read(65536)
                    if not chunk:
                        break
                    size += len(chunk)
                    if size > expected_size:
                        break  # more than was signed is wrong already: stop, not fill the disk
                    digest.update(chunk)
                    output.write(chunk)
        if size != expected_size or digest.hexdigest() != update["sha256"].lower():
            log(f"update refused: {size} bytes, SHA-256 {digest.hexdigest()}")
            raise UpdateTampered(UPDATE_TAMPERED_MESSAGE)
    except BaseException as error:
        os.unlink(temporary)
        if isinstance(error, (urllib.error.URLError, OSError)):
            raise NetworkError(f"download failed: {getattr(error, 'reason', error)}") from error
        raise
    version = re.sub(r"[^\w.-]", "_", update["version"])
    target = Path(directory) / f"update-{version}.bin"
    os.replace(temporary, target)
    log(f"update saved ({size} bytes, SHA-256 {digest.hexdigest()})")
    return target


def new_session_token():
    """The clients' own token format (sess_<random hex>_<unix seconds>), for a start that
    has no token from login (a saved session): the server then matches the login's IP."""
    return f"sess_{uuid.uuid4().hex}_{int(time.time())}"


def verify_payload(user_id):
    """Verify's request: the user, and the entitlements this program needs (if any)."""
    payload = {"user_id": user_id}
    if REQUIRED_ENTITLEMENTS:
        payload["entitlements"] = list(REQUIRED_ENTITLEMENTS)
    return payload


def forgot_password(username_or_email):
    """POST /password/forgot: has a link to choose a new password mailed to the account, named
    by its e-mail address when the text holds an '@' (every address has one, few usernames do),
    else by its username. The answer is the same whether or not such an account exists, so it
    tells no one who has an account here."""
    name = username_or_email.strip()
    return call_api("/api/v1/password/forgot", {"email" if "@" in name else "username": name})


def resend_verification(username, password):
    """POST /email/verify/resend: has a new link to confirm the account's e-mail address mailed
    to it, where the application lets only confirmed addresses log in (login answers
    EMAIL_NOT_VERIFIED until the link is followed). The password proves the holder. The answer
    is the same whether or not the account exists or its address is confirmed already."""
    return call_api("/api/v1/email/verify/resend", {"username": username, "password": password})


# --- The GUI ----------------------------------------------------------------------------------


class LatchkeyClient:
    """One window: the login form (400x300, or registration, or a licence key), then the main
    screen (600x400)."""

    def __init__(self, root):
        self.root = root
        self.hwid = hardware_id()
        self.device_name = device_name()
        self.results = queue.Queue()
        self.generation = 0  # bumped when a session ends: late answers of the old one are ignored
        self.is_busy = False
        self.user = None
        self.session_token = None
        self.verify_failures = 0
        self.heartbeat_timer = None
        self.verify_timer = None
        self.is_heartbeat_running = False
        self.is_verify_running = False
        self.exit_code = 0

        root.protocol("WM_DELETE_WINDOW", self.on_close)
        root.resizable(False, False)
        self.root.after(50, self.deliver_results)
        self.build_login_screen()
        # Each start moves the offline licence's last_seen on (never back): see
        # verify_offline_license.
        record_last_seen()
        saved = load_saved_session()
        if saved:
            self.verify_saved_session(saved)

    # Network calls run on worker threads; their results come back to the Tk thread here.
    def run_in_background(self, work, on_done):
        def worker():
            try:
                outcome = ("ok", work())
            except Exception as error:  # noqa: BLE001 (handed to the Tk thread as it is)
                outcome = ("error", error)
            self.results.put((on_done, outcome))

        threading.Thread(target=worker, daemon=True).start()

    def deliver_results(self):
        while True:
            try:
                on_done, outcome = self.results.get_nowait()
            except queue.Empty:
                break
            try:
                on_done(*outcome)
            except Exception as error:  # noqa: BLE001 (one bad answer must not stop the loop)
                log(f"error: {error!r}")
        self.root.after(50, self.deliver_results)

    def show_dialog(self, kind, title, message):
        log(f"dialog {title}: {message}")
        show = {"info": messagebox.showinfo, "warning": messagebox.showwarning}.get(
            kind, messagebox.showerror
        )
        show(title, message, parent=self.root)

    def show_refusal(self, response, fallback_title):
        """The refusal's dialog, titled by its code; closes the program where the code says so."""
        title, must_exit = refusal_title(response.code, fallback_title)
        self.show_dialog("error", title, refusal_text(response))
        if must_exit:
            self.exit_code = 1
            self.root.destroy()

    # --- Screens -----------------------------------------------------------------------------

    def clear_window(self):
        for child in self.root.winfo_children():
            child.destroy()

    def build_form(self, title, heading, fields, actions):
        """A 400x300 form: `fields` are (label, show) rows of entries, `actions` (text, command)
        buttons; the first action is the one Return presses and the one busy disables."""
        self.clear_window()
        self.root.title(title)
        self.root.geometry("400x300+100+100")
        tk.Label(self.root, text=heading, font=("TkDefaultFont", 16, "bold")).place(
            x=200, y=30, anchor="center"
        )
        self.entries = []
        for row, (label, show) in enumerate(fields):
            tk.Label(self.root, text=label).place(x=20, y=65 + row * 40)
            entry = tk.Entry(self.root, show=show)
            entry.place(x=150, y=62 + row * 40, width=230, height=26)
            self.entries.append(entry)
        self.action_buttons = []
        width = 380 // len(actions)
        for column, (text, command) in enumerate(actions):
            button = tk.Button(self.root, text=text, command=command)
            button.place(
                x=10 + column * width + width // 2,
                y=240,
                width=min(width - 10, 120),
                height=32,
                anchor="center",
            )
            self.action_buttons.append(button)
        self.status_label = tk.Label(self.root, text="", fg="#555555")
        self.status_label.place(x=200, y=280, anchor="center")
        self.root.bind("<Return>", lambda _event: actions[0][1]())
        self.entries[0].focus_set()

    def link_button(self, text, command):
        """A button drawn as a link, for the login window's secondary actions."""
        return tk.Button(
            self.root,
            text=text,
            command=command,
            relief=tk.FLAT,
            borderwidth=0,
            highlightthickness=0,
            fg="#1a5fb4",
            activeforeground="#1a5fb4",
            cursor="hand2",
        )

    def build_login_screen(self):
        self.clear_window()
        self.root.title("Latchkey Client - Login")
        self.root.geometry("400x300+100+100")
        tk.Label(self.root, text="Sign in", font=("TkDefaultFont", 16, "bold")).place(
            x=200, y=40, anchor="center"
        )
        tk.Label(self.root, text="Username").place(x=50, y=85)
        self.username_entry = tk.Entry(self.root, width=30)
        self.username_entry.place(x=50, y=105, width=300, height=26)
        tk.Label(self.root, text="Password").place(x=50, y=140)
        self.password_entry = tk.Entry(self.root, show="*", width=30)
        self.password_entry.place(x=50, y=160, width=300, height=26)
        self.entries = [self.username_entry, self.password_entry]
        login_button = tk.Button(self.root, text="Login", command=self.on_login)
        login_button.place(x=200, y=225, width=120, height=32, anchor="center")
        register_button = tk.Button(self.root, text="Register", command=self.build_register_screen)
        register_button.place(x=70, y=225, width=110, height=32, anchor="center")
        key_button = tk.Button(self.root, text="Licence key", command=self.build_license_screen)
        key_button.place(x=330, y=225, width=110, height=32, anchor="center")
        forgot_button = self.link_button("Forgot password?", self.on_forgot_password)
        forgot_button.place(x=350, y=189, width=130, height=18, anchor="ne")
        # For an address not confirmed yet: the username and password above prove the holder.
        resend_button = self.link_button("Resend verification e-mail", self.on_resend_verification)
        resend_button.place(x=200, y=246, width=200, height=18, anchor="n")
        self.action_buttons = [
            login_button,
            register_button,
            key_button,
            forgot_button,
            resend_button,
        ]
        self.status_label = tk.Label(self.root, text="", fg="#555555")
        self.status_label.place(x=200, y=280, anchor="center")
        self.root.bind("<Return>", lambda _event: self.on_login())
        self.username_entry.focus_set()

    def build_register_screen(self):
        if self.is_busy:
            return
        self.build_form(
            "Latchkey Client - Register",
            "Create an account",
            [("Username", ""), ("Password", "*"), ("E-mail (optional)", ""), ("Licence key", "")],
            [("Register", self.on_register), ("Back", self.build_login_screen)],
        )

    def build_license_screen(self):
        if self.is_busy:
            return
        self.build_form(
            "Latchkey Client - Licence Key",
            "Log in with a licence key",
            [("Licence key", "")],
            [("Log in", self.on_license_login), ("Back", self.build_login_screen)],
        )

    def set_busy(self, is_busy, status=""):
        self.is_busy = is_busy
        for button in getattr(self, "action_buttons", []):
            if button.winfo_exists():
                button.config(state=tk.DISABLED if is_busy else tk.NORMAL)
        if self.status_label.winfo_exists():
            self.status_label.config(text=status)

    def reset_to_login(self):
        """Login screen with cleared fields and no session data."""
        self.stop_monitoring()
        self.user = None
        self.session_token = None
        self.verify_failures = 0
        self.build_login_screen()
        self.set_busy(False)

    def build_main_screen(self):
        self.clear_window()
        self.action_buttons = []
        self.root.unbind("<Return>")
        self.root.title("Latchkey Client - Main")
        self.root.geometry("600x400+100+100")
        user = self.user
        tk.Label(
            self.root,
            text=f"Welcome, {user.get('username', '')}!",
            font=("TkDefaultFont", 16, "bold"),
        ).pack(pady=(12, 4))
        info = tk.Frame(self.root)
        info.pack(pady=2)
        rows = [
            ("User ID", user.get("user_id", "")),
            ("Email", user.get("email") or "-"),
            ("Expires", user.get("expires_at") or "Never"),
            ("HWID locked", "Yes" if user.get("hwid_locked") else "No"),
            ("Session", f"{(self.session_token or '')[:8]}..."),
            ("Entitlements", ""),
            ("Subscriptions", ""),
        ]
        values = {}
        for row, (label, value) in enumerate(rows):
            tk.Label(info, text=f"{label}:", font=("TkDefaultFont", 11, "bold")).grid(
                row=row, column=0, sticky="ne", padx=8, pady=0
            )
            values[label] = tk.Label(
                info, text=str(value), font=("TkDefaultFont", 11), wraplength=420, justify="left"
            )
            values[label].grid(row=row, column=1, sticky="w", padx=8, pady=0)
        self.entitlements_label = values["Entitlements"]
        self.subscriptions_label = values["Subscriptions"]
        self.show_licensing()
        self.session_label = tk.Label(self.root, text="Starting session...", fg="#2e7d32")
        self.session_label.pack(pady=(4, 0))
        # The welcome message and the note (remote variables), once read: see show_variables.
        self.variables_label = tk.Label(self.root, text="", justify="left")
        self.variables_label.pack()

        # Redeem a licence key onto this account: the password proves the holder.
        tk.Label(self.root, text="Licence key").place(x=20, y=297)
        self.redeem_key_entry = tk.Entry(self.root)
        self.redeem_key_entry.place(x=112, y=294, width=183, height=26)
        tk.Label(self.root, text="Password").place(x=305, y=297)
        self.redeem_password_entry = tk.Entry(self.root, show="*")
        self.redeem_password_entry.place(x=375, y=294, width=110, height=26)
        self.redeem_button = tk.Button(self.root, text="Redeem", command=self.on_redeem)
        self.redeem_button.place(x=540, y=307, width=90, height=30, anchor="center")
        # The user's note (a user variable): saved on the account, read back at each login.
        tk.Label(self.root, text="Note").place(x=10, y=349)
        self.note_entry = tk.Entry(self.root)
        self.note_entry.place(x=46, y=347, width=100, height=26)
        self.note_button = tk.Button(self.root, text="Save Note", command=self.on_save_note)
        self.note_button.place(x=194, y=360, width=86, height=30, anchor="center")
        tk.Button(self.root, text="Logout", command=self.on_logout).place(
            x=300, y=360, width=120, height=32, anchor="center"
        )
        # A new PC, a reinstall: the user frees this device's seat so another machine can log in.
        self.release_button = tk.Button(
            self.root, text="Release this device...", command=self.on_release_device
        )
        self.release_button.place(x=495, y=360, width=180, height=32, anchor="center")

    def show_licensing(self):
        """The user's entitlements and subscriptions on the main screen (and in the log)."""
        entitlements = format_entitlements(self.user.get("entitlements", []))
        subscriptions = format_subscriptions(self.user.get("subscriptions", []))
        log(f"entitlements: {entitlements}")
        log(f"subscriptions: {subscriptions}")
        if self.entitlements_label.winfo_exists():
            self.entitlements_label.config(text=entitlements)
            self.subscriptions_label.config(text=subscriptions)

    def show_variables(self):
        """The welcome message and the note on the main screen, each only when it exists (long
        values cut to one line here; the log has them whole)."""
        lines = []
        for label, name in (("Message", "welcome_message"), ("Note", "note")):
            value = self.user.get(name) if self.user else None
            if isinstance(value, str):
                lines.append(f"{label}: {value if len(value) <= 70 else value[:69] + '…'}")
        if self.variables_label.winfo_exists():
            self.variables_label.config(text="\n".join(lines))

    def set_session_status(self, text):
        if self.user is not None and self.session_label.winfo_exists():
            self.session_label.config(text=text)

    # --- Login flow -------------------------------------------------------------------------

    def on_login(self):
        if self.is_busy or self.user is not None:
            return
        username = self.username_entry.get().strip()
        password = self.password_entry.get().strip()
        if not username or not password:
            self.show_dialog("warning", "Validation Error", MISSING_CREDENTIALS_MESSAGE)
            return
        self.set_busy(True, "Logging in...")
        log(f"login as {username}")
        payload = {
            "username": username,
            "password": password,
            "api_key": API_KEY,
            "version": APP_VERSION,
            "hwid": self.hwid,
        }
        if self.device_name:
            payload["device_name"] = self.device_name
        self.run_in_background(lambda: call_api("/api/v1/login", payload), self.on_login_answer)

    def on_license_login(self):
        """A licence key alone logs in: the answer is a login's, and goes the same way."""
        if self.is_busy or self.user is not None:
            return
        license_key = self.entries[0].get().strip()
        if not license_key:
            self.show_dialog("warning", "Validation Error", MISSING_LICENSE_KEY_MESSAGE)
            return
        self.set_busy(True, "Logging in...")
        log("login with a licence key")
        payload = {"license_key": license_key, "hwid": self.hwid, "version": APP_VERSION}
        if self.device_name:
            payload["device_name"] = self.device_name
        self.run_in_background(
            lambda: call_api("/api/v1/license/login", payload), self.on_login_answer
        )

    def on_register(self):
        """Registers (a licence key, when given, is redeemed in the same step), then logs in
        with the same username and password."""
        if self.is_busy or self.user is not None:
            return
        username, password, email, license_key = (entry.get().strip() for entry in self.entries)
        if not username or not password:
            self.show_dialog("warning", "Validation Error", MISSING_CREDENTIALS_MESSAGE)
            return
        self.set_busy(True, "Registering...")
        log(f"register as {username}")
        payload = {"username": username, "password": password, "hwid": self.hwid}
        if email:
            payload["email"] = email
        if license_key:
            payload["license_key"] = license_key

        def on_done(status, result):
            self.set_busy(False)
            if status == "error":
                self.show_request_error(result, "Connection error")
                return
            if not result.is_success:
                log(f"register failed: {result.code}")
                self.show_refusal(result, "Registration Failed")
                return
            log("register ok")
            self.show_dialog("info", "Registration Successful", result.message)
            self.build_login_screen()
            self.username_entry.insert(0, username)
            self.password_entry.insert(0, password)
            self.on_login()

        self.run_in_background(lambda: call_api("/api/v1/register", payload), on_done)

    def on_forgot_password(self):
        """Asks for the username or e-mail address (the username typed so far to start with) and
        has a link to choose a new password mailed to the account. The answer reads the same
        whether or not the account exists, so the login screen stays as it is."""
        if self.is_busy or self.user is not None:
            return
        username_or_email = simpledialog.askstring(
            "Latchkey Client - Forgot Password",
            "Enter your username or e-mail address:",
            initialvalue=self.username_entry.get().strip(),
            parent=self.root,
        )
        if username_or_email is None or self.is_busy or self.user is not None:
            return  # cancelled, or a saved session signed in meanwhile
        if not username_or_email.strip():
            self.show_dialog("warning", "Validation Error", MISSING_USERNAME_OR_EMAIL_MESSAGE)
            return
        self.request_mail(
            lambda: forgot_password(username_or_email), "Password Reset Failed", "password reset"
        )

    def on_resend_verification(self):
        """Has a new link to confirm the account's address mailed to it, for the username and
        password in the login form (still there after a login refused as E-mail Not Verified).
        The answer reads the same whatever the account, so the login screen stays as it is."""
        if self.is_busy or self.user is not None:
            return
        username = self.username_entry.get().strip()
        password = self.password_entry.get().strip()
        if not username or not password:
            self.show_dialog("warning", "Validation Error", MISSING_CREDENTIALS_MESSAGE)
            return
        self.request_mail(
            lambda: resend_verification(username, password), "Resend Failed", "verification e-mail"
        )

    def request_mail(self, request, failed_title, what):
        """Asks the server to mail a link (a new password's, an address confirmation's) and shows
        what it answered: the same text whatever the account, or a refusal under failed_title."""
        self.set_busy(True, "Requesting a link...")
        log(f"{what} request")

        def on_done(status, result):
            self.set_busy(False)
            if status == "error":
                self.show_request_error(result, "Connection error")
                return
            if not result.is_success:
                log(f"{what} request failed: {result.code}")
                self.show_refusal(result, failed_title)
                return
            log(f"{what} requested")
            self.show_dialog("info", "Check Your E-mail", result.message)

        self.run_in_background(request, on_done)

    def on_login_answer(self, status, result):
        if status == "error":
            self.set_busy(False)
            self.show_request_error(result, "Connection error")
            return
        if not result.is_success:
            self.set_busy(False)
            log(f"login failed: {result.code}")
            update = offered_update(result.data)
            if result.code == "VERSION_MISMATCH" and update is not None:
                self.show_dialog("error", "Update Required", refusal_text(result))
                self.offer_update(update)
                return
            self.show_refusal(result, "Login Failed")
            return
        log("login ok")
        self.show_dialog("info", "Login Successful", result.message)
        user = result.data
        token = user.get("session_token")
        self.session_token = token if isinstance(token, str) and token else new_session_token()
        self.set_busy(True, "Verifying...")
        user_id = str(user.get("user_id", ""))
        self.run_in_background(
            lambda: call_api("/api/v1/verify", verify_payload(user_id)),
            lambda status, answer: self.on_verify_after_login(user, status, answer),
        )

    def on_verify_after_login(self, user, status, result):
        self.set_busy(False)
        if status == "error":
            self.session_token = None
            self.clear_fields()
            if isinstance(result, ResponseNotVerified):
                self.show_request_error(result, "Verification error")
            else:
                log(f"Verification error: {result}")
                self.show_dialog("warning", "Security Warning", VERIFY_AFTER_LOGIN_FAILED_MESSAGE)
            return
        if not result.is_success:
            log(f"verify after login failed: {result.code}")
            self.session_token = None
            self.clear_fields()
            if result.code in ("ENTITLEMENTS_MISSING", "EMAIL_NOT_VERIFIED"):
                self.show_refusal(result, "Security Warning")
            else:
                self.show_dialog("warning", "Security Warning", VERIFY_AFTER_LOGIN_FAILED_MESSAGE)
            return
        log("verify ok")
        self.user = {**user, **licensing_of(result.data)}
        save_user_id(str(user.get("user_id", "")), str(user.get("username", "")))
        self.open_main_screen()

    def clear_fields(self):
        for entry in self.entries:
            if entry.winfo_exists():
                entry.delete(0, tk.END)
        if self.entries and self.entries[0].winfo_exists():
            self.entries[0].focus_set()

    def verify_saved_session(self, saved):
        self.set_busy(True, "Checking saved session...")
        log("verifying saved session")
        user_id = saved["user_id"]

        def on_done(status, result):
            self.set_busy(False)
            if status == "error" and isinstance(result, NetworkError):
                log(f"Verification error: {result}")  # kept: the next start tries again
                # No answer at all (not a refusal, not a fake): the offline licence may stand in.
                if isinstance(result, ServerUnreachable):
                    self.start_offline()
                return
            forget_user()
            if status == "error":
                self.show_request_error(result, "Verification error")
                return
            if not result.is_success:
                log(f"saved session refused: {result.code}")
                return
            log("Saved session verified.")
            self.user = {
                "user_id": user_id,
                "username": saved["username"],
                **licensing_of(result.data),
            }
            save_user_id(user_id, saved["username"])
            self.session_token = new_session_token()
            self.open_main_screen()

        self.run_in_background(
            lambda: call_api("/api/v1/verify", verify_payload(user_id)), on_done
        )

    def show_request_error(self, error, prefix):
        if isinstance(error, ResponseNotVerified):
            log("response not verified")
            self.show_dialog("error", "Security Warning", NOT_VERIFIED_MESSAGE)
        else:
            log(f"{prefix}: {error}")
            self.show_dialog("error", "Connection Error", f"{prefix}: {error}")

    # --- Licence keys on the main screen ------------------------------------------------------

    def on_redeem(self):
        """Adds a licence key to the account that is logged in; its password proves the holder."""
        if self.user is None or str(self.redeem_button["state"]) == tk.DISABLED:
            return
        license_key = self.redeem_key_entry.get().strip()
        password = self.redeem_password_entry.get()
        self.redeem_password_entry.delete(0, tk.END)
        if not license_key or not password:
            self.show_dialog("warning", "Validation Error", MISSING_REDEEM_FIELDS_MESSAGE)
            return
        self.redeem_button.config(state=tk.DISABLED)
        log("redeem a licence key")
        generation = self.generation
        payload = {
            "username": str(self.user.get("username", "")),
            "password": password,
            "license_key": license_key,
        }

        def on_done(status, result):
            if generation != self.generation:
                return  # logged out meanwhile
            self.redeem_button.config(state=tk.NORMAL)
            if status == "error":
                self.show_request_error(result, "Connection error")
                return
            if not result.is_success:
                log(f"redeem failed: {result.code}")
                self.show_refusal(result, "Redeem Failed")
                return
            log("redeem ok")
            self.redeem_key_entry.delete(0, tk.END)
            self.user.update(licensing_of(result.data))
            self.show_licensing()
            self.show_dialog("info", "Licence Key Redeemed", result.message)

        self.run_in_background(lambda: call_api("/api/v1/license/redeem", payload), on_done)

    # --- Releasing this device -----------------------------------------------------------------

    def confirm(self, title, message):
        """A Yes/No question, logged with the answer."""
        log(f"confirm {title}: {message}")
        is_confirmed = messagebox.askyesno(title, message, parent=self.root)
        log(f"confirm {title}: {'yes' if is_confirmed else 'no'}")
        return is_confirmed

    def on_release_device(self):
        """Releases this device (the hwid this program logs in with) from the account, after a
        confirmation and the password (asked each time, never kept), so that another machine can
        take its seat. The server ends this device's sessions: a release signs out here."""
        if self.user is None or str(self.release_button["state"]) == tk.DISABLED:
            return
        if not self.confirm("Release This Device", RELEASE_CONFIRM_MESSAGE):
            return
        password = simpledialog.askstring(
            "Latchkey Client - Release Device",
            "Enter your password to release this device:",
            show="*",
            parent=self.root,
        )
        if password is None or self.user is None:
            return  # cancelled, or signed out meanwhile
        if not password:
            self.show_dialog("warning", "Validation Error", MISSING_PASSWORD_MESSAGE)
            return
        self.release_button.config(state=tk.DISABLED)
        log("release this device")
        generation = self.generation
        payload = {
            "username": str(self.user.get("username", "")),
            "password": password,
            "hwid": self.hwid,
        }

        def on_done(status, result):
            if generation != self.generation:
                return  # logged out meanwhile
            self.release_button.config(state=tk.NORMAL)
            if status == "error":
                self.show_request_error(result, "Connection error")
                return
            if not result.is_success:
                log(f"release failed: {result.code}")
                self.show_refusal(result, "Release Failed")
                return
            log(f"device released ({result.data.get('released')})")
            # The server has ended this device's session already: nothing to end here.
            self.stop_monitoring()
            forget_user()
            self.reset_to_login()
            self.show_dialog("info", "Device Released", released_text(result))

        self.run_in_background(lambda: call_api("/api/v1/devices/reset", payload), on_done)

    # --- Session monitoring -------------------------------------------------------------------

    def open_main_screen(self):
        self.generation += 1
        self.verify_failures = 0
        self.build_main_screen()
        generation = self.generation
        payload = {
            "action": "start",
            "user_id": str(self.user.get("user_id", "")),
            "session_token": self.session_token,
            "hwid": self.hwid,
        }
        self.run_in_background(
            lambda: call_api("/api/v1/session/track", payload),
            lambda status, result: self.on_session_started(generation, status, result),
        )

    def on_session_started(self, generation, status, result):
        if generation != self.generation:
            return
        if status == "ok" and result.is_success:
            log(f"session started {self.session_token[:8]}")
            self.set_session_status("Session active")
            self.read_main_screen_variables(generation)
            self.check_out_license(generation)
        elif status == "error" and isinstance(result, NetworkError):
            # Only a network fault: keep monitoring, the next heartbeat says more.
            log(f"Session start error: {result}")
            self.set_session_status("Session start error")
        else:
            refused = NOT_VERIFIED_MESSAGE if status == "error" else result.message
            log(f"session start refused: {'not verified' if status == 'error' else result.code}")
            forget_user()
            self.reset_to_login()
            self.show_dialog("error", "Session Error", refused)
            return
        self.heartbeat_timer = self.root.after(HEARTBEAT_INTERVAL_SECONDS * 1000, self.heartbeat)
        self.verify_timer = self.root.after(VERIFY_INTERVAL_SECONDS * 1000, self.periodic_verify)

    # --- The update channel -------------------------------------------------------------------

    def offer_update(self, update):
        """Offers the update a VERSION_MISMATCH answer names; the program ends either way (this
        version may not log in), once the download has said where it is or why not."""
        question = f"Version {update['version']} is available. Download it?"
        if not self.confirm("Update Available", question):
            self.exit_code = 1
            self.root.destroy()
            return
        self.set_busy(True, "Downloading...")
        directory = Path(__file__).resolve().parent  # next to the program

        def on_done(status, result):
            self.set_busy(False)
            if status == "error" and isinstance(result, UpdateTampered):
                self.show_dialog("error", UPDATE_REFUSED_TITLE, UPDATE_TAMPERED_MESSAGE)
            elif status == "error":
                self.show_request_error(result, "Download error")
            elif isinstance(result, ApiResponse):
                self.show_dialog("error", "Download Failed", refusal_text(result))
            else:
                self.show_dialog("info", "Update Saved", f"Update saved to {result}")
            self.exit_code = 1
            self.root.destroy()

        self.run_in_background(lambda: download_update(update, directory), on_done)

    # --- Remote variables ---------------------------------------------------------------------

    def read_main_screen_variables(self, generation):
        """The application's welcome message and the user's note, read with the session. One
        that does not exist (VARIABLE_NOT_FOUND) shows nothing; other failures are logged."""
        token = self.session_token
        reads = (
            ("welcome_message", "Message", "/api/v1/var", WELCOME_MESSAGE_VARIABLE),
            ("note", "Note", "/api/v1/user-var", NOTE_VARIABLE),
        )
        for key, label, path, name in reads:
            payload = {"name": name, "session_token": token}

            def on_done(status, result, key=key, label=label):
                if generation != self.generation:
                    return
                if status == "error":
                    log(f"{label} not read: {result}")
                elif result.is_success and isinstance(result.data.get("value"), str):
                    self.user[key] = result.data["value"]
                    log(f"{label}: {self.user[key]}")
                    self.show_variables()
                elif result.code == "VARIABLE_NOT_FOUND":
                    log(f"no {label.lower()}")
                else:
                    log(f"{label} not read: {result.code}")

            self.run_in_background(
                lambda path=path, payload=payload: call_api(path, payload), on_done
            )

    def on_save_note(self):
        """Saves the note box as the user's note; the vendor may have made it read-only."""
        if self.user is None or not self.session_token:
            return
        if str(self.note_button["state"]) == tk.DISABLED:
            return
        value = self.note_entry.get()
        self.note_button.config(state=tk.DISABLED)
        log("save the note")
        generation = self.generation
        payload = {"session_token": self.session_token, "name": NOTE_VARIABLE, "value": value}

        def on_done(status, result):
            if generation != self.generation:
                return  # logged out meanwhile
            self.note_button.config(state=tk.NORMAL)
            if status == "error":
                self.show_request_error(result, "Connection error")
            elif result.code == "VARIABLE_READ_ONLY":
                log("note refused: VARIABLE_READ_ONLY")
                self.show_dialog("warning", "Note Is Read-Only", result.message)
            elif not result.is_success:
                log(f"note refused: {result.code}")
                self.show_refusal(result, "Note Not Saved")
            else:
                log("note saved")
                self.user["note"] = value
                self.note_entry.delete(0, tk.END)
                self.show_variables()
                self.show_dialog("info", "Note Saved", "Note saved.")

        self.run_in_background(lambda: call_api("/api/v1/user-var/set", payload), on_done)

    # --- The offline licence ------------------------------------------------------------------

    def check_out_license(self, generation):
        """Takes an offline licence for the session just started and stores it once it checks
        out as it will be checked offline. A failure only costs the offline start: logged."""
        payload = {
            "session_token": self.session_token,
            "ttl_seconds": OFFLINE_LICENSE_TTL_SECONDS,
        }

        def on_done(status, result):
            if generation != self.generation:
                return  # logged out meanwhile: that user's licence is not to be kept
            if status == "error":
                log(f"Licence checkout error: {result}")
                return
            if not result.is_success:
                log(f"licence checkout refused: {result.code}")
                return
            license = result.data.get("license")
            content = license_content_of(license) or {}
            refusal, content = verify_offline_license(
                license, SIGNING_PUBLIC_KEY, content.get("application_id"), self.hwid
            )
            if refusal:
                log(f"offline licence not stored ({refusal})")
                return
            store_offline_license(license, content["application_id"])
            log(f"offline licence stored (valid until {content['valid_until']})")

        self.run_in_background(lambda: call_api("/api/v1/license/checkout", payload), on_done)

    def start_offline(self):
        """The server cannot be reached: the stored offline licence, checked with the pinned
        key, lets the user in until its valid_until, without a session (so no heartbeat)."""
        stored = load_offline_license()
        if stored is None:
            self.show_dialog("error", SERVER_UNREACHABLE_TITLE, SERVER_UNREACHABLE_MESSAGE)
            return
        refusal, content = verify_offline_license(
            stored["license"],
            SIGNING_PUBLIC_KEY,
            stored.get("application_id"),
            self.hwid,
            last_seen=stored.get("last_seen") or 0,
        )
        if refusal:
            log(f"offline licence refused ({refusal})")
            message = offline_refusal_message(refusal, content)
            self.show_dialog("error", OFFLINE_REFUSED_TITLE, message)
            return
        log("offline licence accepted")
        self.generation += 1
        self.user = {
            "user_id": content.get("user_id", ""),
            "username": content.get("username", ""),
            "expires_at": content.get("account_expires_at"),
            **licensing_of(content),
        }
        self.session_token = None
        self.build_main_screen()
        offline_until = f"Working offline until {local_time(content.get('valid_until'))}"
        log(offline_until)
        self.set_session_status(offline_until)

    def heartbeat(self):
        generation = self.generation
        self.heartbeat_timer = self.root.after(HEARTBEAT_INTERVAL_SECONDS * 1000, self.heartbeat)
        if self.is_heartbeat_running:
            return
        self.is_heartbeat_running = True
        payload = {"action": "heartbeat", "session_token": self.session_token}

        def on_done(status, result):
            self.is_heartbeat_running = False
            if generation != self.generation:
                return
            if status == "error":
                if isinstance(result, ResponseNotVerified):
                    log("heartbeat: response not verified")
                else:
                    log(f"Heartbeat error: {result}")
            elif result.is_success:
                log("heartbeat ok")
                record_last_seen()
                now = time.strftime("%H:%M:%S")
                self.set_session_status(f"Session active (last heartbeat {now})")
            else:
                log(f"heartbeat failed: {result.code}")

        self.run_in_background(lambda: call_api("/api/v1/session/track", payload), on_done)

    def periodic_verify(self):
        generation = self.generation
        self.verify_timer = self.root.after(VERIFY_INTERVAL_SECONDS * 1000, self.periodic_verify)
        if self.is_verify_running:
            return
        self.is_verify_running = True
        payload = verify_payload(str(self.user.get("user_id", "")))

        def on_done(status, result):
            self.is_verify_running = False
            if generation != self.generation:
                return
            if status == "error" and isinstance(result, NetworkError):
                log(f"Verification error: {result}")  # network faults are not counted
                return
            if status == "ok" and result.is_success:
                self.verify_failures = 0
                log("verify ok")
                # The owner may have granted or taken back a plan since: show what holds now.
                licensing = licensing_of(result.data)
                if any(self.user.get(name) != value for name, value in licensing.items()):
                    self.user.update(licensing)
                    self.show_licensing()
                return
            # A refusal, or an answer that failed verification: never a success.
            self.verify_failures += 1
            reason = "response not verified" if status == "error" else result.code
            log(f"verify failed ({self.verify_failures}/{MAX_VERIFY_FAILURES}): {reason}")
            if self.verify_failures >= MAX_VERIFY_FAILURES:
                self.forced_logout()

        self.run_in_background(lambda: call_api("/api/v1/verify", payload), on_done)

    def stop_monitoring(self):
        self.generation += 1
        for timer in (self.heartbeat_timer, self.verify_timer):
            if timer is not None:
                self.root.after_cancel(timer)
        self.heartbeat_timer = None
        self.verify_timer = None

    def end_session(self, wait_seconds=0.0):
        """The session end call, off the Tk thread; its outcome is only logged."""
        token = self.session_token
        if not token:
            return None

        def work():
            try:
                payload = {"action": "end", "session_token": token}
                result = call_api("/api/v1/session/track", payload)
                log("session ended" if result.is_success else f"session end: {result.code}")
            except Exception as error:  # noqa: BLE001 (only logged)
                log(f"Session end error: {error}")

        thread = threading.Thread(target=work, daemon=True)
        thread.start()
        if wait_seconds:
            thread.join(wait_seconds)
        return thread

    def forced_logout(self):
        log("forced logout")
        self.end_session()
        self.stop_monitoring()
        forget_user()
        self.show_dialog("warning", "Session Expired", SESSION_EXPIRED_MESSAGE)
        self.reset_to_login()

    def on_logout(self):
        log("logout")
        self.end_session()
        self.stop_monitoring()
        forget_user()
        self.reset_to_login()
        self.show_dialog("info", "Logged Out", LOGGED_OUT_MESSAGE)

    def on_close(self):
        # Closing the window stops monitoring; the session is ended so it stops counting as live.
        self.stop_monitoring()
        if self.user is not None:
            self.end_session(wait_seconds=3.0)
        self.root.destroy()


def main():
    root = tk.Tk()
    client = LatchkeyClient(root)
    root.mainloop()
    sys.exit(client.exit_code)


if __name__ == "__main__":
    main()
