"""Unit tests of the demo program's own parts (refusal titles and texts, licensing, usage meters,
trials, floating seats and times as shown, the device name, the offline refusal messages); what
talks to the server is the SDK's and is tested by the SDK's conformance suite. Run with the
`latchkey` SDK installed: `python3 -m unittest test_latchkey_client` (from this folder), or with
LATCHKEY_CLIENT_PATH naming a rendered copy of the sample to test that one."""

import contextlib
import importlib.util
import os
import time
import unittest
from pathlib import Path

SAMPLE_PATH = Path(os.environ.get("LATCHKEY_CLIENT_PATH", Path(__file__).with_name("latchkey_client.py")))
_spec = importlib.util.spec_from_file_location("latchkey_client_under_test", SAMPLE_PATH)
client = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(client)  # import-safe: no window opens


class LicensingTest(unittest.TestCase):
    def test_titles_every_licence_code_and_falls_back_to_the_action(self):
        title = client.refusal_title
        self.assertEqual(title("LICENSE_USED", "Redeem Failed"), ("Licence Key Used", False))
        self.assertEqual(title("LICENSE_EXPIRED", "x"), ("Licence Key Lapsed", False))
        self.assertEqual(title("NO_ACTIVE_SUBSCRIPTION", "x")[0], "Subscription Required")
        self.assertEqual(title("ENTITLEMENTS_MISSING", "x")[0], "Feature Not Included")
        self.assertEqual(title("BLACKLISTED", "x"), ("Access Blocked", True))
        # Past the updates window this version may not run: the program exits, as for an update.
        self.assertEqual(title("UPDATES_EXPIRED", "x"), ("Updates Ended", True))
        self.assertEqual(
            title("USERNAME_TAKEN", "Registration Failed"), ("Registration Failed", False)
        )

    def test_reads_entitlements_and_subscriptions_from_an_answer(self):
        licensing = client.licensing_of(
            {
                "entitlements": ["EXPORT_PDF", "PRO"],
                "subscriptions": [
                    {"plan": "Pro", "expires_at": "2026-07-01T12:00:00.000Z"},
                    {"plan": "Team", "expires_at": None},
                ],
                "updates_until": "2027-06-01T12:00:00.000Z",
            }
        )
        self.assertEqual(client.format_entitlements(licensing["entitlements"]), "EXPORT_PDF, PRO")
        self.assertEqual(
            client.format_subscriptions(licensing["subscriptions"]),
            "Pro until 2026-07-01T12:00:00.000Z, Team (lifetime)",
        )
        self.assertEqual(
            client.format_updates(licensing["updates_until"]), "Until 2027-06-01T12:00:00.000Z"
        )
        empty = client.licensing_of(
            {"entitlements": "PRO", "subscriptions": [{"expires_at": None}]}
        )
        self.assertEqual(
            empty, {"entitlements": [], "subscriptions": [], "updates_until": None, "meters": []}
        )
        self.assertEqual(client.format_subscriptions([]), "None")
        # No window (null), and a licence issued before the field existed: every release.
        self.assertIsNone(client.licensing_of({"updates_until": None})["updates_until"])
        self.assertEqual(client.format_updates(None), "Every release")

    def test_shows_what_is_left_of_each_usage_meter(self):
        licensing = client.licensing_of(
            {
                "entitlements": [],
                "meters": [
                    {
                        "name": "exports",
                        "allowance": 500,
                        "used": 20,
                        "remaining": 480,
                        "overage": 0,
                        "resets_at": "2026-06-01T00:00:00.000Z",
                    },
                    {
                        "name": "credits",
                        "allowance": 100,
                        "used": 120,
                        "remaining": 0,
                        "overage": 20,
                        "resets_at": None,
                    },
                    {"name": "broken", "allowance": "500"},
                ],
            }
        )
        with local_zone("Asia/Kolkata"):  # +05:30 all year: a conversion that shows
            self.assertEqual(
                client.format_usage(licensing["meters"]),
                "exports: 480 of 500 left, resets 2026-06-01 05:30; credits: 0 of 100 left,"
                " 20 over, no reset",
            )
        # No plan with meters (the server leaves the field out), and a licence older than it.
        self.assertEqual(client.licensing_of({"entitlements": []})["meters"], [])
        self.assertEqual(client.format_usage([]), "None")

    def test_titles_the_meter_codes_and_says_when_a_used_up_meter_resets(self):
        title = client.refusal_title
        self.assertEqual(title("METER_EXHAUSTED", "x"), ("Usage Limit Reached", False))
        self.assertEqual(title("METER_NOT_FOUND", "x"), ("Feature Not Included", False))
        exhausted = {
            "code": "METER_EXHAUSTED",
            "message": "Used up",
            "remaining": 0,
            "resets_at": "2026-06-01T00:00:00.000Z",
        }
        with local_zone("Asia/Kolkata"):
            self.assertEqual(client.refusal_text(exhausted), "Used up (resets 2026-06-01 05:30)")
        never = {**exhausted, "resets_at": None}
        self.assertEqual(client.refusal_text(never), "Used up (no reset)")

    def test_titles_the_trial_codes_and_says_when_a_trial_ends(self):
        title = client.refusal_title
        self.assertEqual(title("TRIAL_UNAVAILABLE", "Trial Failed"), ("Trial Unavailable", False))
        self.assertEqual(title("TRIAL_EXPIRED", "Trial Failed"), ("Trial Ended", False))
        self.assertEqual(title("TRIAL_USED", "Trial Failed"), ("Trial Already Used", False))
        ended = {
            "code": "TRIAL_EXPIRED",
            "message": "Your trial has ended",
            "expires_at": "2026-06-08T12:00:30.000Z",
        }
        started = {"code": "OK", "message": "Welcome", "expires_at": "2026-06-08T12:00:00.000Z"}
        with local_zone("Asia/Kolkata"):
            self.assertEqual(
                client.refusal_text(ended), "Your trial has ended (ended 2026-06-08 17:31)"
            )
            self.assertEqual(client.trial_text(started), "Welcome (trial ends 2026-06-08 17:30)")
        self.assertEqual(client.refusal_text({**ended, "expires_at": None}), "Your trial has ended")

    def test_titles_the_seat_codes_and_says_when_a_seat_frees_and_until_when_one_is_borrowed(self):
        title = client.refusal_title
        self.assertEqual(title("NO_SEAT_AVAILABLE", "Login Failed"), ("All Seats In Use", False))
        self.assertEqual(
            title("BORROW_NOT_ALLOWED", "Borrow Failed"), ("Borrowing Not Allowed", False)
        )
        taken = {
            "code": "NO_SEAT_AVAILABLE",
            "message": "Every seat is in use",
            "next_free_at": "2026-06-08T12:14:30.000Z",
        }
        borrowed = {"code": "OK", "message": "Seat borrowed", "license": "LK1.x.y"}
        with local_zone("Asia/Kolkata"):
            self.assertEqual(
                client.refusal_text(taken),
                "Every seat is in use (next seat free by 2026-06-08 17:45)",
            )
            self.assertEqual(
                client.borrowed_text(borrowed, "2026-06-11T12:00:00.000Z"),
                "Seat borrowed (borrowed until 2026-06-11 17:30)",
            )
        no_time = {**taken, "next_free_at": None}
        self.assertEqual(client.refusal_text(no_time), "Every seat is in use")

    def test_names_what_is_missing(self):
        answer = {
            "code": "ENTITLEMENTS_MISSING",
            "message": "Not included",
            "missing_entitlements": ["TEAM"],
        }
        self.assertEqual(client.refusal_text(answer), "Not included (missing: TEAM)")



@contextlib.contextmanager
def local_zone(name):
    """This process's local time zone is `name` (a tz database name) for the block."""
    previous = os.environ.get("TZ")
    os.environ["TZ"] = name
    time.tzset()
    try:
        yield
    finally:
        if previous is None:
            del os.environ["TZ"]
        else:
            os.environ["TZ"] = previous
        time.tzset()


class DevicesTest(unittest.TestCase):
    def test_titles_the_reset_codes(self):
        title = client.refusal_title
        self.assertEqual(title("RESET_NOT_ALLOWED", "x"), ("Reset Not Allowed", False))
        self.assertEqual(title("RESET_COOLDOWN", "x"), ("Reset Not Yet Available", False))
        self.assertEqual(title("DEVICE_NOT_FOUND", "x"), ("Device Not Found", False))
        self.assertEqual(title("INVALID_CREDENTIALS", "Release Failed"), ("Release Failed", False))

    def test_shows_server_times_in_local_time_to_the_minute_rounded_up(self):
        with local_zone("Asia/Kolkata"):  # +05:30 all year: a conversion that shows
            local_time = client.local_time
            self.assertEqual(local_time("2026-06-08T12:00:00.000Z"), "2026-06-08 17:30")
            self.assertEqual(local_time("2026-06-08T12:00:00.001Z"), "2026-06-08 17:31")
            self.assertEqual(local_time("2026-06-08T18:29:59+00:00"), "2026-06-09 00:00")
            self.assertEqual(local_time("not a time"), "not a time")
            self.assertEqual(local_time(None), "None")

    @local_zone("UTC")
    def test_says_when_the_next_release_is_possible(self):
        cooldown = {
            "success": False,
            "code": "RESET_COOLDOWN",
            "message": "Not yet",
            "next_reset_at": "2026-06-08T12:00:00.000Z",
        }
        self.assertEqual(
            client.refusal_text(cooldown), "Not yet (next release possible at 2026-06-08 12:00)"
        )
        released = {
            "success": True,
            "code": "OK",
            "message": "Device released",
            "released": 1,
            "next_reset_at": "2026-06-08T12:00:00.000Z",
        }
        self.assertEqual(
            client.released_text(released),
            "Device released. You can release a device again from 2026-06-08 12:00.",
        )
        no_cooldown = {"code": "OK", "message": "Device released", "next_reset_at": None}
        self.assertEqual(client.released_text(no_cooldown), "Device released")
        not_allowed = {
            "code": "RESET_NOT_ALLOWED",
            "message": "Ask the vendor",
            "next_reset_at": None,
        }
        self.assertEqual(client.refusal_text(not_allowed), "Ask the vendor")

    def test_names_the_device_within_the_servers_limit(self):
        original = client.socket.gethostname
        try:
            client.socket.gethostname = lambda: "  build-pc  "
            self.assertEqual(client.device_name(), "build-pc")
            client.socket.gethostname = lambda: "x" * 200
            self.assertEqual(client.device_name(), "x" * 128)
            # 128 code points of which one is outside the BMP: 129 UTF-16 units, one too many.
            client.socket.gethostname = lambda: "\U0001F5A5" + "y" * 127
            self.assertEqual(client.device_name(), "\U0001F5A5" + "y" * 126)
            client.socket.gethostname = lambda: " "
            self.assertIsNone(client.device_name())
        finally:
            client.socket.gethostname = original


class OfflineRefusalTest(unittest.TestCase):
    """What the user reads for each of the SDK's offline licence refusals."""

    CONTENT = {"username": "alice", "valid_until": "2026-06-08T12:00:00.000Z"}

    def test_names_each_refusal(self):
        message = client.offline_refusal_message
        self.assertEqual(
            message("OTHER_MACHINE", self.CONTENT),
            "This offline licence belongs to another machine.",
        )
        self.assertEqual(
            message("CLOCK_MOVED_BACK", self.CONTENT),
            "The system clock moved backwards since the last run.",
        )
        for code in ("MALFORMED", "BAD_SIGNATURE", "OTHER_APPLICATION"):
            self.assertEqual(
                message(code, None), "This offline licence is not signed by this application."
            )
        with local_zone("Asia/Kolkata"):
            self.assertEqual(
                message("EXPIRED", self.CONTENT),
                "This offline licence expired on 2026-06-08 17:30.",
            )

    def test_checks_out_a_week_and_allows_five_minutes_of_clock(self):
        self.assertEqual(client.OFFLINE_LICENSE_TTL_SECONDS, 604800)
        self.assertEqual(client.CLOCK_TOLERANCE_SECONDS, 300)


if __name__ == "__main__":
    unittest.main()
