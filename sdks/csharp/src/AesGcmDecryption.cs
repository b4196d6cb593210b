using System;
using System.Security.Cryptography;

namespace Latchkey
{
    /// <summary>
    /// AES-256-GCM decryption for the encrypted offline licence alone, in managed code: .NET
    /// Framework 4.x and Mono have no AesGcm, so GCM is built here from the framework's AES block
    /// cipher (ECB on one block at a time): counter mode for the bytes, GHASH for the tag. Only
    /// the forward cipher is needed. A licence is a few hundred bytes, so speed does not matter.
    /// </summary>
    internal static class AesGcmDecryption
    {
        /// <summary>
        /// The plaintext of a 12-byte-IV AES-256-GCM message without associated data, or null
        /// when its tag does not hold (another key, or changed bytes).
        /// </summary>
        public static byte[] Decrypt(byte[] key, byte[] iv, byte[] ciphertext, byte[] tag)
        {
            if (key.Length != 32 || iv.Length != 12 || tag.Length != 16) return null;
            using (var aes = Aes.Create())
            {
                aes.Mode = CipherMode.ECB;
                aes.Padding = PaddingMode.None;
                aes.Key = key;
                using (var block = aes.CreateEncryptor())
                {
                    var hashKey = Encrypt(block, new byte[16]);
                    var counter = new byte[16];
                    Buffer.BlockCopy(iv, 0, counter, 0, 12);
                    counter[15] = 1;
                    var expected = Encrypt(block, counter);
                    var digest = Ghash(hashKey, ciphertext);
                    for (var i = 0; i < 16; i++) expected[i] ^= digest[i];
                    if (!AreEqualInConstantTime(expected, tag)) return null;

                    var plaintext = new byte[ciphertext.Length];
                    uint index = 2;
                    for (var start = 0; start < ciphertext.Length; start += 16, index++)
                    {
                        counter[12] = (byte)(index >> 24);
                        counter[13] = (byte)(index >> 16);
                        counter[14] = (byte)(index >> 8);
                        counter[15] = (byte)index;
                        var stream = Encrypt(block, counter);
                        var length = Math.Min(16, ciphertext.Length - start);
                        for (var i = 0; i < length; i++) plaintext[start + i] = (byte)(ciphertext[start + i] ^ stream[i]);
                    }
                    return plaintext;
                }
            }
        }

        private static byte[] Encrypt(ICryptoTransform block, byte[] input)
        {
            var output = new byte[16];
            block.TransformBlock(input, 0, 16, output, 0);
            return output;
        }

        private static byte[] Ghash(byte[] hashKey, byte[] ciphertext)
        {
            var tag = new byte[16];
            for (var start = 0; start < ciphertext.Length; start += 16)
            {
                var length = Math.Min(16, ciphertext.Length - start);
                for (var i = 0; i < length; i++) tag[i] ^= ciphertext[start + i];
                tag = Multiply(tag, hashKey);
            }
            // No associated data: the lengths block is 0 bits of it and the ciphertext's bits.
            var bits = (ulong)ciphertext.Length * 8;
            for (var i = 0; i < 8; i++) tag[15 - i] ^= (byte)(bits >> (8 * i));
            return Multiply(tag, hashKey);
        }

        /// <summary>x·y in GF(2^128) with GCM's bit order (the first bit is the most significant).</summary>
        private static byte[] Multiply(byte[] x, byte[] y)
        {
            var product = new byte[16];
            var v = (byte[])y.Clone();
            for (var bit = 0; bit < 128; bit++)
            {
                if ((x[bit / 8] & (0x80 >> (bit % 8))) != 0)
                {
                    for (var i = 0; i < 16; i++) product[i] ^= v[i];
                }
                var isLowBitSet = (v[15] & 1) != 0;
                for (var i = 15; i > 0; i--) v[i] = (byte)((v[i] >> 1) | (v[i - 1] << 7));
                v[0] >>= 1;
                if (isLowBitSet) v[0] ^= 0xE1;
            }
            return product;
        }

        private static bool AreEqualInConstantTime(byte[] a, byte[] b)
        {
            var difference = a.Length ^ b.Length;
            for (var i = 0; i < a.Length && i < b.Length; i++) difference |= a[i] ^ b[i];
            return difference == 0;
        }
    }
}
