#ifndef LATCHKEY_ANSWER_SIGNATURE_HPP
#define LATCHKEY_ANSWER_SIGNATURE_HPP

// The check every answer passes before anything reads it; the client makes it itself, and it
// is public for programs and tests that hold an answer of their own.

#include <latchkey/errors.hpp>
#include <latchkey/latchkey_export.h>

#include <optional>
#include <string>

namespace latchkey {

// How far an answer's signing time may be from this machine's clock (the server's advice).
constexpr long long default_max_clock_skew_seconds = 300;

// Why an answer is not to be believed, or nullopt when it is genuine: its Ed25519 signature
// covers "{timestamp}.{nonce}.{body}" under the pinned key (the nonce binds it to this request,
// so an answer recorded earlier cannot be replayed), and it was signed within
// max_clock_skew_seconds of now_unix_seconds (this machine's clock by default). The signature
// is checked first, so Stale only ever describes a genuine answer.
//
// timestamp and signature are the X-Signature-Timestamp and X-Signature-Ed25519 headers as
// received (nullopt when absent), nonce the X-Request-Nonce this request sent ("" for none),
// body the bytes exactly as received. Throws std::invalid_argument when public_key_hex is not
// 64 hex digits.
LATCHKEY_EXPORT std::optional<SignatureErrorReason> check_answer_signature(
    const std::string& public_key_hex, const std::optional<std::string>& timestamp,
    const std::optional<std::string>& signature, const std::string& nonce,
    const std::string& body, std::optional<long long> now_unix_seconds = std::nullopt,
    long long max_clock_skew_seconds = default_max_clock_skew_seconds);

}  // namespace latchkey

#endif
