#include <latchkey/activation_request.hpp>

#include "encoding.hpp"
#include "result_fields.hpp"
#include "utc_time.hpp"

#include <sodium.h>

#include <chrono>
#include <stdexcept>

namespace latchkey {

namespace {

constexpr const char* prefix = "LKA1";
constexpr const char* check_domain = "latchkey-activation-v1";
constexpr std::size_t check_length = 16;

bool is_nonce(const std::string& nonce) {
  if (nonce.size() < 16 || nonce.size() > 64) return false;
  for (const char c : nonce) {
    const bool is_alphabet = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
                             (c >= '0' && c <= '9') || c == '-' || c == '_';
    if (!is_alphabet) return false;
  }
  return true;
}

// Well-formed UTF-8 (no overlong form, no surrogate, nothing past U+10FFFF) without NUL: the
// other SDKs' texts are Unicode, and the server stores no NUL.
bool is_text(const std::string& text) {
  std::size_t at = 0;
  while (at < text.size()) {
    const auto lead = static_cast<unsigned char>(text[at]);
    if (lead == 0) return false;
    std::size_t length = 0;
    unsigned long code_point = 0;
    if (lead < 0x80) {
      ++at;
      continue;
    }
    if (lead >= 0xC2 && lead <= 0xDF) {
      length = 2;
      code_point = lead & 0x1Fu;
    } else if (lead >= 0xE0 && lead <= 0xEF) {
      length = 3;
      code_point = lead & 0x0Fu;
    } else if (lead >= 0xF0 && lead <= 0xF4) {
      length = 4;
      code_point = lead & 0x07u;
    } else {
      return false;
    }
    if (at + length > text.size()) return false;
    for (std::size_t i = 1; i < length; ++i) {
      const auto next = static_cast<unsigned char>(text[at + i]);
      if ((next & 0xC0u) != 0x80u) return false;
      code_point = (code_point << 6) | (next & 0x3Fu);
    }
    const bool is_overlong = (length == 3 && code_point < 0x800) ||
                             (length == 4 && code_point < 0x10000);
    if (is_overlong || (code_point >= 0xD800 && code_point <= 0xDFFF) || code_point > 0x10FFFF)
      return false;
    at += length;
  }
  return true;
}

void check_text(const char* name, const std::optional<std::string>& value) {
  if (value && !is_text(*value))
    throw std::invalid_argument(std::string(name) + " must be UTF-8 text without NUL");
}

// A JSON string as JavaScript's JSON.stringify writes it (nlohmann-json escapes the same way:
// the short forms, other control characters as lower-case \u00xx, everything else as is).
std::string json_string(const std::string& text) { return detail::Json(text).dump(); }

}  // namespace

std::string create_activation_request(const std::string& public_key_hex, const std::string& hwid,
                                      const ActivationRequestOptions& options) {
  detail::public_key_from_hex(public_key_hex);
  if (hwid.empty()) throw std::invalid_argument("hwid is required");
  detail::ensure_sodium();
  std::string nonce;
  if (options.nonce) {
    nonce = *options.nonce;
  } else {
    detail::Bytes random(16);
    randombytes_buf(random.data(), random.size());
    nonce = detail::encode_base64url(random);
  }
  if (!is_nonce(nonce))
    throw std::invalid_argument("nonce must be 16 to 64 of A-Z, a-z, 0-9, _ and -");
  check_text("hwid", hwid);
  check_text("license_key", options.license_key);
  check_text("username", options.username);
  check_text("device_name", options.device_name);
  const long long now =
      options.now ? std::chrono::duration_cast<std::chrono::milliseconds>(
                        options.now->time_since_epoch())
                        .count()
                  : detail::now_unix_milliseconds();

  // The order is the contract's: every SDK writes the same bytes for the same request. Written
  // field by field because a JSON object of nlohmann-json keeps its keys sorted.
  std::string content = "{\"app\":" + json_string(detail::lower(public_key_hex)) +
                        ",\"hwid\":" + json_string(hwid);
  if (options.license_key && !options.license_key->empty())
    content += ",\"license_key\":" + json_string(*options.license_key);
  if (options.username && !options.username->empty())
    content += ",\"username\":" + json_string(*options.username);
  if (options.device_name && !options.device_name->empty())
    content += ",\"device_name\":" + json_string(*options.device_name);
  if (options.encrypt) content += ",\"encrypt\":true";
  content += ",\"nonce\":" + json_string(nonce);
  content += ",\"created_at\":" + json_string(detail::iso_of_unix_milliseconds(now)) + "}";

  const std::string payload = detail::encode_base64url(detail::Bytes(content.begin(), content.end()));
  const std::string checked = std::string(check_domain) + "." + payload;
  detail::Bytes digest(crypto_hash_sha256_BYTES);
  crypto_hash_sha256(digest.data(), reinterpret_cast<const unsigned char*>(checked.data()),
                     checked.size());
  return std::string(prefix) + "." + payload + "." +
         detail::encode_base64url(digest).substr(0, check_length);
}

}  // namespace latchkey
