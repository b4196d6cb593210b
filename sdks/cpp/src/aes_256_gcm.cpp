#include "aes_256_gcm.hpp"

#include <sodium.h>

#include <cstdint>

namespace latchkey::detail {

namespace {

constexpr std::size_t iv_bytes = 12;
constexpr std::size_t tag_bytes = 16;
constexpr int rounds = 14;

using Block = std::array<std::uint8_t, 16>;
using RoundKeys = std::array<Block, rounds + 1>;

std::uint8_t xtime(std::uint8_t value) {
  return static_cast<std::uint8_t>((value << 1) ^ ((value & 0x80) != 0 ? 0x1B : 0x00));
}

// The S-box from its definition (the inverse in GF(2^8), then the affine map) rather than a
// pasted table: a typo in 256 numbers would only show on some licences.
const std::array<std::uint8_t, 256>& sbox() {
  static const std::array<std::uint8_t, 256> table = [] {
    std::array<std::uint8_t, 256> built{};
    std::uint8_t p = 1, q = 1;
    do {
      p = static_cast<std::uint8_t>(p ^ xtime(p));  // p times 3
      q = static_cast<std::uint8_t>(q ^ (q << 1));  // q divided by 3
      q = static_cast<std::uint8_t>(q ^ (q << 2));
      q = static_cast<std::uint8_t>(q ^ (q << 4));
      if ((q & 0x80) != 0) q = static_cast<std::uint8_t>(q ^ 0x09);
      auto rotate = [](std::uint8_t x, int shift) {
        return static_cast<std::uint8_t>((x << shift) | (x >> (8 - shift)));
      };
      built[p] = static_cast<std::uint8_t>(q ^ rotate(q, 1) ^ rotate(q, 2) ^ rotate(q, 3) ^
                                           rotate(q, 4) ^ 0x63);
    } while (p != 1);
    built[0] = 0x63;
    return built;
  }();
  return table;
}

RoundKeys expand_key(const AesKey& key) {
  const auto& box = sbox();
  std::array<std::array<std::uint8_t, 4>, 4 * (rounds + 1)> words{};
  for (std::size_t i = 0; i < 8; ++i)
    for (std::size_t j = 0; j < 4; ++j) words[i][j] = key[4 * i + j];
  std::uint8_t rcon = 1;
  for (std::size_t i = 8; i < words.size(); ++i) {
    std::array<std::uint8_t, 4> temp = words[i - 1];
    if (i % 8 == 0) {
      temp = {box[temp[1]], box[temp[2]], box[temp[3]], box[temp[0]]};
      temp[0] = static_cast<std::uint8_t>(temp[0] ^ rcon);
      rcon = xtime(rcon);
    } else if (i % 8 == 4) {
      for (auto& byte : temp) byte = box[byte];
    }
    for (std::size_t j = 0; j < 4; ++j)
      words[i][j] = static_cast<std::uint8_t>(words[i - 8][j] ^ temp[j]);
  }
  RoundKeys round_keys{};
  for (std::size_t r = 0; r <= rounds; ++r)
    for (std::size_t w = 0; w < 4; ++w)
      for (std::size_t j = 0; j < 4; ++j) round_keys[r][4 * w + j] = words[4 * r + w][j];
  return round_keys;
}

Block encrypt_block(const RoundKeys& round_keys, const Block& input) {
  const auto& box = sbox();
  Block state{};
  for (std::size_t i = 0; i < 16; ++i)
    state[i] = static_cast<std::uint8_t>(input[i] ^ round_keys[0][i]);
  for (int round = 1; round <= rounds; ++round) {
    for (auto& byte : state) byte = box[byte];
    // Bytes are column after column: row r of column c moves to column c - r.
    Block shifted{};
    for (std::size_t c = 0; c < 4; ++c)
      for (std::size_t r = 0; r < 4; ++r) shifted[4 * c + r] = state[r + 4 * ((c + r) % 4)];
    state = shifted;
    if (round != rounds) {
      for (std::size_t c = 0; c < 4; ++c) {
        const std::uint8_t a0 = state[4 * c], a1 = state[4 * c + 1], a2 = state[4 * c + 2],
                           a3 = state[4 * c + 3];
        const auto total = static_cast<std::uint8_t>(a0 ^ a1 ^ a2 ^ a3);
        state[4 * c] = static_cast<std::uint8_t>(a0 ^ total ^ xtime(static_cast<std::uint8_t>(a0 ^ a1)));
        state[4 * c + 1] = static_cast<std::uint8_t>(a1 ^ total ^ xtime(static_cast<std::uint8_t>(a1 ^ a2)));
        state[4 * c + 2] = static_cast<std::uint8_t>(a2 ^ total ^ xtime(static_cast<std::uint8_t>(a2 ^ a3)));
        state[4 * c + 3] = static_cast<std::uint8_t>(a3 ^ total ^ xtime(static_cast<std::uint8_t>(a3 ^ a0)));
      }
    }
    for (std::size_t i = 0; i < 16; ++i)
      state[i] = static_cast<std::uint8_t>(state[i] ^ round_keys[static_cast<std::size_t>(round)][i]);
  }
  return state;
}

// A GF(2^128) element of GCM, its first byte the most significant of high.
struct Element {
  std::uint64_t high = 0;
  std::uint64_t low = 0;
};

Element element_of(const std::uint8_t* bytes) {
  Element element;
  for (int i = 0; i < 8; ++i) element.high = (element.high << 8) | bytes[i];
  for (int i = 8; i < 16; ++i) element.low = (element.low << 8) | bytes[i];
  return element;
}

Element multiply(const Element& x, Element y) {
  Element product;
  for (int bit = 0; bit < 128; ++bit) {
    const std::uint64_t word = bit < 64 ? x.high : x.low;
    if (((word >> (63 - (bit % 64))) & 1) != 0) {
      product.high ^= y.high;
      product.low ^= y.low;
    }
    const bool carries = (y.low & 1) != 0;
    y.low = (y.low >> 1) | (y.high << 63);
    y.high >>= 1;
    if (carries) y.high ^= 0xE100000000000000ULL;
  }
  return product;
}

Element ghash(const Element& hash_key, const std::uint8_t* ciphertext, std::size_t length) {
  Element tag;
  for (std::size_t start = 0; start < length; start += 16) {
    std::uint8_t block[16] = {0};
    for (std::size_t i = 0; i < 16 && start + i < length; ++i) block[i] = ciphertext[start + i];
    const Element value = element_of(block);
    tag.high ^= value.high;
    tag.low ^= value.low;
    tag = multiply(tag, hash_key);
  }
  // No associated data: the lengths block is 0 bits of it and the ciphertext's bits.
  tag.low ^= static_cast<std::uint64_t>(length) * 8;
  return multiply(tag, hash_key);
}

Block counter_block(const std::uint8_t* iv, std::uint32_t counter) {
  Block block{};
  for (std::size_t i = 0; i < iv_bytes; ++i) block[i] = iv[i];
  block[12] = static_cast<std::uint8_t>(counter >> 24);
  block[13] = static_cast<std::uint8_t>(counter >> 16);
  block[14] = static_cast<std::uint8_t>(counter >> 8);
  block[15] = static_cast<std::uint8_t>(counter);
  return block;
}

}  // namespace

std::optional<std::vector<unsigned char>> decrypt_aes_256_gcm_portable(
    const AesKey& key, const std::vector<unsigned char>& sealed) {
  if (sealed.size() < iv_bytes + tag_bytes) return std::nullopt;
  const std::uint8_t* iv = sealed.data();
  const std::uint8_t* ciphertext = sealed.data() + iv_bytes;
  const std::size_t length = sealed.size() - iv_bytes - tag_bytes;
  const std::uint8_t* tag = ciphertext + length;

  const RoundKeys round_keys = expand_key(key);
  const Block zero{};
  const Block hash_key_bytes = encrypt_block(round_keys, zero);
  const Element digest = ghash(element_of(hash_key_bytes.data()), ciphertext, length);
  const Block mask = encrypt_block(round_keys, counter_block(iv, 1));
  std::uint8_t expected[16];
  for (int i = 0; i < 8; ++i) {
    expected[i] = static_cast<std::uint8_t>(mask[static_cast<std::size_t>(i)] ^ (digest.high >> (56 - 8 * i)));
    expected[8 + i] = static_cast<std::uint8_t>(mask[static_cast<std::size_t>(8 + i)] ^ (digest.low >> (56 - 8 * i)));
  }
  if (sodium_memcmp(expected, tag, tag_bytes) != 0) return std::nullopt;

  std::vector<unsigned char> plaintext(length);
  for (std::size_t start = 0, index = 0; start < length; start += 16, ++index) {
    const Block stream =
        encrypt_block(round_keys, counter_block(iv, static_cast<std::uint32_t>(2 + index)));
    for (std::size_t i = 0; i < 16 && start + i < length; ++i)
      plaintext[start + i] = static_cast<unsigned char>(ciphertext[start + i] ^ stream[i]);
  }
  return plaintext;
}

std::optional<std::vector<unsigned char>> decrypt_aes_256_gcm(
    const AesKey& key, const std::vector<unsigned char>& sealed) {
  if (sealed.size() < iv_bytes + tag_bytes) return std::nullopt;
  if (crypto_aead_aes256gcm_is_available() == 0) return decrypt_aes_256_gcm_portable(key, sealed);
  std::vector<unsigned char> plaintext(sealed.size() - iv_bytes - tag_bytes);
  unsigned long long plaintext_length = 0;
  // libsodium takes the ciphertext with its tag at the end, as the licence carries them.
  if (crypto_aead_aes256gcm_decrypt(plaintext.data(), &plaintext_length, nullptr,
                                    sealed.data() + iv_bytes, sealed.size() - iv_bytes, nullptr,
                                    0, sealed.data(), key.data()) != 0)
    return std::nullopt;
  plaintext.resize(static_cast<std::size_t>(plaintext_length));
  return plaintext;
}

}  // namespace latchkey::detail
