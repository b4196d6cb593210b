#ifndef LATCHKEY_ERRORS_HPP
#define LATCHKEY_ERRORS_HPP

// The two ways a call fails without an outcome: an answer not to be believed, and no answer.
// Business outcomes (a wrong password, an expired account) are never exceptions: they are
// results with a code.

#include <latchkey/latchkey_export.h>

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace latchkey {

// Why an answer was refused before anything read it.
enum class SignatureErrorReason {
  Unsigned,   // "unsigned": the signature headers are missing or malformed
  Signature,  // "signature": the signature does not hold for the pinned key, this request's
              // nonce and the bytes received (a changed body, another key, a replayed answer)
  Nonce,      // "nonce": signed for a request without a nonce: this request's never arrived
  Stale,      // "stale": genuinely signed, but too far from this machine's clock
  Digest,     // "digest": downloaded bytes whose size or SHA-256 is not the signed one
};

// Why no usable answer came.
enum class TransportErrorReason {
  Unreachable,  // "unreachable": no HTTP answer at all (refused, DNS, reset, proxy refused)
  Timeout,      // "timeout": none within the timeout
  ServerError,  // "server-error": a 5xx, a server fault rather than an answer
  Malformed,    // "malformed": not the client API's JSON, or too large
};

// The reason as the conformance suite and the other SDKs spell it ("unsigned", "server-error").
LATCHKEY_EXPORT const char* to_string(SignatureErrorReason reason) noexcept;
LATCHKEY_EXPORT const char* to_string(TransportErrorReason reason) noexcept;

// Every reason, in the order above, as text.
LATCHKEY_EXPORT std::vector<std::string> signature_error_reasons();
LATCHKEY_EXPORT std::vector<std::string> transport_error_reasons();

// The base of the library's own errors.
class LATCHKEY_EXPORT Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// An answer (or a download) that did not prove it comes from the application: never trusted.
class LATCHKEY_EXPORT SignatureError : public Error {
 public:
  SignatureError(SignatureErrorReason reason, const std::string& message);
  SignatureErrorReason reason() const noexcept { return reason_; }

 private:
  SignatureErrorReason reason_;
};

// The network or the server failed: the outcome is unknown, not a refusal.
class LATCHKEY_EXPORT TransportError : public Error {
 public:
  TransportError(TransportErrorReason reason, const std::string& message,
                 std::optional<long> status = std::nullopt,
                 std::optional<int> retry_after_seconds = std::nullopt);
  TransportErrorReason reason() const noexcept { return reason_; }
  // The HTTP status, when an answer came.
  std::optional<long> status() const noexcept { return status_; }
  // Seconds the server asked to wait (a 503's Retry-After), when it did.
  std::optional<int> retry_after_seconds() const noexcept { return retry_after_seconds_; }

 private:
  TransportErrorReason reason_;
  std::optional<long> status_;
  std::optional<int> retry_after_seconds_;
};

}  // namespace latchkey

#endif
