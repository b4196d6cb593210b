#include "encoding.hpp"

#include <sodium.h>

#include <algorithm>
#include <cctype>
#include <stdexcept>

namespace latchkey::detail {

void ensure_sodium() {
  // sodium_init is thread-safe and cheap after the first call; -1 only when it cannot start.
  if (sodium_init() < 0) throw std::runtime_error("libsodium could not be initialised");
}

std::optional<Bytes> decode_hex(const std::string& hex, std::size_t length) {
  if (hex.size() != length * 2) return std::nullopt;
  for (const char c : hex)
    if (!std::isxdigit(static_cast<unsigned char>(c))) return std::nullopt;
  Bytes bytes(length);
  std::size_t decoded = 0;
  if (sodium_hex2bin(bytes.data(), bytes.size(), hex.data(), hex.size(), nullptr, &decoded,
                     nullptr) != 0 ||
      decoded != length)
    return std::nullopt;
  return bytes;
}

std::string to_hex(const unsigned char* bytes, std::size_t length) {
  std::string hex(length * 2 + 1, '\0');
  sodium_bin2hex(&hex[0], hex.size(), bytes, length);
  hex.resize(length * 2);
  return hex;
}

std::string random_hex(std::size_t byte_count) {
  ensure_sodium();
  Bytes bytes(byte_count);
  randombytes_buf(bytes.data(), bytes.size());
  return to_hex(bytes.data(), bytes.size());
}

std::array<unsigned char, 32> public_key_from_hex(const std::string& public_key_hex) {
  const std::optional<Bytes> bytes = decode_hex(public_key_hex, 32);
  if (!bytes)
    throw std::invalid_argument(
        "public_key must be the application's Ed25519 public key: 64 hex digits");
  std::array<unsigned char, 32> key{};
  std::copy(bytes->begin(), bytes->end(), key.begin());
  return key;
}

std::optional<Bytes> decode_base64url(const std::string& text) {
  if (text.empty()) return std::nullopt;
  for (const char c : text)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_') return std::nullopt;
  Bytes bytes(text.size() * 3 / 4 + 3);
  std::size_t length = 0;
  const char* end = nullptr;
  if (sodium_base642bin(bytes.data(), bytes.size(), text.data(), text.size(), nullptr, &length,
                        &end, sodium_base64_VARIANT_URLSAFE_NO_PADDING) != 0 ||
      end != text.data() + text.size())
    return std::nullopt;
  bytes.resize(length);
  // Many decoders forgive non-zero unused bits; a segment counts only when it re-encodes to
  // exactly itself.
  if (encode_base64url(bytes) != text) return std::nullopt;
  return bytes;
}

std::string encode_base64url(const Bytes& bytes) {
  const std::size_t size =
      sodium_base64_ENCODED_LEN(bytes.size(), sodium_base64_VARIANT_URLSAFE_NO_PADDING);
  std::string text(size, '\0');
  sodium_bin2base64(&text[0], text.size(), bytes.data(), bytes.size(),
                    sodium_base64_VARIANT_URLSAFE_NO_PADDING);
  text.resize(text.find('\0') == std::string::npos ? text.size() : text.find('\0'));
  return text;
}

std::string sha256_hex(const std::string& text) {
  unsigned char hash[crypto_hash_sha256_BYTES];
  crypto_hash_sha256(hash, reinterpret_cast<const unsigned char*>(text.data()), text.size());
  return to_hex(hash, sizeof hash);
}

std::string trim(const std::string& text) {
  const char* space = " \t\r\n\v\f";
  const std::size_t first = text.find_first_not_of(space);
  if (first == std::string::npos) return "";
  return text.substr(first, text.find_last_not_of(space) - first + 1);
}

std::string lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

}  // namespace latchkey::detail
