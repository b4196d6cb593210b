#ifndef LATCHKEY_RESULT_HPP
#define LATCHKEY_RESULT_HPP

// What the client API answers, as values: the closed list of codes and the result.

#include <latchkey/latchkey_export.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace latchkey {

// The closed list of codes an answer carries, in the server's order. success() is true
// exactly when the code is OK.
enum class ResultCode {
  OK,
  INVALID_CREDENTIALS,
  ACCOUNT_DISABLED,
  ACCOUNT_EXPIRED,
  VERSION_MISMATCH,
  HWID_MISMATCH,
  BLACKLISTED,
  USERNAME_TAKEN,
  APP_DISABLED,
  USER_NOT_FOUND,
  SESSION_INVALID,
  LICENSE_REQUIRED,
  LICENSE_INVALID,
  LICENSE_USED,
  LICENSE_BANNED,
  LICENSE_EXPIRED,
  NO_ACTIVE_SUBSCRIPTION,
  ENTITLEMENTS_MISSING,
  RESET_NOT_ALLOWED,
  RESET_COOLDOWN,
  DEVICE_NOT_FOUND,
  HWID_REQUIRED,
  VARIABLE_NOT_FOUND,
  VARIABLE_READ_ONLY,
  VARIABLE_LIMIT_REACHED,
  FILE_NOT_FOUND,
  METER_NOT_FOUND,
  METER_EXHAUSTED,
  UPDATES_EXPIRED,
  NO_SEAT_AVAILABLE,
  BORROW_NOT_ALLOWED,
  TRIAL_UNAVAILABLE,
  TRIAL_EXPIRED,
  TRIAL_USED,
  MAIL_UNAVAILABLE,
  EMAIL_NOT_VERIFIED,
  INVALID_REQUEST,
  INVALID_API_KEY,
  RATE_LIMITED,
};

// The code as the wire spells it ("OK", "HWID_MISMATCH").
LATCHKEY_EXPORT const char* to_string(ResultCode code) noexcept;
// The code of a wire text; nullopt for a code newer than this library.
LATCHKEY_EXPORT std::optional<ResultCode> result_code_of(const std::string& text) noexcept;
// Every code, in the order above, as text.
LATCHKEY_EXPORT std::vector<std::string> result_codes();

namespace detail {
struct ResultFields;
}

// Where one usage meter of the user stands in its current period: a plan's allowance of
// something (exports, API credits) per day, week, month, year or for good.
struct Meter {
  std::string name;
  long long allowance = 0;  // units allowed each period
  long long used = 0;
  long long remaining = 0;  // allowance - used, never below 0
  long long overage = 0;    // units used beyond the allowance (a meter that counts overage)
  // When the period ends and used starts again at 0 (ISO 8601, as the server wrote it);
  // nullopt for a meter that never resets.
  std::optional<std::string> resets_at;
};

// A call's outcome: success(), code() and message(), plus the answer's own fields exactly as
// the wire names them (user_id, session_token, entitlements...), read with text(), integer(),
// boolean(), texts(), meters() or, for any shape, field_json(). A RATE_LIMITED answer adds
// retry_after_seconds when the server said when to try again; a download adds path, where the
// checked file now is; a login refused with NO_SEAT_AVAILABLE has next_free_at, when the first
// seat leased to the user's other computers lapses. A Result is an immutable value: copies are
// cheap and share the fields.
class LATCHKEY_EXPORT Result {
 public:
  // An answer read back from to_json() (a stored login, say, for check_for_update); throws
  // std::invalid_argument when the text is not a JSON object with a string "code".
  static Result from_json(const std::string& json_text);

  bool success() const;
  // The code; nullopt for a code newer than this library (code_text() still has it). Compare
  // it directly: result.code() == latchkey::ResultCode::HWID_MISMATCH.
  std::optional<ResultCode> code() const;
  const std::string& code_text() const;
  const std::string& message() const;
  std::optional<int> retry_after_seconds() const;

  // Whether the answer has the field, and it is not null.
  bool has(const std::string& field) const;
  // The field's value when it is of that type (nullopt when absent, null or of another type).
  std::optional<std::string> text(const std::string& field) const;
  std::optional<long long> integer(const std::string& field) const;
  std::optional<bool> boolean(const std::string& field) const;
  // The strings of an array field (entitlements, missing_entitlements); empty when there is none.
  std::vector<std::string> texts(const std::string& field) const;
  // The field as JSON text, whatever its shape ("null" when absent).
  std::string field_json(const std::string& field) const;
  // The meters field (login, registration, redemption, verify): where the user's usage meters
  // stand, by name; empty for a user without any, and for an answer without the user's
  // licensing.
  std::vector<Meter> meters() const;
  // Every field as one JSON object.
  std::string to_json() const;

  // The library's own: a program gets results from calls, or from from_json.
  explicit Result(std::shared_ptr<const detail::ResultFields> fields);
  const detail::ResultFields& fields() const { return *fields_; }

 private:
  std::shared_ptr<const detail::ResultFields> fields_;
};

// The release a login refused with VERSION_MISMATCH or UPDATES_EXPIRED offers: the one this
// user should run, the current release or, past their updates window, the newest published
// within it. Pass file_id and sha256 to Client::download.
struct UpdateOffer {
  std::string version;
  std::string file_id;
  unsigned long long size = 0;
  std::string sha256;
};

}  // namespace latchkey

#endif
