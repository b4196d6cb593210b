#include <latchkey/answer_signature.hpp>

#include "encoding.hpp"

#include <sodium.h>

#include <cstdlib>
#include <ctime>

namespace latchkey {

namespace {

bool is_unix_seconds(const std::string& text) {
  // [0-9] only, at most 15 digits, as every SDK reads the header.
  if (text.empty() || text.size() > 15) return false;
  for (const char c : text)
    if (c < '0' || c > '9') return false;
  return true;
}

bool holds_for(const std::array<unsigned char, 32>& key, const std::string& timestamp,
               const std::string& nonce, const std::string& body,
               const detail::Bytes& signature) {
  const std::string message = timestamp + "." + nonce + "." + body;
  return crypto_sign_verify_detached(signature.data(),
                                     reinterpret_cast<const unsigned char*>(message.data()),
                                     message.size(), key.data()) == 0;
}

}  // namespace

std::optional<SignatureErrorReason> check_answer_signature(
    const std::string& public_key_hex, const std::optional<std::string>& timestamp,
    const std::optional<std::string>& signature, const std::string& nonce,
    const std::string& body, std::optional<long long> now_unix_seconds,
    long long max_clock_skew_seconds) {
  const std::array<unsigned char, 32> key = detail::public_key_from_hex(public_key_hex);
  detail::ensure_sodium();
  if (!timestamp || !is_unix_seconds(*timestamp)) return SignatureErrorReason::Unsigned;
  const std::optional<detail::Bytes> signature_bytes =
      signature ? detail::decode_hex(*signature, crypto_sign_BYTES) : std::nullopt;
  if (!signature_bytes) return SignatureErrorReason::Unsigned;
  if (!holds_for(key, *timestamp, nonce, body, *signature_bytes)) {
    // Only to say why: an answer signed for no nonce is refused all the same.
    const bool is_signed_for_no_nonce =
        !nonce.empty() && holds_for(key, *timestamp, "", body, *signature_bytes);
    return is_signed_for_no_nonce ? SignatureErrorReason::Nonce : SignatureErrorReason::Signature;
  }
  const long long now =
      now_unix_seconds ? *now_unix_seconds : static_cast<long long>(std::time(nullptr));
  const long long signed_at = std::strtoll(timestamp->c_str(), nullptr, 10);
  if (std::llabs(now - signed_at) > max_clock_skew_seconds) return SignatureErrorReason::Stale;
  return std::nullopt;
}

}  // namespace latchkey
