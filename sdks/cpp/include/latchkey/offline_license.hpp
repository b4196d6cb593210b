#ifndef LATCHKEY_OFFLINE_LICENSE_HPP
#define LATCHKEY_OFFLINE_LICENSE_HPP

// Offline licences (LK1. and LK1E.), verified without the network.

#include <latchkey/latchkey_export.h>
#include <latchkey/result.hpp>

#include <chrono>
#include <optional>
#include <string>
#include <vector>

namespace latchkey {

// Why an offline licence holds or not, in the order of the other SDKs:
// MALFORMED: not LK1.<payload>.<signature> / LK1E.… in canonical base64url;
// BAD_SIGNATURE: not signed by this application's key (edited, made up, another
// application's); OTHER_APPLICATION: signed, but naming another application than the one
// asked for; OTHER_MACHINE: issued to another HWID (an encrypted one does not even decrypt
// here); EXPIRED: now is at or past valid_until; CLOCK_MOVED_BACK: this machine's clock is
// before the licence's issue or the latest time the program has seen, beyond the tolerance:
// set back to stretch the licence.
enum class OfflineLicenseCode {
  OK,
  MALFORMED,
  BAD_SIGNATURE,
  OTHER_APPLICATION,
  OTHER_MACHINE,
  EXPIRED,
  CLOCK_MOVED_BACK,
};

LATCHKEY_EXPORT const char* to_string(OfflineLicenseCode code) noexcept;
LATCHKEY_EXPORT std::vector<std::string> offline_license_codes();

using TimePoint = std::chrono::system_clock::time_point;

// An ISO 8601 time as the server writes them ("2026-06-08T12:00:00.000Z"; a numeric offset
// such as +02:00 is read too), to the millisecond; nullopt when the text is not one.
LATCHKEY_EXPORT std::optional<TimePoint> parse_utc_time(const std::string& text);

// A licence's content, the payload's JSON (snake_case like the client API), once its
// signature holds.
struct OfflineLicenseContent {
  std::optional<long long> application_id;
  std::string user_id;
  std::string username;
  std::optional<std::string> hwid;  // the machine it was issued to; nullopt: none named
  std::vector<std::string> entitlements;
  // The end of the holder's updates window (ISO 8601, as signed), as login answers it; nullopt
  // for every release, and for a licence issued before the field existed.
  std::optional<std::string> updates_until;
  // The usage meters as they stood when the licence was issued (a snapshot: use offline is not
  // counted); empty for a user without any, and for a licence issued before meters existed.
  std::vector<Meter> meters;
  std::string issued_at;    // ISO 8601, as signed
  std::string valid_until;  // ISO 8601, as signed
  std::string id;
  // The whole payload, the JSON exactly as signed (subscriptions and account_expires_at
  // included; updates_until and meters only when the licence names them).
  std::string json;
};

struct OfflineLicenseCheck {
  bool success = false;
  OfflineLicenseCode code = OfflineLicenseCode::MALFORMED;
  std::string message;
  // Present once the signature holds (also when its terms refuse it).
  std::optional<OfflineLicenseContent> content;
};

// The verdict as one JSON object: success, code, message and content (when there is one: the
// signed payload, with updates_until null and meters empty when the licence does not name
// them).
LATCHKEY_EXPORT std::string to_json(const OfflineLicenseCheck& check);

// The terms a licence is checked against, beside the key and the HWID.
struct OfflineLicenseTerms {
  // When the program knows its application's id, the licence must name it.
  std::optional<long long> application_id;
  // This machine's clock (now by default).
  std::optional<TimePoint> now;
  // The latest time the program has seen, kept between runs: a clock before it is set back.
  std::optional<TimePoint> last_seen_at;
  std::chrono::seconds clock_tolerance{300};
};

// Checks an offline licence from checkout without the network: its Ed25519 signature under
// the pinned key (over the domain and the payload segment as it stands), for LK1E its
// AES-256-GCM decryption with the key derived from this machine's HWID, then its terms
// (application, machine, validity, a clock set back). Never throws for a licence, whatever it
// holds; throws std::invalid_argument when public_key_hex is not 64 hex digits.
LATCHKEY_EXPORT OfflineLicenseCheck verify_offline_license(const std::string& license,
                                                           const std::string& public_key_hex,
                                                           const std::string& hwid,
                                                           const OfflineLicenseTerms& terms = {});

}  // namespace latchkey

#endif
