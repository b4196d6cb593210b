"""Unit tests of the sample's response verifier, on the worked example of docs/client-api.md
(RFC 8032 test 1 key). Run: /usr/bin/python3 -m unittest test_latchkey_client (from this folder),
or with LATCHKEY_CLIENT_PATH naming a rendered copy of the sample to test that one."""

import base64
import contextlib
import importlib.util
import json
import os
import time
import unittest
from pathlib import Path

SAMPLE_PATH = Path(os.environ.get("LATCHKEY_CLIENT_PATH", Path(__file__).with_name("latchkey_client.py")))
_spec = importlib.util.spec_from_file_location("latchkey_client_under_test", SAMPLE_PATH)
client = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(client)  # import-safe: no window opens

PUBLIC_KEY = "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a"
TIMESTAMP = "1775044800"
NONCE = "c2f1b6a0-7e44-4f7e-9d1b-0b8f6f7f9e11"
BODY = b'{"success":true,"message":"User verified","code":"OK"}'
SIGNATURE = (
    "cfccec4a7f60fa37eee036f851e1e9ee875e33ba0eedfcd95150cbc94d9abb44"
    "cf97529416254ca29e28c50d7b344b52fe770894ddbd5c02a0fa6a102f096201"
)
# The clock of the worked example: the answer was signed "now".
NOW = int(TIMESTAMP)


class VerifySignatureTest(unittest.TestCase):
    def verify(self, **changes):
        arguments = {
            "public_key_hex": PUBLIC_KEY,
            "timestamp": TIMESTAMP,
            "nonce": NONCE,
            "body": BODY,
            "signature_hex": SIGNATURE,
            "now": NOW,
        }
        arguments.update(changes)
        return client.verify_signature(**arguments)

    def test_accepts_the_worked_example(self):
        self.assertIs(self.verify(), True)

    def test_accepts_a_clock_within_the_allowed_skew(self):
        self.assertIs(self.verify(now=NOW + client.MAX_CLOCK_SKEW_SECONDS), True)
        self.assertIs(self.verify(now=NOW - client.MAX_CLOCK_SKEW_SECONDS), True)

    def test_refuses_a_tampered_body(self):
        self.assertIs(self.verify(body=BODY.replace(b"User verified", b"user verified")), False)
        self.assertIs(self.verify(body=BODY + b" "), False)

    def test_refuses_a_wrong_nonce(self):
        self.assertIs(self.verify(nonce="c2f1b6a0-7e44-4f7e-9d1b-0b8f6f7f9e12"), False)
        self.assertIs(self.verify(nonce=""), False)

    def test_refuses_a_stale_or_future_timestamp(self):
        self.assertIs(self.verify(now=NOW + client.MAX_CLOCK_SKEW_SECONDS + 1), False)
        self.assertIs(self.verify(now=NOW - client.MAX_CLOCK_SKEW_SECONDS - 1), False)

    def test_refuses_a_changed_timestamp_even_within_the_skew(self):
        self.assertIs(self.verify(timestamp=str(NOW + 1), now=NOW), False)

    def test_refuses_a_wrong_key(self):
        # RFC 8032 test 2's public key: a real key, but not the one that signed.
        other_key = "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c"
        self.assertIs(self.verify(public_key_hex=other_key), False)

    def test_refuses_missing_or_malformed_headers(self):
        self.assertIs(self.verify(signature_hex=None), False)
        self.assertIs(self.verify(signature_hex=""), False)
        self.assertIs(self.verify(signature_hex=SIGNATURE[:-2]), False)
        self.assertIs(self.verify(signature_hex="zz" + SIGNATURE[2:]), False)
        self.assertIs(self.verify(timestamp=None), False)
        self.assertIs(self.verify(timestamp="1775044800.5"), False)
        self.assertIs(self.verify(public_key_hex="not hex"), False)
        self.assertIs(self.verify(public_key_hex=PUBLIC_KEY[:-2]), False)


class LicensingTest(unittest.TestCase):
    def test_titles_every_licence_code_and_falls_back_to_the_action(self):
        title = client.refusal_title
        self.assertEqual(title("LICENSE_USED", "Redeem Failed"), ("Licence Key Used", False))
        self.assertEqual(title("LICENSE_EXPIRED", "x"), ("Licence Key Lapsed", False))
        self.assertEqual(title("NO_ACTIVE_SUBSCRIPTION", "x")[0], "Subscription Required")
        self.assertEqual(title("ENTITLEMENTS_MISSING", "x")[0], "Feature Not Included")
        self.assertEqual(title("BLACKLISTED", "x"), ("Access Blocked", True))
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
            }
        )
        self.assertEqual(client.format_entitlements(licensing["entitlements"]), "EXPORT_PDF, PRO")
        self.assertEqual(
            client.format_subscriptions(licensing["subscriptions"]),
            "Pro until 2026-07-01T12:00:00.000Z, Team (lifetime)",
        )
        empty = client.licensing_of(
            {"entitlements": "PRO", "subscriptions": [{"expires_at": None}]}
        )
        self.assertEqual(empty, {"entitlements": [], "subscriptions": []})
        self.assertEqual(client.format_subscriptions([]), "None")

    def test_names_what_is_missing(self):
        answer = client.ApiResponse(
            200,
            {
                "code": "ENTITLEMENTS_MISSING",
                "message": "Not included",
                "missing_entitlements": ["TEAM"],
            },
            None,
        )
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
        cooldown = client.ApiResponse(
            200,
            {
                "success": False,
                "code": "RESET_COOLDOWN",
                "message": "Not yet",
                "next_reset_at": "2026-06-08T12:00:00.000Z",
            },
            None,
        )
        self.assertEqual(
            client.refusal_text(cooldown), "Not yet (next release possible at 2026-06-08 12:00)"
        )
        released = client.ApiResponse(
            200,
            {
                "success": True,
                "code": "OK",
                "message": "Device released",
                "released": 1,
                "next_reset_at": "2026-06-08T12:00:00.000Z",
            },
            None,
        )
        self.assertEqual(
            client.released_text(released),
            "Device released. You can release a device again from 2026-06-08 12:00.",
        )
        no_cooldown = client.ApiResponse(
            200, {"code": "OK", "message": "Device released", "next_reset_at": None}, None
        )
        self.assertEqual(client.released_text(no_cooldown), "Device released")
        not_allowed = client.ApiResponse(
            200,
            {"code": "RESET_NOT_ALLOWED", "message": "Ask the vendor", "next_reset_at": None},
            None,
        )
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


# The worked licence of docs/client-api.md, signed with the same RFC 8032 test 1 key.
WORKED_LICENSE = (
    "LK1.eyJhcHBsaWNhdGlvbl9pZCI6NDIsInVzZXJfaWQiOiIwYjBmN2MxZS01ZDJhLTRjMWUtOWYzYi02YTdkOGU5ZjBhMWIiLCJ1c2VybmFtZSI6ImFsaWNlIiwiaHdpZCI6IkRFU0tUT1AtN0YzSyIsImVudGl0bGVtZW50cyI6WyJFWFBPUlRfUERGIiwiUFJPIl0sInN1YnNjcmlwdGlvbnMiOlt7InBsYW4iOiJQcm8iLCJleHBpcmVzX2F0IjoiMjAyNi0wNy0wMVQxMjowMDowMC4wMDBaIn1dLCJhY2NvdW50X2V4cGlyZXNfYXQiOm51bGwsImlzc3VlZF9hdCI6IjIwMjYtMDYtMDFUMTI6MDA6MDAuMDAwWiIsInZhbGlkX3VudGlsIjoiMjAyNi0wNi0wOFQxMjowMDowMC4wMDBaIiwiaWQiOiI1ZTFjMmI3YS05ZDRmLTRlOGEtYjNjNi0xZjJlM2Q0YzViNmEifQ"
    ".gXxZitkGitki-qpbCaGJIDK4PJIMwOzX2X01FKhihO_kDHH4ec5U0X_Iq4ApRnWZb7muw2vpL9IIid7Opw4TCg"
)
ISSUED_AT = 1780315200  # 2026-06-01T12:00:00Z
VALID_UNTIL = 1780920000  # 2026-06-08T12:00:00Z
SEED = "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60"


def sign_license(content):
    """A licence of other content, signed as the server would with the documented test key."""
    from nacl.signing import SigningKey

    payload = base64.urlsafe_b64encode(json.dumps(content).encode()).rstrip(b"=").decode()
    signed = SigningKey(bytes.fromhex(SEED)).sign(f"latchkey-license-v1.{payload}".encode())
    signature = base64.urlsafe_b64encode(signed.signature).rstrip(b"=").decode()
    return f"LK1.{payload}.{signature}"


class OfflineLicenseTest(unittest.TestCase):
    def refusal(self, license=WORKED_LICENSE, **changes):
        arguments = {
            "public_key_hex": PUBLIC_KEY,
            "application_id": 42,
            "hwid": "DESKTOP-7F3K",
            "now": ISSUED_AT + 3600,
            "last_seen": ISSUED_AT + 60,
        }
        arguments.update(changes)
        refusal, _content = client.verify_offline_license(license, **arguments)
        return refusal or "accepted"

    def content(self):
        return client.license_content_of(WORKED_LICENSE)

    def test_accepts_the_worked_licence(self):
        refusal, content = client.verify_offline_license(
            WORKED_LICENSE, PUBLIC_KEY, 42, "DESKTOP-7F3K", now=ISSUED_AT + 3600
        )
        self.assertIsNone(refusal)
        self.assertEqual(content["username"], "alice")
        self.assertEqual(content["entitlements"], ["EXPORT_PDF", "PRO"])
        self.assertEqual(client.CLOCK_TOLERANCE_SECONDS, 300)
        self.assertEqual(client.OFFLINE_LICENSE_TTL_SECONDS, 604800)

    def test_refuses_a_licence_not_signed_by_this_application(self):
        prefix, payload, signature = WORKED_LICENSE.split(".")
        edited = client.base64url_decode(payload).replace(b'"alice"', b'"mallory"')
        edited_payload = base64.urlsafe_b64encode(edited).rstrip(b"=").decode()
        self.assertEqual(self.refusal(f"{prefix}.{edited_payload}.{signature}"), "not-signed")
        other_key = "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c"
        self.assertEqual(self.refusal(public_key_hex=other_key), "not-signed")
        self.assertEqual(self.refusal(application_id=43), "not-signed")
        self.assertEqual(self.refusal(application_id=None), "not-signed")
        # The domain is part of what is signed: the same bytes under LK1E are not this licence.
        self.assertEqual(self.refusal(f"LK1E.{payload}.{signature}"), "not-signed")
        self.assertEqual(self.refusal(f"{prefix}.{payload}"), "not-signed")
        self.assertEqual(self.refusal(WORKED_LICENSE + ".extra"), "not-signed")
        self.assertEqual(self.refusal(f"{prefix}.{payload}.{signature[:-2]}"), "not-signed")
        self.assertEqual(self.refusal(None), "not-signed")
        self.assertEqual(self.refusal(public_key_hex="YOUR_SIGNING_PUBLIC_KEY"), "not-signed")
        self.assertEqual(
            client.offline_refusal_message("not-signed", None),
            "This offline licence is not signed by this application.",
        )

    def test_refuses_every_re_encoding_of_the_worked_licence(self):
        prefix, payload, signature = WORKED_LICENSE.split(".")
        last_bits_changed = signature[:-1] + ("h" if signature.endswith("g") else "g")
        # A lenient decoder reads this as the very signature: only the text differs.
        self.assertEqual(
            base64.urlsafe_b64decode(last_bits_changed + "=="),
            base64.urlsafe_b64decode(signature + "=="),
        )
        mutations = {
            "a trailing newline": WORKED_LICENSE + "\n",
            "the payload padded": f"{prefix}.{payload}==.{signature}",
            "the signature padded": f"{prefix}.{payload}.{signature}==",
            "a space inside the payload": f"{prefix}.{payload[:20]} {payload[20:]}.{signature}",
            "a space inside the signature": f"{prefix}.{payload}.{signature[:20]} {signature[20:]}",
            'a "+" for the "-" of the signature': (
                f"{prefix}.{payload}.{signature.replace('-', '+', 1)}"
            ),
            "the last signature character changed in its unused bits": (
                f"{prefix}.{payload}.{last_bits_changed}"
            ),
        }
        accepted = [
            name for name, license in mutations.items() if self.refusal(license) != "not-signed"
        ]
        self.assertEqual(accepted, [])
        # A signature's length (86) happens to make the decoder refuse a trailing newline; a
        # segment of another length shows what `$` and the standard decoder would let through.
        for lenient in ("AAAA\n", "AAA=", "AA A", "AA+", "AAB"):
            with self.assertRaises(ValueError):
                client.base64url_decode(lenient)
        self.assertEqual(client.base64url_decode("AAA"), b"\0\0")

    def test_refuses_another_machines_licence(self):
        self.assertEqual(self.refusal(hwid="LAPTOP-9Q2Z"), "another-machine")
        unbound = sign_license({**self.content(), "hwid": None})
        self.assertEqual(self.refusal(unbound), "another-machine")
        # Signed by the documented key, so the test's own signing stands for the server's.
        self.assertEqual(self.refusal(sign_license(self.content())), "accepted")
        self.assertEqual(
            client.offline_refusal_message("another-machine", self.content()),
            "This offline licence belongs to another machine.",
        )

    def test_refuses_a_licence_past_valid_until(self):
        self.assertEqual(self.refusal(now=VALID_UNTIL), "accepted")
        self.assertEqual(self.refusal(now=VALID_UNTIL + 1), "expired")
        with local_zone("Asia/Kolkata"):
            self.assertEqual(
                client.offline_refusal_message("expired", self.content()),
                "This offline licence expired on 2026-06-08 17:30.",
            )

    def test_refuses_a_clock_moved_backwards(self):
        tolerance = client.CLOCK_TOLERANCE_SECONDS
        now = ISSUED_AT + 86400
        self.assertEqual(self.refusal(now=now, last_seen=now + tolerance), "accepted")
        self.assertEqual(self.refusal(now=now, last_seen=now + tolerance + 1), "clock")
        self.assertEqual(self.refusal(now=ISSUED_AT - tolerance - 1, last_seen=0), "clock")
        self.assertEqual(
            client.offline_refusal_message("clock", self.content()),
            "The system clock moved backwards since the last run.",
        )


if __name__ == "__main__":
    unittest.main()
