# Latchkey client sample: a Python 3 Tkinter program on the Latchkey SDK for Python (`latchkey`),
# which does everything that talks to the server: every answer's signature, nonce and clock
# checked before this program reads it, the offline licence check, downloads kept only when their
# signed SHA-256 matches, and the machine id.
#
# Add the SDK from your Latchkey server (the Integration page shows this line too), then run:
#   pip install "latchkey[nacl] @ "YOUR_LATCHKEY_URL"/sdk/latchkey-0.1.0-py3-none-any.whl"
#   python3 latchkey_client.py
# Tkinter: Debian/Ubuntu `apt install python3-tk`; with Debian's `python3-nacl`, install the wheel
# into a venv made with `python3 -m venv --system-site-packages` (`pip install --no-index`).
#
# The login window logs in with a username and password, registers an account (with a licence key
# if you sell them), logs in with a licence key alone, starts this machine's trial where the
# application offers one (Start Trial: one trial per machine, named by the username when one is
# typed; a later start, whatever the name, logs in the same trial account until it ends), or has a
# link to choose a new password mailed to the account's address (Forgot password?) or, where the
# application lets only confirmed addresses log in, a new link to confirm it (Resend verification
# e-mail). The main window shows the user's entitlements, subscriptions and updates period, what is
# left of each usage meter of their plans (so many exports a month, say), the vendor's message and
# the user's note (remote variables), counts one use of a metered feature, saves a new note,
# redeems further keys onto the account, and releases this device from the account (a new PC:
# another machine can then log in). For a plan of floating seats (so many computers at once, any
# computers; each login takes a seat), Borrow Seat... beside the session borrows this computer's
# seat for some days: the seat stays taken, and the offline licence the server answers, kept like
# the one below, lets the program run offline until the borrow ends; Return Seat gives it back
# sooner, so another computer may take it (the borrowed licence is discarded). The session is saved
# in ~/.latchkey and resumed at the next start; after each login the program checks out an offline
# licence kept beside it: when a later start cannot reach the server at all, that licence lets the
# user work offline until it runs out, on this machine only. A version the server no longer accepts
# is offered the current release, downloaded beside the program; a version released after the user's
# updates period ended is offered, the same way, the release their licence includes.

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
# How long a licence checked out after login lets the program run without the network (7 days;
# the application's Max Offline Days caps it).
OFFLINE_LICENSE_TTL_SECONDS = 604800
# How far the clock may seem to go back between runs before an offline licence is refused.
CLOCK_TOLERANCE_SECONDS = 300
# The longest a floating seat may be borrowed, in days (the user's plan may allow fewer).
MAX_BORROW_DAYS = 365
# Where Linux keeps the machine identifier the hardware id is made from (the first one found).
MACHINE_ID_FILES = ("/etc/machine-id", "/var/lib/dbus/machine-id")

import json  # noqa: E402 (the settings above stay at the very top, where vendors look)
import os  # noqa: E402
import queue  # noqa: E402
import re  # noqa: E402
import socket  # noqa: E402
import sys  # noqa: E402
import threading  # noqa: E402
import time  # noqa: E402
import uuid  # noqa: E402
from datetime import datetime, timedelta, timezone  # noqa: E402
from pathlib import Path  # noqa: E402

import tkinter as tk  # noqa: E402
from tkinter import messagebox, simpledialog  # noqa: E402

import latchkey  # noqa: E402

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
USAGE_OFFLINE_MESSAGE = "Usage is counted on the server: not available while working offline."
NO_METERS_MESSAGE = "Your plans have no usage meters."
SEAT_OFFLINE_MESSAGE = (
    "Seats are borrowed and returned on the server: not available while working offline."
)
RELEASE_CONFIRM_MESSAGE = (
    "Release this device from your account? You will be signed out here, and another machine"
    " can then log in with your account."
)

# Refusals (of a login, a registration, a redemption or a verify) by the answer's stable code
# (never by its text: vendors rewrite messages). The flag says whether the program must exit
# after showing the message. Other codes get the title of the action that failed.
REFUSAL_TITLES = {
    "VERSION_MISMATCH": ("Update Required", True),
    "UPDATES_EXPIRED": ("Updates Ended", True),
    "METER_EXHAUSTED": ("Usage Limit Reached", False),
    "METER_NOT_FOUND": ("Feature Not Included", False),
    "NO_SEAT_AVAILABLE": ("All Seats In Use", False),
    "BORROW_NOT_ALLOWED": ("Borrowing Not Allowed", False),
    "TRIAL_UNAVAILABLE": ("Trial Unavailable", False),
    "TRIAL_EXPIRED": ("Trial Ended", False),
    "TRIAL_USED": ("Trial Already Used", False),
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

# What the user reads when the stored offline licence is refused, by the SDK's code; any other
# refusal (malformed, not signed, another application's) reads as not signed.
OFFLINE_NOT_SIGNED_MESSAGE = "This offline licence is not signed by this application."
OFFLINE_REFUSALS = {
    "OTHER_MACHINE": "This offline licence belongs to another machine.",
    "EXPIRED": "This offline licence expired on {valid_until}.",
    "CLOCK_MOVED_BACK": "The system clock moved backwards since the last run.",
}


def refusal_title(code, fallback_title):
    """(title, must_exit) for a refusal's code."""
    return REFUSAL_TITLES.get(str(code), (fallback_title, False))


def refusal_text(answer):
    """The server's message, with what is missing and when to retry where it says so."""
    code = str(answer.get("code", ""))
    text = str(answer.get("message", ""))
    missing = answer.get("missing_entitlements")
    if isinstance(missing, list) and missing:
        text += " (missing: " + ", ".join(str(item) for item in missing) + ")"
    next_reset_at = answer.get("next_reset_at")
    if code == "RESET_COOLDOWN" and isinstance(next_reset_at, str) and next_reset_at:
        text += f" (next release possible at {local_time(next_reset_at)})"
    if code == "METER_EXHAUSTED":
        # A meter used up says when it starts again, so the user knows how long to wait.
        resets_at = answer.get("resets_at")
        is_reset = isinstance(resets_at, str)
        text += f" (resets {local_time(resets_at)})" if is_reset else " (no reset)"
    expires_at = answer.get("expires_at")
    if code == "TRIAL_EXPIRED" and isinstance(expires_at, str) and expires_at:
        # The machine's trial is over for good: say since when.
        text += f" (ended {local_time(expires_at)})"
    next_free_at = answer.get("next_free_at")
    if code == "NO_SEAT_AVAILABLE" and isinstance(next_free_at, str) and next_free_at:
        # Every seat is taken on other computers: say when the first of their leases lapses (one
        # may free sooner, when its computer signs out).
        text += f" (next seat free by {local_time(next_free_at)})"
    if code == "RATE_LIMITED" and answer.get("retry_after_seconds"):
        text += f" Please try again in {answer['retry_after_seconds']} seconds."
    if code == "EMAIL_NOT_VERIFIED":
        text += f" {RESEND_VERIFICATION_HINT}"
    return text


def trial_text(answer):
    """What a started (or resumed) trial says: the server's message and when the trial ends."""
    text = str(answer.get("message", ""))
    expires_at = answer.get("expires_at")
    if isinstance(expires_at, str) and expires_at:
        text += f" (trial ends {local_time(expires_at)})"
    return text


def borrowed_text(answer, valid_until):
    """What a borrowed seat says: the server's message, and until when the seat is borrowed (the
    end of the licence the borrow issued)."""
    return f"{answer.get('message', '')} (borrowed until {local_time(valid_until)})"


def released_text(answer):
    """What a release says: the server's message, and when the next one is possible."""
    text = str(answer.get("message", ""))
    next_reset_at = answer.get("next_reset_at")
    if isinstance(next_reset_at, str) and next_reset_at:
        text += f". You can release a device again from {local_time(next_reset_at)}."
    return text


def offline_refusal_message(code, content):
    template = OFFLINE_REFUSALS.get(str(code), OFFLINE_NOT_SIGNED_MESSAGE)
    return template.format(valid_until=local_time((content or {}).get("valid_until")))


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


def hardware_id():
    """This machine's id, hashed by the SDK with the application's key so that the raw id never
    leaves the machine. Read here from MACHINE_ID_FILES first, so a setting can point it
    elsewhere; where none is found, the SDK reads the platform's own (Windows, macOS)."""
    for candidate in MACHINE_ID_FILES:
        try:
            raw = Path(candidate).read_text(encoding="utf-8").strip()
        except OSError:
            continue
        if raw:
            return latchkey.hash_machine_id(raw, SIGNING_PUBLIC_KEY)
    return latchkey.hash_machine_id(latchkey.read_raw_machine_id(), SIGNING_PUBLIC_KEY)


def licensing_of(answer):
    """What the user holds, from a login, verify, register or redeem answer or a licence: the
    sorted entitlement codes, the active subscriptions as (plan, expires_at or None), the end of
    the updates window (None, or missing in an older licence: every release) and where the usage
    meters of their plans stand (none when no plan has one; in a licence, as they stood when it
    was issued)."""
    entitlements = answer.get("entitlements")
    subscriptions = answer.get("subscriptions")
    held = []
    for item in subscriptions if isinstance(subscriptions, list) else []:
        if isinstance(item, dict) and isinstance(item.get("plan"), str):
            expires_at = item.get("expires_at")
            held.append((item["plan"], expires_at if isinstance(expires_at, str) else None))
    codes = entitlements if isinstance(entitlements, list) else []
    codes = [code for code in codes if isinstance(code, str)]
    updates_until = answer.get("updates_until")
    meters = answer.get("meters")
    return {
        "entitlements": codes,
        "subscriptions": held,
        "updates_until": updates_until if isinstance(updates_until, str) else None,
        "meters": [meter_of(item) for item in meters if is_meter(item)]
        if isinstance(meters, list)
        else [],
    }


def is_meter(item):
    """Whether an entry of meters, or a meter use's answer, says where a meter stands."""
    numbers = ("allowance", "used", "remaining", "overage")
    return (
        isinstance(item, dict)
        and isinstance(item.get("name"), str)
        and all(isinstance(item.get(name), int) for name in numbers)
    )


def meter_of(answer):
    """A usage meter from a meters entry, or from a meter use's answer (which says where the
    meter stands beside its code)."""
    resets_at = answer.get("resets_at")
    return {
        "name": answer["name"],
        "allowance": answer["allowance"],
        "used": answer["used"],
        "remaining": answer["remaining"],
        "overage": answer["overage"],
        "resets_at": resets_at if isinstance(resets_at, str) else None,
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


def format_updates(updates_until):
    """Releases published after the updates window are refused; without one, none are."""
    return f"Until {updates_until}" if updates_until else "Every release"


def format_meter(meter):
    """What is left of the period's allowance and when it starts again (in local time; a meter
    without periods never does), and, for a meter that counts use beyond its allowance rather
    than refusing it, how far beyond."""
    over = f", {meter['overage']} over" if meter["overage"] > 0 else ""
    reset = f"resets {local_time(meter['resets_at'])}" if meter["resets_at"] else "no reset"
    return f"{meter['name']}: {meter['remaining']} of {meter['allowance']} left{over}, {reset}"


def format_usage(meters):
    return "; ".join(format_meter(meter) for meter in meters) if meters else "None"


def log(text):
    """One line per event on standard output (never a password; tokens only by 8 chars)."""
    print(f"[latchkey] {text}", flush=True)


# --- What this program keeps on disk: the saved session and the offline licence --------------


def saved_session_path():
    return Path.home() / ".latchkey" / f"{API_KEY[:12]}.json"


def offline_license_path():
    """Beside the saved session: {"license", "last_seen", "application_id"}."""
    return Path.home() / ".latchkey" / f"{API_KEY[:12]}.offline.json"


def read_json(path):
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def write_json(path, data, what):
    """Written whole or not at all (a new file renamed over the old one): a crash or a reader
    mid-write must never find half a licence. Readable by this user only from its first byte:
    the saved session holds the session's token."""
    temporary = path.with_name(path.name + ".tmp")
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(descriptor, "w", encoding="utf-8") as file:
            json.dump(data, file)
        os.replace(temporary, path)
    except OSError as error:
        log(f"could not save the {what}: {error}")


def remove_file(path, what):
    try:
        path.unlink()
    except FileNotFoundError:
        pass
    except OSError as error:
        log(f"could not clear the {what}: {error}")


def later_of_now(last_seen):
    """The later of `last_seen` and now, in unix seconds: `last_seen` never goes back."""
    previous = last_seen if isinstance(last_seen, (int, float)) else 0
    return max(int(previous), int(time.time()))


def record_last_seen():
    """Moves `last_seen` to now unless it is later already (a clock set back must not lower it)."""
    stored = read_json(offline_license_path())
    if stored is not None and isinstance(stored.get("license"), str):
        stored["last_seen"] = later_of_now(stored.get("last_seen"))
        write_json(offline_license_path(), stored, "offline licence")


def forget_user():
    """The saved session and the offline licence go together: a user who leaves takes both."""
    remove_file(saved_session_path(), "saved session")
    remove_file(offline_license_path(), "offline licence")


# --- The GUI ----------------------------------------------------------------------------------


class ClientWindow:
    """One window: the login form (400x300, or registration, or a licence key), then the main
    screen (600x400). SDK calls block, so they run on worker threads and their outcomes come
    back to the Tk thread through a queue."""

    def __init__(self, root):
        self.root = root
        self.client = latchkey.LatchkeyClient(
            BASE_URL,
            API_KEY,
            SIGNING_PUBLIC_KEY,
            APP_VERSION,
            timeout=HTTP_TIMEOUT_SECONDS,
            hwid=hardware_id(),
            device_name=device_name(),
            max_clock_skew_seconds=MAX_CLOCK_SKEW_SECONDS,
        )
        self.results = queue.Queue()
        self.generation = 0  # bumped when a session ends: late answers of the old one are ignored
        self.is_busy = False
        self.user = None
        self.session_token = None
        self.verify_failures = 0
        self.timers = {}
        self.running = set()  # the periodic calls under way, so that none overlaps itself
        # The increment of a metered feature that got no answer, as (session token, meter name,
        # idempotency key): the next click for that session and meter sends it again.
        self.unanswered_use = None
        # Until when this session's floating seat is borrowed (None: it is not), and the session's
        # own status, which the status line shows before it.
        self.borrowed_until = None
        self.session_status = ""
        self.exit_code = 0
        root.protocol("WM_DELETE_WINDOW", self.on_close)
        root.resizable(False, False)
        root.after(50, self.deliver_results)
        self.build_login_screen()
        # Each start moves the offline licence's last_seen on (never back): a clock set back
        # before it is one the SDK refuses the licence for.
        record_last_seen()
        saved = read_json(saved_session_path())
        if saved and isinstance(saved.get("user_id"), str) and saved["user_id"]:
            self.resume_saved_session(saved)

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

    def request(self, work, what, on_success, failed_title, button=None, status=""):
        """One call: its button (on the login screen, every button) disabled meanwhile; no answer
        or a forged one shown as such, a refusal titled by its code, an accepted answer (or a
        read-only variable) handed to on_success; nothing once the user has logged out."""
        generation = self.generation
        if button is None:
            self.set_busy(True, status)
        else:
            button.config(state=tk.DISABLED)

        def on_done(outcome, answer):
            if generation != self.generation:
                return
            if button is None:
                self.set_busy(False)
            elif button.winfo_exists():
                button.config(state=tk.NORMAL)
            if outcome == "error":
                self.show_request_error(answer, "Connection error")
            elif answer.success or str(answer.code) == "VARIABLE_READ_ONLY":
                on_success(answer)
            else:
                log(f"{what} failed: {answer.code}")
                self.show_refusal(answer, failed_title)

        self.run_in_background(work, on_done)

    def verify_user(self, user_id):
        return self.client.verify(user_id, entitlements=REQUIRED_ENTITLEMENTS or None)

    def show_dialog(self, kind, title, message):
        log(f"dialog {title}: {message}")
        show = {"info": messagebox.showinfo, "warning": messagebox.showwarning}.get(
            kind, messagebox.showerror
        )
        show(title, message, parent=self.root)

    def show_refusal(self, answer, fallback_title):
        """The refusal's dialog, titled by its code; closes the program where the code says so."""
        title, must_exit = refusal_title(answer.code, fallback_title)
        self.show_dialog("error", title, refusal_text(answer))
        if must_exit:
            self.exit_code = 1
            self.root.destroy()

    def show_request_error(self, error, prefix):
        if isinstance(error, latchkey.SignatureError):
            log("response not verified")
            self.show_dialog("error", "Security Warning", NOT_VERIFIED_MESSAGE)
        else:
            log(f"{prefix}: {error}")
            self.show_dialog("error", "Connection Error", f"{prefix}: {error}")

    def confirm(self, title, message):
        log(f"confirm {title}: {message}")
        is_confirmed = messagebox.askyesno(title, message, parent=self.root)
        log(f"confirm {title}: {'yes' if is_confirmed else 'no'}")
        return is_confirmed

    # --- Screens -----------------------------------------------------------------------------

    def clear_window(self, title, size):
        for child in self.root.winfo_children():
            child.destroy()
        self.root.title(f"Latchkey Client - {title}")
        self.root.geometry(f"{size}+100+100")
        self.action_buttons = []

    def add_button(self, text, command, **place):
        button = tk.Button(self.root, text=text, command=command)
        button.place(anchor="center", **place)
        self.action_buttons.append(button)
        return button

    def add_entry(self, label, label_at, entry_at, show=""):
        tk.Label(self.root, text=label).place(x=label_at[0], y=label_at[1])
        entry = tk.Entry(self.root, show=show)
        entry.place(x=entry_at[0], y=entry_at[1], width=entry_at[2], height=26)
        return entry

    def finish_form(self, on_return):
        self.status_label = tk.Label(self.root, text="", fg="#555555")
        self.status_label.place(x=200, y=280, anchor="center")
        self.root.bind("<Return>", lambda _event: on_return())
        self.entries[0].focus_set()

    def build_login_screen(self):
        self.clear_window("Login", "400x300")
        heading = tk.Label(self.root, text="Sign in", font=("TkDefaultFont", 16, "bold"))
        heading.place(x=200, y=40, anchor="center")
        self.username_entry = self.add_entry("Username", (50, 85), (50, 105, 300))
        self.password_entry = self.add_entry("Password", (50, 140), (50, 160, 300), show="*")
        self.entries = [self.username_entry, self.password_entry]
        self.add_button("Register", self.build_register_screen, x=70, y=225, width=110, height=32)
        self.add_button("Login", self.on_login, x=200, y=225, width=120, height=32)
        self.add_button(
            "Licence key", self.build_license_screen, x=330, y=225, width=110, height=32
        )
        # Links: this machine's trial (named by the username above when one is typed), a new
        # password, and (the username and password above prove the holder) a new link to confirm
        # an address.
        for text, command, x, y, width, anchor in (
            ("Start Trial", self.on_start_trial, 50, 189, 90, "nw"),
            ("Forgot password?", self.on_forgot_password, 350, 189, 130, "ne"),
            ("Resend verification e-mail", self.on_resend, 200, 246, 200, "n"),
        ):
            link = tk.Button(self.root, text=text, command=command, relief=tk.FLAT, borderwidth=0)
            link.config(highlightthickness=0, fg="#1a5fb4", activeforeground="#1a5fb4")
            link.config(cursor="hand2")
            link.place(x=x, y=y, width=width, height=18, anchor=anchor)
            self.action_buttons.append(link)
        self.finish_form(self.on_login)

    def build_form(self, title, heading, fields, actions):
        """A 400x300 form: `fields` are (label, show) rows of entries, `actions` (text, command)
        buttons; the first action is the one Return presses."""
        if self.is_busy:
            return
        self.clear_window(title, "400x300")
        tk.Label(self.root, text=heading, font=("TkDefaultFont", 16, "bold")).place(
            x=200, y=30, anchor="center"
        )
        self.entries = [
            self.add_entry(label, (20, 65 + row * 40), (150, 62 + row * 40, 230), show)
            for row, (label, show) in enumerate(fields)
        ]
        width = 380 // len(actions)
        for column, (text, command) in enumerate(actions):
            x = 10 + column * width + width // 2
            self.add_button(text, command, x=x, y=240, width=min(width - 10, 120), height=32)
        self.finish_form(actions[0][1])

    def build_register_screen(self):
        fields = [("Username", ""), ("Password", "*"), ("E-mail (optional)", "")]
        fields.append(("Licence key", ""))
        actions = [("Register", self.on_register), ("Back", self.build_login_screen)]
        self.build_form("Register", "Create an account", fields, actions)

    def build_license_screen(self):
        actions = [("Log in", self.on_license_login), ("Back", self.build_login_screen)]
        self.build_form("Licence Key", "Log in with a licence key", [("Licence key", "")], actions)

    def set_busy(self, is_busy, status=""):
        self.is_busy = is_busy
        for button in self.action_buttons:
            if button.winfo_exists():
                button.config(state=tk.DISABLED if is_busy else tk.NORMAL)
        if self.status_label.winfo_exists():
            self.status_label.config(text=status)

    def reset_to_login(self):
        """Login screen with cleared fields and no session data."""
        self.stop_monitoring()
        self.user = None
        self.session_token = None
        self.borrowed_until = None
        self.build_login_screen()
        self.set_busy(False)

    def build_main_screen(self):
        self.clear_window("Main", "600x400")
        self.root.unbind("<Return>")
        user = self.user
        welcome = f"Welcome, {user.get('username', '')}!"
        tk.Label(self.root, text=welcome, font=("TkDefaultFont", 16, "bold")).pack(pady=(8, 2))
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
            ("Updates", ""),
        ]
        values = []
        # Rows without padding of their own: eight of them, a wrapped list of subscriptions, the
        # message and the note must all fit above the redeem row of the 400-pixel window.
        for row, (label, value) in enumerate(rows):
            bold = tk.Label(info, text=f"{label}:", font=("TkDefaultFont", 11, "bold"), pady=0)
            bold.grid(row=row, column=0, sticky="ne", padx=8)
            values.append(tk.Label(info, text=str(value), font=("TkDefaultFont", 11), pady=0))
            values[-1].config(wraplength=420, justify="left")
            values[-1].grid(row=row, column=1, sticky="w", padx=8)
        self.entitlements_label, self.subscriptions_label, self.updates_label = values[-3:]
        # The session's floating seat, at the right of the session's row (the user id above keeps
        # that column wide enough): borrowed for some days to work offline, or given back.
        seat_links = tk.Frame(info)
        seat_links.grid(row=4, column=1, sticky="e", padx=8)
        self.borrow_button, self.return_button = (
            tk.Button(seat_links, text=text, command=command, relief=tk.FLAT, padx=0, pady=0)
            for text, command in (
                ("Borrow Seat...", self.on_borrow_seat),
                ("Return Seat", self.on_return_seat),
            )
        )
        for link in (self.borrow_button, self.return_button):
            link.config(borderwidth=0, highlightthickness=0, cursor="hand2")
            link.config(fg="#1a5fb4", activeforeground="#1a5fb4")
            link.pack(side="left", padx=(16, 0))
        self.session_label = tk.Label(self.root, text="Starting session...", fg="#2e7d32")
        self.session_label.pack(pady=(4, 0))
        # The welcome message and the note (remote variables), once read: see show_variables.
        self.variables_label = tk.Label(self.root, text="", justify="left")
        self.variables_label.pack()
        # Redeem a licence key onto this account: the password proves the holder.
        self.redeem_key_entry = self.add_entry("Licence key", (20, 297), (112, 294, 183))
        self.redeem_password_entry = self.add_entry("Password", (305, 297), (375, 294, 110), "*")
        self.redeem_button = self.add_button(
            "Redeem", self.on_redeem, x=540, y=307, width=90, height=30
        )
        # The usage meters on one line between the rows of actions (a long list cut; the log has
        # it whole), beside the action that spends them.
        tk.Label(self.root, text="Usage").place(x=20, y=326, height=20)
        self.usage_label = tk.Label(self.root, text="", anchor="w")
        self.usage_label.place(x=108, y=326, width=372, height=20)
        self.use_button = tk.Button(
            self.root, text="Use feature", command=self.on_use_feature, relief=tk.FLAT
        )
        self.use_button.config(borderwidth=0, highlightthickness=0, cursor="hand2")
        self.use_button.config(fg="#1a5fb4", activeforeground="#1a5fb4")
        self.use_button.place(x=585, y=326, width=100, height=20, anchor="ne")
        # The user's note (a user variable): saved on the account, read back at each login.
        self.note_entry = self.add_entry("Note", (10, 355), (46, 353, 100))
        self.note_button = self.add_button(
            "Save Note", self.on_save_note, x=194, y=366, width=86, height=30
        )
        self.add_button("Logout", self.on_logout, x=300, y=366, width=120, height=32)
        # A new PC, a reinstall: the user frees this device's seat so another machine can log in.
        self.release_button = self.add_button(
            "Release this device...", self.on_release_device, x=495, y=366, width=180, height=32
        )
        self.show_licensing()
        self.action_buttons = []  # none of these is disabled while the login screen is busy

    def show_licensing(self):
        """The user's entitlements, subscriptions, updates window and usage meters on the main
        screen (and in the log)."""
        entitlements = format_entitlements(self.user.get("entitlements", []))
        subscriptions = format_subscriptions(self.user.get("subscriptions", []))
        updates = format_updates(self.user.get("updates_until"))
        usage = format_usage(self.user.get("meters", []))
        log(f"entitlements: {entitlements}")
        log(f"subscriptions: {subscriptions}")
        log(f"updates: {updates}")
        log(f"usage: {usage}")
        if self.entitlements_label.winfo_exists():
            self.entitlements_label.config(text=entitlements)
            self.subscriptions_label.config(text=subscriptions)
            self.updates_label.config(text=updates)
            self.usage_label.config(text=usage if len(usage) <= 55 else usage[:54] + "…")

    def show_variables(self):
        """The welcome message and the note, each only when it exists (long values cut to one
        line here; the log has them whole)."""
        lines = []
        for label, name in (("Message", "welcome_message"), ("Note", "note")):
            value = self.user.get(name) if self.user else None
            if isinstance(value, str):
                lines.append(f"{label}: {value if len(value) <= 70 else value[:69] + '…'}")
        if self.variables_label.winfo_exists():
            self.variables_label.config(text="\n".join(lines))

    def set_session_status(self, text=None):
        """The status line: the session's status (`text`, or the last one), and until when its
        seat is borrowed."""
        if text is not None:
            self.session_status = text
        shown = self.session_status
        if self.borrowed_until:
            shown += f"; seat borrowed until {local_time(self.borrowed_until)}"
        if self.user is not None and self.session_label.winfo_exists():
            self.session_label.config(text=shown)

    # --- The login screen ---------------------------------------------------------------------

    def credentials(self):
        """The trimmed username and password of the login form, or None (and a warning)."""
        username = self.username_entry.get().strip()
        password = self.password_entry.get().strip()
        if username and password:
            return username, password
        self.show_dialog("warning", "Validation Error", MISSING_CREDENTIALS_MESSAGE)
        return None

    def on_login(self):
        if self.is_busy or self.user is not None:
            return
        credentials = self.credentials()
        if credentials:
            self.set_busy(True, "Logging in...")
            log(f"login as {credentials[0]}")
            self.run_in_background(
                lambda: self.client.login(
                    *credentials, required_entitlements=REQUIRED_ENTITLEMENTS or None
                ),
                self.on_login_answer,
            )

    def on_license_login(self):
        """A licence key alone logs in: the answer is a login's, and goes the same way."""
        license_key = self.entries[0].get().strip()
        if self.is_busy or self.user is not None:
            return
        if not license_key:
            self.show_dialog("warning", "Validation Error", MISSING_LICENSE_KEY_MESSAGE)
            return
        self.set_busy(True, "Logging in...")
        log("login with a licence key")
        self.run_in_background(
            lambda: self.client.license_login(
                license_key, required_entitlements=REQUIRED_ENTITLEMENTS or None
            ),
            self.on_login_answer,
        )

    def on_start_trial(self):
        """Starts this machine's trial, or logs in the one it already has: one trial per machine
        (its hardware id), so a reinstall or another name gets the same trial account until it
        ends. A username typed in the form names a new trial's account (none: the server names
        it); the password is not needed. The answer is a login's, and goes the same way."""
        if self.is_busy or self.user is not None:
            return
        username = self.username_entry.get().strip() or None
        self.set_busy(True, "Starting the trial...")
        log(f"trial as {username}" if username else "trial")
        self.run_in_background(
            lambda: self.client.start_trial(
                username=username, required_entitlements=REQUIRED_ENTITLEMENTS or None
            ),
            lambda status, answer: self.on_login_answer(status, answer, is_trial=True),
        )

    def on_register(self):
        """Registers (a licence key, when given, is redeemed in the same step), then logs in
        with the same username and password."""
        username, password, email, license_key = (entry.get().strip() for entry in self.entries)
        if self.is_busy or self.user is not None:
            return
        if not username or not password:
            self.show_dialog("warning", "Validation Error", MISSING_CREDENTIALS_MESSAGE)
            return
        log(f"register as {username}")

        def on_registered(answer):
            log("register ok")
            self.show_dialog("info", "Registration Successful", answer.message)
            self.build_login_screen()
            self.username_entry.insert(0, username)
            self.password_entry.insert(0, password)
            self.on_login()

        register = self.client.register
        self.request(
            lambda: register(username, password, email or None, license_key or None),
            "register",
            on_registered,
            "Registration Failed",
            status="Registering...",
        )

    def on_forgot_password(self):
        """Mails a link to choose a new password to the account named by its e-mail address
        when the text holds an '@' (every address has one, few usernames do), else by its
        username. The answer reads the same whether or not the account exists."""
        if self.is_busy or self.user is not None:
            return
        name = simpledialog.askstring(
            "Latchkey Client - Forgot Password",
            "Enter your username or e-mail address:",
            initialvalue=self.username_entry.get().strip(),
            parent=self.root,
        )
        if name is None or self.is_busy or self.user is not None:
            return  # cancelled, or a saved session signed in meanwhile
        if not name.strip():
            self.show_dialog("warning", "Validation Error", MISSING_USERNAME_OR_EMAIL_MESSAGE)
            return
        named = {"email" if "@" in name else "username": name.strip()}
        forgot = self.client.forgot_password
        self.request_mail(lambda: forgot(**named), "Password Reset Failed", "password reset")

    def on_resend(self):
        """Mails a new link to confirm the account's address, for the username and password in
        the login form (still there after a login refused as E-mail Not Verified)."""
        if self.is_busy or self.user is not None:
            return
        credentials = self.credentials()
        if credentials:
            resend = self.client.resend_verification
            self.request_mail(lambda: resend(*credentials), "Resend Failed", "verification e-mail")

    def request_mail(self, work, failed_title, what):
        """The answer reads the same whatever the account: the login screen stays as it is."""
        log(f"{what} request")

        def on_requested(answer):
            log(f"{what} requested")
            self.show_dialog("info", "Check Your E-mail", answer.message)

        status = "Requesting a link..."
        self.request(work, f"{what} request", on_requested, failed_title, status=status)

    def on_login_answer(self, status, answer, is_trial=False):
        """A login's answer, or a trial's (the SDK has started the session when it is accepted,
        and refused a user without REQUIRED_ENTITLEMENTS before any session): a refusal is shown
        and an offered update offered; an accepted login is verified, then the main screen. A
        trial says when it ends."""
        if status == "error" or not answer.success:
            self.set_busy(False)
        if status == "error":
            self.show_request_error(answer, "Connection error")
            return
        if not answer.success:
            log(f"{'trial' if is_trial else 'login'} failed: {answer.code}")
            update = self.client.check_for_update(answer)
            if update is not None:
                title = refusal_title(answer.code, "Update Required")[0]
                self.show_dialog("error", title, refusal_text(answer))
                self.offer_update(update, str(answer.code))
            else:
                self.show_refusal(answer, "Trial Failed" if is_trial else "Login Failed")
            return
        if is_trial:
            log("trial ok")
            self.show_dialog("info", "Trial Active", trial_text(answer))
        else:
            log("login ok")
            self.show_dialog("info", "Login Successful", answer.message)
        self.set_busy(True, "Verifying...")
        user = answer.to_dict()

        def verify_new_session():
            # A failed verify ends the session the login started before the user is told, so a
            # refused user never holds a live one.
            verdict = None
            try:
                verdict = self.verify_user(user["user_id"])
                return verdict
            finally:
                if verdict is None or not verdict.success:
                    self.end_session_now()

        self.run_in_background(
            verify_new_session, lambda status, verdict: self.on_verified(user, status, verdict)
        )

    def on_verified(self, user, status, verdict):
        self.set_busy(False)
        if status == "ok" and verdict.success:
            log("verify ok")
            self.open_main_screen({**user, **licensing_of(verdict)})
            return
        for entry in self.entries:
            entry.delete(0, tk.END)
        if status == "error" and isinstance(verdict, latchkey.SignatureError):
            self.show_request_error(verdict, "Verification error")
            return
        if status == "error":
            log(f"Verification error: {verdict}")
        else:
            log(f"verify after login failed: {verdict.code}")
        if status == "ok" and str(verdict.code) in ("ENTITLEMENTS_MISSING", "EMAIL_NOT_VERIFIED"):
            self.show_refusal(verdict, "Security Warning")
        else:
            self.show_dialog("warning", "Security Warning", VERIFY_AFTER_LOGIN_FAILED_MESSAGE)

    def resume_saved_session(self, saved):
        """The saved user verified again, then the saved session resumed with its token (no
        password). No answer at all lets the offline licence stand in."""
        self.set_busy(True, "Checking saved session...")
        log("verifying saved session")
        user_id, token = saved["user_id"], saved.get("session_token")
        user = {"user_id": user_id, "username": saved.get("username", "")}

        def verify_and_resume():
            verdict = self.verify_user(user_id)
            if not verdict.success or not isinstance(token, str):
                return verdict, None
            log("Saved session verified.")
            user.update(licensing_of(verdict))
            return verdict, self.client.resume_session(token, user_id)

        def on_done(status, answers):
            self.set_busy(False)
            if status == "error" and isinstance(answers, latchkey.TransportError):
                log(f"Verification error: {answers}")  # kept: the next start tries again
                if answers.reason in ("unreachable", "timeout"):
                    self.start_offline()
                return
            if status == "ok" and answers[1] is not None and answers[1].success:
                self.open_main_screen(user)
                return
            forget_user()
            if status == "error":
                self.show_request_error(answers, "Verification error")
            elif answers[1] is None:
                reason = "no token" if answers[0].success else answers[0].code
                log(f"saved session refused: {reason}")
            else:
                log(f"saved session not resumed: {answers[1].code}")
                self.show_dialog("error", "Session Error", answers[1].message)

        self.run_in_background(verify_and_resume, on_done)

    # --- The session --------------------------------------------------------------------------

    def open_main_screen(self, user):
        """The session the SDK holds (a login's, or a saved one resumed): saved for the next
        start, shown, monitored, and an offline licence checked out for it."""
        session = self.client.session
        self.user, self.session_token = user, session.token
        self.borrowed_until = None
        self.generation += 1
        self.verify_failures = 0
        saved = {"user_id": session.user_id, "username": user.get("username", "")}
        write_json(saved_session_path(), {**saved, "session_token": session.token}, "session")
        self.build_main_screen()
        log(f"session started {session.token[:8]}")
        self.set_session_status("Session active")
        self.read_main_screen_variables()
        self.check_out_license()
        self.timers = {
            "heartbeat": self.root.after(HEARTBEAT_INTERVAL_SECONDS * 1000, self.heartbeat),
            "verify": self.root.after(VERIFY_INTERVAL_SECONDS * 1000, self.periodic_verify),
        }

    def every(self, name, seconds, work, on_done):
        """Runs `work` now (unless its last run is still under way) and again in `seconds`. The
        SDK's own heartbeat loop tells only of a session's end; this program also shows each
        heartbeat and moves the offline licence's last_seen with it, so it times the calls."""
        generation = self.generation
        again = lambda: self.every(name, seconds, work, on_done)  # noqa: E731
        self.timers[name] = self.root.after(seconds * 1000, again)
        if name in self.running:
            return
        self.running.add(name)

        def done(status, answer):
            self.running.discard(name)
            if generation == self.generation:
                on_done(status, answer)

        self.run_in_background(work, done)

    def heartbeat(self):
        def on_done(status, answer):
            if status == "error" and isinstance(answer, latchkey.SignatureError):
                log("heartbeat: response not verified")
            elif status == "error":
                log(f"Heartbeat error: {answer}")
            elif answer is not None and answer.success:
                log("heartbeat ok")
                record_last_seen()
                now = time.strftime("%H:%M:%S")
                self.set_session_status(f"Session active (last heartbeat {now})")
            elif answer is not None:
                log(f"heartbeat failed: {answer.code}")

        # None once the server has ended the session (the SDK forgets it): the verifies decide.
        client = self.client
        beat = lambda: client.heartbeat() if client.session is not None else None  # noqa: E731
        self.every("heartbeat", HEARTBEAT_INTERVAL_SECONDS, beat, on_done)

    def periodic_verify(self):
        def on_done(status, answer):
            if status == "error" and isinstance(answer, latchkey.TransportError):
                log(f"Verification error: {answer}")  # network faults are not counted
            elif status == "ok" and answer.success:
                self.verify_failures = 0
                log("verify ok")
                # The owner may have granted or taken back a plan since: show what holds now.
                licensing = licensing_of(answer)
                if any(self.user.get(name) != value for name, value in licensing.items()):
                    self.user.update(licensing)
                    self.show_licensing()
            else:  # a refusal, or an answer that failed verification: never a success
                self.verify_failures += 1
                reason = "response not verified" if status == "error" else answer.code
                log(f"verify failed ({self.verify_failures}/{MAX_VERIFY_FAILURES}): {reason}")
                if self.verify_failures >= MAX_VERIFY_FAILURES:
                    self.forced_logout()

        user_id = str(self.user.get("user_id", ""))
        self.every("verify", VERIFY_INTERVAL_SECONDS, lambda: self.verify_user(user_id), on_done)

    def stop_monitoring(self):
        self.generation += 1
        for timer in self.timers.values():
            self.root.after_cancel(timer)
        self.timers = {}

    def end_session_now(self):
        """The session end call; its outcome is only logged (the session is over here)."""
        try:
            answer = self.client.end_session()
        except latchkey.LatchkeyError as error:
            log(f"Session end error: {error}")
            return
        if answer is not None:
            log("session ended" if answer.success else f"session end: {answer.code}")

    def leave(self, log_line, kind, title, message):
        """Logout and forced logout: the session ended (off the Tk thread), monitoring stopped,
        the saved session and offline licence forgotten, and the login screen back."""
        log(log_line)
        threading.Thread(target=self.end_session_now, daemon=True).start()
        self.stop_monitoring()
        forget_user()
        if kind == "warning":
            self.show_dialog(kind, title, message)
        self.reset_to_login()
        if kind == "info":
            self.show_dialog(kind, title, message)

    def forced_logout(self):
        self.leave("forced logout", "warning", "Session Expired", SESSION_EXPIRED_MESSAGE)

    def on_logout(self):
        self.leave("logout", "info", "Logged Out", LOGGED_OUT_MESSAGE)

    def on_close(self):
        # Closing the window stops monitoring. The session stays open, saved for the next start
        # to resume; the server stops counting it as live once its heartbeats stop.
        self.stop_monitoring()
        self.root.destroy()

    # --- The main screen's actions ------------------------------------------------------------

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
        log("redeem a licence key")
        username = str(self.user.get("username", ""))

        def on_redeemed(answer):
            log("redeem ok")
            self.redeem_key_entry.delete(0, tk.END)
            self.user.update(licensing_of(answer))
            self.show_licensing()
            self.show_dialog("info", "Licence Key Redeemed", answer.message)

        redeem = self.client.redeem
        work = lambda: redeem(username, password, license_key)  # noqa: E731
        self.request(work, "redeem", on_redeemed, "Redeem Failed", self.redeem_button)

    def on_use_feature(self):
        """Counts one use of a metered feature against the first usage meter the user holds (a
        program names its own: "exports" before an export, say), then shows what is left. Each
        increment sends a random idempotency key of its own; one that got no answer is sent
        again, by the next click, with the same key, so the server counts it once even when only
        its answer was lost. A refusal is titled by its code: the meter is used up, or no longer
        in the user's plans."""
        if self.user is None or str(self.use_button["state"]) == tk.DISABLED:
            return
        if not self.session_token:
            self.show_dialog("warning", "Usage Not Counted", USAGE_OFFLINE_MESSAGE)
            return
        meters = self.user.get("meters") or []
        if not meters:
            self.show_dialog("info", "No Usage Meters", NO_METERS_MESSAGE)
            return
        name = meters[0]["name"]
        if self.unanswered_use is None or self.unanswered_use[:2] != (self.session_token, name):
            self.unanswered_use = (self.session_token, name, str(uuid.uuid4()))
        key = self.unanswered_use[2]
        log(f"use {name}")
        generation = self.generation
        self.use_button.config(state=tk.DISABLED)

        def on_done(status, answer):
            if generation != self.generation:
                return
            if self.use_button.winfo_exists():
                self.use_button.config(state=tk.NORMAL)
            if status == "error":
                self.show_request_error(answer, "Connection error")
                return
            self.unanswered_use = None
            # Counted or used up, the answer says where the meter stands now; a meter no plan of
            # the user has any more is not shown any more.
            fields = {**answer.to_dict(), "name": name}
            standing = meter_of(fields) if is_meter(fields) else None
            held = self.user.get("meters", [])
            if standing is not None:
                held = [standing if meter["name"] == name else meter for meter in held]
            elif str(answer.code) == "METER_NOT_FOUND":
                held = [meter for meter in held if meter["name"] != name]
            if held != self.user.get("meters", []):
                self.user["meters"] = held
                self.show_licensing()
            if not answer.success:
                log(f"{name} use refused: {answer.code}")
                self.show_refusal(answer, "Usage Not Counted")
                return
            replayed = " (sent again: counted once)" if answer.get("replayed") else ""
            log(f"{name} use counted{replayed}")
            self.show_dialog("info", "Usage Counted", format_meter(standing or meters[0]))

        use = self.client.use_meter
        self.run_in_background(lambda: use(name, 1, idempotency_key=key), on_done)

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
        log("release this device")
        username = str(self.user.get("username", ""))

        def on_released(answer):
            log(f"device released ({answer.get('released')})")
            # The server has ended this device's session already: nothing to end here.
            forget_user()
            self.reset_to_login()
            self.show_dialog("info", "Device Released", released_text(answer))

        reset = self.client.reset_devices
        work = lambda: reset(username, password)  # noqa: E731
        self.request(work, "release", on_released, "Release Failed", self.release_button)

    def on_borrow_seat(self):
        """Borrows this computer's floating seat for the days asked (a trip without the network):
        the seat stays taken until the borrow ends, even once the session has ended, and the
        offline licence the server answers, kept where a checked-out one is, lets the program run
        offline until then. The plan says how many days it allows (none: Borrowing Not
        Allowed)."""
        if self.user is None or str(self.borrow_button["state"]) == tk.DISABLED:
            return
        if not self.session_token:
            self.show_dialog("warning", "Borrow Failed", SEAT_OFFLINE_MESSAGE)
            return
        days = simpledialog.askinteger(
            "Latchkey Client - Borrow Seat",
            "Borrow this computer's seat to work offline for how many days?",
            minvalue=1,
            maxvalue=MAX_BORROW_DAYS,
            parent=self.root,
        )
        if days is None or not self.session_token:
            return  # cancelled, or signed out meanwhile
        log(f"borrow the seat for {days} days")

        def on_borrowed(answer):
            log("seat borrowed")
            content = self.store_issued_license(answer["license"])
            self.borrowed_until = (content or answer).get("valid_until")
            self.set_session_status()
            self.show_dialog("info", "Seat Borrowed", borrowed_text(answer, self.borrowed_until))

        borrow = self.client.borrow_seat
        work = lambda: borrow(days)  # noqa: E731
        self.request(work, "borrow", on_borrowed, "Borrow Failed", self.borrow_button)

    def on_return_seat(self):
        """Gives the borrowed seat back before the borrow ends, so another computer may take it;
        the session goes on, on an ordinary seat again. The licence the borrow issued cannot be
        recalled: the program discards it (the next login checks out another)."""
        if self.user is None or str(self.return_button["state"]) == tk.DISABLED:
            return
        if not self.session_token:
            self.show_dialog("warning", "Return Failed", SEAT_OFFLINE_MESSAGE)
            return
        log("return the seat")

        def on_returned(answer):
            log("seat returned")
            self.borrowed_until = None
            remove_file(offline_license_path(), "offline licence")
            log("borrowed licence discarded")
            self.set_session_status()
            self.show_dialog("info", "Seat Returned", answer.message)

        give_back = self.client.return_seat
        self.request(give_back, "return", on_returned, "Return Failed", self.return_button)

    def read_main_screen_variables(self):
        """The application's welcome message and the user's note, read with the session. One
        that does not exist (VARIABLE_NOT_FOUND) shows nothing; other failures are logged."""
        generation = self.generation
        for key, label, read, name in (
            ("welcome_message", "Message", self.client.get_variable, WELCOME_MESSAGE_VARIABLE),
            ("note", "Note", self.client.get_user_variable, NOTE_VARIABLE),
        ):

            def on_done(status, answer, key=key, label=label):
                if generation != self.generation:
                    return
                if status == "error":
                    log(f"{label} not read: {answer}")
                elif answer.success and isinstance(answer.get("value"), str):
                    self.user[key] = answer["value"]
                    log(f"{label}: {self.user[key]}")
                    self.show_variables()
                elif str(answer.code) == "VARIABLE_NOT_FOUND":
                    log(f"no {label.lower()}")
                else:
                    log(f"{label} not read: {answer.code}")

            self.run_in_background(lambda read=read, name=name: read(name), on_done)

    def on_save_note(self):
        """Saves the note box as the user's note; the vendor may have made it read-only."""
        if not self.session_token or str(self.note_button["state"]) == tk.DISABLED:
            return
        value = self.note_entry.get()
        log("save the note")

        def on_saved(answer):
            if str(answer.code) == "VARIABLE_READ_ONLY":
                log("note refused: VARIABLE_READ_ONLY")
                self.show_dialog("warning", "Note Is Read-Only", answer.message)
                return
            log("note saved")
            self.user["note"] = value
            self.note_entry.delete(0, tk.END)
            self.show_variables()
            self.show_dialog("info", "Note Saved", "Note saved.")

        save = self.client.set_user_variable
        work = lambda: save(NOTE_VARIABLE, value)  # noqa: E731
        self.request(work, "note", on_saved, "Note Not Saved", self.note_button)

    # --- The offline licence and the update ---------------------------------------------------

    def check_out_license(self):
        """Takes an offline licence for the session just started and stores it. A failure only
        costs the offline start: logged."""
        generation = self.generation

        def on_done(status, answer):
            if generation != self.generation:
                return  # logged out meanwhile: that user's licence is not to be kept
            if status == "error":
                log(f"Licence checkout error: {answer}")
                return
            if not answer.success:
                log(f"licence checkout refused: {answer.code}")
                return
            if self.borrowed_until:
                return  # a seat borrowed meanwhile keeps its licence, the one lasting the borrow
            self.store_issued_license(answer["license"])

        checkout = self.client.checkout
        self.run_in_background(lambda: checkout(ttl_seconds=OFFLINE_LICENSE_TTL_SECONDS), on_done)

    def store_issued_license(self, issued):
        """Stores an offline licence the server has just issued (a checkout's, or a borrowed
        seat's) once the SDK accepts it as it will offline: its content, or None (logged)."""
        check = self.client.verify_offline_license(issued)
        if not check.success:
            log(f"offline licence not stored ({check.code})")
            return None
        # The application it names came in an answer signed for this request: offline, a licence
        # must name the same one.
        previous = read_json(offline_license_path()) or {}
        stored = {
            "license": issued,
            "last_seen": later_of_now(previous.get("last_seen")),
            "application_id": check.content["application_id"],
        }
        write_json(offline_license_path(), stored, "offline licence")
        log(f"offline licence stored (valid until {check.content['valid_until']})")
        return check.content

    def start_offline(self):
        """The server cannot be reached: the stored offline licence, checked by the SDK with the
        pinned key and this machine's id, lets the user in until its valid_until, without a
        session (so no heartbeat)."""
        stored = read_json(offline_license_path())
        if stored is None or not isinstance(stored.get("license"), str):
            self.show_dialog("error", SERVER_UNREACHABLE_TITLE, SERVER_UNREACHABLE_MESSAGE)
            return
        check = self.client.verify_offline_license(
            stored["license"],
            application_id=stored.get("application_id"),
            last_seen_at=stored.get("last_seen") or 0,
            clock_tolerance_seconds=CLOCK_TOLERANCE_SECONDS,
        )
        if not check.success:
            log(f"offline licence refused ({check.code})")
            message = offline_refusal_message(check.code, check.content)
            self.show_dialog("error", OFFLINE_REFUSED_TITLE, message)
            return
        log("offline licence accepted")
        content = check.content
        self.generation += 1
        self.user = {
            "user_id": content.get("user_id", ""),
            "username": content.get("username", ""),
            "expires_at": content.get("account_expires_at"),
            **licensing_of(content),
        }
        self.build_main_screen()
        offline_until = f"Working offline until {local_time(content.get('valid_until'))}"
        log(offline_until)
        self.set_session_status(offline_until)

    def offer_update(self, update, code):
        """Offers the release a VERSION_MISMATCH or UPDATES_EXPIRED answer names, downloaded
        beside the program (the SDK keeps it only when its size and SHA-256 are the signed ones).
        Past the updates window it is not newer than this program but the newest the licence
        includes, and is offered as such. The program ends either way, this version may not log
        in, once the download has said where it is or why not."""
        if code == "UPDATES_EXPIRED":
            title = "Included Release"
            question = f"Your licence includes version {update['version']}. Download it?"
        else:
            title = "Update Available"
            question = f"Version {update['version']} is available. Download it?"
        if not self.confirm(title, question):
            self.exit_code = 1
            self.root.destroy()
            return
        version = re.sub(r"[^\w.-]", "_", update["version"])
        target = str(Path(__file__).resolve().parent / f"update-{version}.bin")
        download = self.client.download
        self.set_busy(True, "Downloading...")
        self.run_in_background(
            lambda: download(update["file_id"], target, sha256=update["sha256"]), self.on_downloaded
        )

    def on_downloaded(self, status, answer):
        self.set_busy(False)
        if status == "error" and getattr(answer, "reason", None) == "digest":
            log(f"update refused: {answer}")
            self.show_dialog("error", UPDATE_REFUSED_TITLE, UPDATE_TAMPERED_MESSAGE)
        elif status == "error":
            self.show_request_error(answer, "Download error")
        elif not answer.success:
            self.show_dialog("error", "Download Failed", refusal_text(answer))
        else:
            log(f"update saved ({answer['size']} bytes, SHA-256 {answer['sha256']})")
            self.show_dialog("info", "Update Saved", f"Update saved to {answer['path']}")
        self.exit_code = 1
        self.root.destroy()


def main():
    root = tk.Tk()
    window = ClientWindow(root)
    root.mainloop()
    sys.exit(window.exit_code)


if __name__ == "__main__":
    main()
