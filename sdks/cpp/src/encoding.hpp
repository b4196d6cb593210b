#ifndef LATCHKEY_SRC_ENCODING_HPP
#define LATCHKEY_SRC_ENCODING_HPP

// Byte and text helpers over libsodium, shared by the library's parts.

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace latchkey::detail {

using Bytes = std::vector<unsigned char>;

// libsodium is initialised once, whichever part of the library needs it first; throws
// std::runtime_error when it cannot be (no random source).
void ensure_sodium();

// Exactly `length` bytes from hex digits of either case; nullopt on anything else.
std::optional<Bytes> decode_hex(const std::string& hex, std::size_t length);
std::string to_hex(const unsigned char* bytes, std::size_t length);
std::string random_hex(std::size_t byte_count);

// The Ed25519 public key of 64 hex digits; throws std::invalid_argument on anything else.
std::array<unsigned char, 32> public_key_from_hex(const std::string& public_key_hex);

// Canonical base64url only (RFC 4648 §5 without padding): the alphabet, no padding, no white
// space, unused bits zero, so that the bytes re-encode to exactly the text.
std::optional<Bytes> decode_base64url(const std::string& text);
std::string encode_base64url(const Bytes& bytes);

std::string sha256_hex(const std::string& text);

std::string trim(const std::string& text);
std::string lower(std::string text);

}  // namespace latchkey::detail

#endif
