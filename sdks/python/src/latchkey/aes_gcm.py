"""
AES-256-GCM decryption in pure Python, for the encrypted offline licence alone: the standard
library has no AES and PyNaCl has no portable AES-GCM (libsodium's needs AES-NI), and a licence
is a few hundred bytes, so speed does not matter here. Only the forward cipher is needed: GCM
decrypts by counter mode.
"""

import hmac
from typing import List, Optional


def _xtime(value: int) -> int:
    value <<= 1
    return (value ^ 0x11B) if value & 0x100 else value


def _build_sbox() -> List[int]:
    # The S-box from its definition (inverse in GF(2^8), then the affine map) rather than a
    # pasted table: a typo in 256 numbers would only show on some licences.
    sbox = [0] * 256
    p = q = 1
    while True:
        p ^= _xtime(p)
        q ^= q << 1
        q ^= q << 2
        q ^= q << 4
        q &= 0xFF
        if q & 0x80:
            q ^= 0x09
        rotated = q
        for shift in range(1, 5):
            rotated ^= ((q << shift) | (q >> (8 - shift))) & 0xFF
        sbox[p] = rotated ^ 0x63
        if p == 1:
            break
    sbox[0] = 0x63
    return sbox


_SBOX = _build_sbox()
_ROUNDS = 14


def _expand_key(key: bytes) -> List[List[int]]:
    if len(key) != 32:
        raise ValueError("AES-256 needs a 32-byte key")
    words = [list(key[i : i + 4]) for i in range(0, 32, 4)]
    rcon = 1
    for i in range(8, 4 * (_ROUNDS + 1)):
        temp = list(words[i - 1])
        if i % 8 == 0:
            temp = [_SBOX[b] for b in temp[1:] + temp[:1]]
            temp[0] ^= rcon
            rcon = _xtime(rcon)
        elif i % 8 == 4:
            temp = [_SBOX[b] for b in temp]
        words.append([a ^ b for a, b in zip(words[i - 8], temp)])
    return [sum(words[4 * r : 4 * r + 4], []) for r in range(_ROUNDS + 1)]


def _encrypt_block(round_keys: List[List[int]], block: bytes) -> bytes:
    state = [b ^ k for b, k in zip(block, round_keys[0])]
    for round_index in range(1, _ROUNDS + 1):
        state = [_SBOX[b] for b in state]
        # Bytes are column after column: row r of column c moves to column c - r.
        state = [state[(r + 4 * ((c + r) % 4))] for c in range(4) for r in range(4)]
        if round_index != _ROUNDS:
            mixed = []
            for c in range(4):
                a0, a1, a2, a3 = state[4 * c : 4 * c + 4]
                total = a0 ^ a1 ^ a2 ^ a3
                mixed += [
                    a0 ^ total ^ _xtime(a0 ^ a1),
                    a1 ^ total ^ _xtime(a1 ^ a2),
                    a2 ^ total ^ _xtime(a2 ^ a3),
                    a3 ^ total ^ _xtime(a3 ^ a0),
                ]
            state = mixed
        state = [b ^ k for b, k in zip(state, round_keys[round_index])]
    return bytes(state)


_GCM_REDUCTION = 0xE1 << 120


def _gf_multiply(x: int, y: int) -> int:
    product = 0
    for bit in range(127, -1, -1):
        if (x >> bit) & 1:
            product ^= y
        y = (y >> 1) ^ _GCM_REDUCTION if y & 1 else y >> 1
    return product


def _ghash(hash_key: int, ciphertext: bytes) -> int:
    tag = 0
    for start in range(0, len(ciphertext), 16):
        block = ciphertext[start : start + 16].ljust(16, b"\x00")
        tag = _gf_multiply(tag ^ int.from_bytes(block, "big"), hash_key)
    # No associated data: the lengths block is 0 bits of it and the ciphertext's bits.
    return _gf_multiply(tag ^ (len(ciphertext) * 8), hash_key)


def decrypt_aes_256_gcm(key: bytes, iv: bytes, ciphertext: bytes, tag: bytes) -> Optional[bytes]:
    """The plaintext of a 12-byte-IV AES-256-GCM message without associated data, or None when
    its tag does not hold (another key, or changed bytes)."""
    if len(iv) != 12 or len(tag) != 16:
        return None
    round_keys = _expand_key(key)
    hash_key = int.from_bytes(_encrypt_block(round_keys, bytes(16)), "big")
    first_counter = iv + b"\x00\x00\x00\x01"
    expected = int.from_bytes(_encrypt_block(round_keys, first_counter), "big") ^ _ghash(
        hash_key, ciphertext
    )
    if not hmac.compare_digest(expected.to_bytes(16, "big"), tag):
        return None
    plaintext = bytearray()
    for index, start in enumerate(range(0, len(ciphertext), 16)):
        counter = iv + ((2 + index) & 0xFFFFFFFF).to_bytes(4, "big")
        stream = _encrypt_block(round_keys, counter)
        chunk = ciphertext[start : start + 16]
        plaintext += bytes(a ^ b for a, b in zip(chunk, stream))
    return bytes(plaintext)
