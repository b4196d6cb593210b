// The portable AES-256-GCM, which only runs on CPUs without AES-NI and CLMUL, checked here on
// every CPU: against docs/client-api.md's worked encrypted licence, and against libsodium's
// own AES-256-GCM where this CPU has it.

#include "aes_256_gcm.hpp"
#include "encoding.hpp"

#include <sodium.h>

#include <cstdio>
#include <string>

namespace {

int failures = 0;

void check(bool is_true, const std::string& what) {
  if (!is_true) {
    std::fprintf(stderr, "FAILED: %s\n", what.c_str());
    ++failures;
  }
}

using latchkey::detail::AesKey;
using latchkey::detail::Bytes;

}  // namespace

int main() {
  latchkey::detail::ensure_sodium();
  // The worked licence: HKDF-SHA256 of the HWID DESKTOP-7F3K under the example key.
  const Bytes key_bytes = *latchkey::detail::decode_hex(
      "ae6103dd43bf69c9c4db7a750d5bf1e71b3cbbc91760614e74f6dfb0889a1183", 32);
  AesKey key{};
  std::copy(key_bytes.begin(), key_bytes.end(), key.begin());
  const std::string payload =
      "AAECAwQFBgcICQoLRWICTlB7ms_UuLXveStUz8LNnHD-YEFIzDiglPNjjz1yIFDeJ5NhmiVVuJ9UJ3VOhorj78sVg1Y9"
      "w8wRoNLdBtGkqEqqb08YCsDL15urdcvXciJo6_7NQ5B9MlnxQ4g6gzYUVggy7hrTPOovwg8Vk23AuklZQDGBmbvyiFC1"
      "6QNq9uBvBGTzn3BlMd9WFLSuCak0E1-WarEJFmpDlLHuKxhK8HaRwQxt9sv9tmSCX-sQDeSbewHG4ONFi51sDb0vnEwb"
      "jylgP7bnakA90w3XC6XeRT4dovWJXU915_w4mIv9XghJ72qOUEYF7HbRGyMF83j0h_i425cgoKuaKHKF1MsNgHL08Go-"
      "0OmPOVKCMdwD97OYoDhq9_4HtklGQlhdg8Pr7jA1q1JXZf25R5tCcPdq4fPg2-8bAVIO1LdFMIsq0eRBvQJ015ITCRDf"
      "lZJ2P6xgUg_opNPOU6-bTA5EXpufddyhCKJWlNzcm_suSaxqDgtgxQT0RPrtmsfgrCZPpXE";
  const std::string content =
      R"({"application_id":42,"user_id":"0b0f7c1e-5d2a-4c1e-9f3b-6a7d8e9f0a1b","username":"alice","hwid":"DESKTOP-7F3K","entitlements":["EXPORT_PDF","PRO"],"subscriptions":[{"plan":"Pro","expires_at":"2026-07-01T12:00:00.000Z"}],"account_expires_at":null,"issued_at":"2026-06-01T12:00:00.000Z","valid_until":"2026-06-08T12:00:00.000Z","id":"5e1c2b7a-9d4f-4e8a-b3c6-1f2e3d4c5b6a"})";
  const Bytes sealed = *latchkey::detail::decode_base64url(payload);

  const auto portable = latchkey::detail::decrypt_aes_256_gcm_portable(key, sealed);
  check(portable && std::string(portable->begin(), portable->end()) == content,
        "the portable code decrypts the worked licence");
  const auto chosen = latchkey::detail::decrypt_aes_256_gcm(key, sealed);
  check(chosen && std::string(chosen->begin(), chosen->end()) == content,
        "the chosen code decrypts the worked licence");

  for (const std::size_t at : {std::size_t{0}, std::size_t{12}, sealed.size() - 1}) {
    Bytes changed = sealed;
    changed[at] ^= 0x01;
    check(!latchkey::detail::decrypt_aes_256_gcm_portable(key, changed),
          "a changed byte at " + std::to_string(at) + " is refused");
  }
  AesKey other_key = key;
  other_key[31] ^= 0x80;
  check(!latchkey::detail::decrypt_aes_256_gcm_portable(other_key, sealed),
        "another key is refused");
  check(!latchkey::detail::decrypt_aes_256_gcm_portable(key, Bytes(27)), "too short is refused");

  if (crypto_aead_aes256gcm_is_available() != 0) {
    // Every length around the block size and beyond, against libsodium's encryption.
    for (std::size_t length = 0; length <= 100; ++length) {
      Bytes message(length);
      randombytes_buf(message.data(), message.size());
      Bytes sealed_here(12 + length + 16);
      randombytes_buf(sealed_here.data(), 12);
      AesKey random_key{};
      randombytes_buf(random_key.data(), random_key.size());
      unsigned long long sealed_length = 0;
      crypto_aead_aes256gcm_encrypt(sealed_here.data() + 12, &sealed_length, message.data(),
                                    message.size(), nullptr, 0, nullptr, sealed_here.data(),
                                    random_key.data());
      const auto opened = latchkey::detail::decrypt_aes_256_gcm_portable(random_key, sealed_here);
      check(opened && *opened == message,
            "libsodium's encryption of " + std::to_string(length) + " bytes decrypts");
    }
  } else {
    std::printf("this CPU has no AES-NI: compared with the worked licence only\n");
  }
  if (failures == 0) std::printf("aes_256_gcm: all checks passed\n");
  return failures == 0 ? 0 : 1;
}
