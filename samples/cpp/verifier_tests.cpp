// Checks of the C++ sample's response verifier against the worked example of
// docs/client-api.md (RFC 8032 test 1 key). Prints one "<case>: accepted|refused" line per
// case; samples/test/cpp-verifier.test.ts compiles this file, runs it and holds the
// expected verdicts.
//   g++ -std=c++17 -Wall -Wextra -Werror verifier_tests.cpp -o verifier_tests $(pkg-config --cflags --libs libcurl libsodium)
#define LATCHKEY_NO_MAIN
#include "latchkey_client.cpp"

#include <iostream>
#include <string>

namespace {

const std::string PUBLIC_KEY = "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a";
// RFC 8032 test 2's public key: a real key, just not the one that signed.
const std::string OTHER_PUBLIC_KEY =
    "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c";
const std::string TIMESTAMP = "1775044800";
const std::time_t SIGNED_AT = 1775044800;
const std::string NONCE = "c2f1b6a0-7e44-4f7e-9d1b-0b8f6f7f9e11";
const std::string BODY = R"({"success":true,"message":"User verified","code":"OK"})";
const std::string SIGNATURE =
    "cfccec4a7f60fa37eee036f851e1e9ee875e33ba0eedfcd95150cbc94d9abb44"
    "cf97529416254ca29e28c50d7b344b52fe770894ddbd5c02a0fa6a102f096201";

void report(const char* name, bool is_genuine) {
  std::cout << name << ": " << (is_genuine ? "accepted" : "refused") << std::endl;
}

// docs/client-api.md, "Worked licence example": application 42, HWID DESKTOP-7F3K, issued
// 2026-06-01T12:00:00Z, valid until 2026-06-08T12:00:00Z.
const std::string LICENSE =
    "LK1.eyJhcHBsaWNhdGlvbl9pZCI6NDIsInVzZXJfaWQiOiIwYjBmN2MxZS01ZDJhLTRjMWUtOWYzYi02YTdkOGU5ZjBhMWIi"
    "LCJ1c2VybmFtZSI6ImFsaWNlIiwiaHdpZCI6IkRFU0tUT1AtN0YzSyIsImVudGl0bGVtZW50cyI6WyJFWFBPUlRfUERGIiwi"
    "UFJPIl0sInN1YnNjcmlwdGlvbnMiOlt7InBsYW4iOiJQcm8iLCJleHBpcmVzX2F0IjoiMjAyNi0wNy0wMVQxMjowMDowMC4w"
    "MDBaIn1dLCJhY2NvdW50X2V4cGlyZXNfYXQiOm51bGwsImlzc3VlZF9hdCI6IjIwMjYtMDYtMDFUMTI6MDA6MDAuMDAwWiIs"
    "InZhbGlkX3VudGlsIjoiMjAyNi0wNi0wOFQxMjowMDowMC4wMDBaIiwiaWQiOiI1ZTFjMmI3YS05ZDRmLTRlOGEtYjNjNi0x"
    "ZjJlM2Q0YzViNmEifQ.gXxZitkGitki-qpbCaGJIDK4PJIMwOzX2X01FKhihO_kDHH4ec5U0X_Iq4ApRnWZb7muw2vpL9IIid7"
    "Opw4TCg";
const std::string LICENSE_HWID = "DESKTOP-7F3K";
const std::time_t ISSUED_AT = 1780315200;    // 2026-06-01T12:00:00Z
const std::time_t VALID_UNTIL = 1780920000;  // 2026-06-08T12:00:00Z

const char* verdict_name(latchkey::OfflineVerdict verdict) {
  switch (verdict) {
    case latchkey::OfflineVerdict::Accepted: return "accepted";
    case latchkey::OfflineVerdict::NotSigned: return "not signed";
    case latchkey::OfflineVerdict::OtherMachine: return "other machine";
    case latchkey::OfflineVerdict::Expired: return "expired";
    case latchkey::OfflineVerdict::ClockMovedBack: return "clock moved back";
  }
  return "?";
}

latchkey::OfflineLicense check(const std::string& license, std::time_t now,
                               long long last_seen = 0,
                               const std::string& hwid = LICENSE_HWID,
                               const std::string& public_key = PUBLIC_KEY,
                               std::optional<long long> application_id = 42) {
  return latchkey::check_offline_license(license, public_key, hwid, now, last_seen,
                                         application_id);
}

void report_offline(const std::string& name, const latchkey::OfflineLicense& checked) {
  std::cout << "licence: " << name << ": " << verdict_name(checked.verdict) << std::endl;
}

// The licence with one character of its payload segment changed (the signature kept).
std::string edited(std::string license, size_t position) {
  license[position] = license[position] == 'A' ? 'B' : 'A';
  return license;
}

}  // namespace

int main() {
  using latchkey::is_genuine_response;
  report("valid", is_genuine_response(PUBLIC_KEY, TIMESTAMP, NONCE, BODY, SIGNATURE, SIGNED_AT));
  report("valid at the clock skew limit",
         is_genuine_response(PUBLIC_KEY, TIMESTAMP, NONCE, BODY, SIGNATURE,
                             SIGNED_AT + MAX_CLOCK_SKEW_SECONDS));
  report("tampered body",
         is_genuine_response(PUBLIC_KEY, TIMESTAMP, NONCE,
                             R"({"success":true,"message":"user verified","code":"OK"})",
                             SIGNATURE, SIGNED_AT));
  report("wrong nonce", is_genuine_response(PUBLIC_KEY, TIMESTAMP,
                                            "c2f1b6a0-7e44-4f7e-9d1b-0b8f6f7f9e12", BODY,
                                            SIGNATURE, SIGNED_AT));
  report("empty nonce",
         is_genuine_response(PUBLIC_KEY, TIMESTAMP, "", BODY, SIGNATURE, SIGNED_AT));
  report("stale timestamp", is_genuine_response(PUBLIC_KEY, TIMESTAMP, NONCE, BODY, SIGNATURE,
                                                SIGNED_AT + MAX_CLOCK_SKEW_SECONDS + 1));
  report("timestamp from the future",
         is_genuine_response(PUBLIC_KEY, TIMESTAMP, NONCE, BODY, SIGNATURE,
                             SIGNED_AT - MAX_CLOCK_SKEW_SECONDS - 1));
  report("changed timestamp header", is_genuine_response(PUBLIC_KEY, "1775044801", NONCE, BODY,
                                                         SIGNATURE, SIGNED_AT));
  report("wrong key",
         is_genuine_response(OTHER_PUBLIC_KEY, TIMESTAMP, NONCE, BODY, SIGNATURE, SIGNED_AT));
  report("missing signature",
         is_genuine_response(PUBLIC_KEY, TIMESTAMP, NONCE, BODY, "", SIGNED_AT));
  report("truncated signature", is_genuine_response(PUBLIC_KEY, TIMESTAMP, NONCE, BODY,
                                                    SIGNATURE.substr(0, 126), SIGNED_AT));
  report("missing timestamp",
         is_genuine_response(PUBLIC_KEY, "", NONCE, BODY, SIGNATURE, SIGNED_AT));
  report("unconfigured key placeholder",
         is_genuine_response("YOUR_SIGNING_PUBLIC_KEY", TIMESTAMP, NONCE, BODY, SIGNATURE,
                             SIGNED_AT));

  const std::time_t during = ISSUED_AT + 3600;
  const latchkey::OfflineLicense valid = check(LICENSE, during);
  report_offline("the documented licence", valid);
  std::cout << "licence: its username: " << valid.username << std::endl;
  std::cout << "licence: its entitlements: " << latchkey::join(valid.licensing.entitlements, ", ")
            << std::endl;
  report_offline("the documented licence, application not checked",
                 check(LICENSE, during, 0, LICENSE_HWID, PUBLIC_KEY, std::nullopt));
  report_offline("at its valid_until", check(LICENSE, VALID_UNTIL));
  report_offline("a second after its valid_until", check(LICENSE, VALID_UNTIL + 1));
  report_offline("another hwid", check(LICENSE, during, 0, "DESKTOP-7F3L"));
  report_offline("an empty hwid", check(LICENSE, during, 0, ""));
  report_offline("another application", check(LICENSE, during, 0, LICENSE_HWID, PUBLIC_KEY, 43));
  report_offline("another key", check(LICENSE, during, 0, LICENSE_HWID, OTHER_PUBLIC_KEY));
  report_offline("an edited payload", check(edited(LICENSE, 10), during));
  report_offline("an edited signature", check(edited(LICENSE, LICENSE.size() - 5), during));
  report_offline("the LK1E prefix", check("LK1E" + LICENSE.substr(3), during));
  report_offline("two segments", check(LICENSE.substr(0, LICENSE.rfind('.')), during));
  report_offline("four segments", check(LICENSE + ".x", during));
  report_offline("padded base64", check(LICENSE + "==", during));
  // Re-encodings of the worked licence, some of which a lenient decoder reads as its very
  // bytes (the signature covers the payload's text, not the signature's): each is refused.
  const size_t dot = LICENSE.rfind('.');
  const std::string head = LICENSE.substr(0, dot);  // "LK1.<payload>"
  const std::string signature = LICENSE.substr(dot + 1);
  std::string last_bits_changed = signature;
  last_bits_changed.back() = last_bits_changed.back() == 'g' ? 'h' : 'g';
  std::string plus_for_minus = signature;
  plus_for_minus[plus_for_minus.find('-')] = '+';
  std::string payload_with_space = head;
  payload_with_space.insert(24, " ");
  report_offline("a trailing newline", check(LICENSE + "\n", during));
  report_offline("the payload padded", check(head + "==." + signature, during));
  report_offline("the signature padded", check(head + "." + signature + "==", during));
  report_offline("a space inside the payload", check(payload_with_space + "." + signature, during));
  report_offline("a space inside the signature",
                 check(head + "." + signature.substr(0, 20) + " " + signature.substr(20), during));
  report_offline("a + for the - of the signature", check(head + "." + plus_for_minus, during));
  report_offline("the last signature character changed in its unused bits",
                 check(head + "." + last_bits_changed, during));
  report_offline("last seen within the clock tolerance",
                 check(LICENSE, during, during + CLOCK_TOLERANCE_SECONDS));
  report_offline("last seen beyond the clock tolerance",
                 check(LICENSE, during, during + CLOCK_TOLERANCE_SECONDS + 1));
  report_offline("a clock set before its issue", check(LICENSE, ISSUED_AT - 86400));
  const latchkey::OfflineLicense expired = check(LICENSE, VALID_UNTIL + 1);
  std::cout << "licence text: expired: " << latchkey::offline_refusal_text(expired) << std::endl;
  std::cout << "licence text: other machine: "
            << latchkey::offline_refusal_text(check(LICENSE, during, 0, "other")) << std::endl;
  std::cout << "licence text: clock moved back: "
            << latchkey::offline_refusal_text(check(LICENSE, during, during + 86400)) << std::endl;
  std::cout << "licence text: not signed: "
            << latchkey::offline_refusal_text(check(edited(LICENSE, 10), during)) << std::endl;
  return 0;
}
