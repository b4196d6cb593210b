#ifndef LATCHKEY_SRC_AES_256_GCM_HPP
#define LATCHKEY_SRC_AES_256_GCM_HPP

// AES-256-GCM decryption (12-byte IV, no associated data, 16-byte tag), for the encrypted
// offline licence alone.

#include <array>
#include <optional>
#include <vector>

namespace latchkey::detail {

using AesKey = std::array<unsigned char, 32>;

// The plaintext of IV ‖ ciphertext ‖ tag, or nullopt when the tag does not hold (another key,
// or changed bytes). libsodium's crypto_aead_aes256gcm where this CPU has it (it needs AES-NI
// and CLMUL: most x86-64 since 2010, no ARM), the portable code below elsewhere.
std::optional<std::vector<unsigned char>> decrypt_aes_256_gcm(
    const AesKey& key, const std::vector<unsigned char>& sealed);

// The same, without libsodium: plain C++ AES (a table S-box, so not constant-time) and GHASH.
// Its one use is a licence bound to this machine's HWID, a key the person at the machine
// already has, so a timing side channel reveals nothing to anyone who could measure it.
std::optional<std::vector<unsigned char>> decrypt_aes_256_gcm_portable(
    const AesKey& key, const std::vector<unsigned char>& sealed);

}  // namespace latchkey::detail

#endif
