using System;
using System.Numerics;
using System.Security.Cryptography;

namespace Latchkey
{
    /// <summary>
    /// Ed25519 signature verification (RFC 8032 section 5.1.7) in managed code (System.Numerics), so
    /// the library needs no native code on any runtime. Points are decoded strictly (y &lt; p, no
    /// negative zero), S must be below the group order, and [S]B is compared with R + [k]A in extended coordinates (the cofactorless check).
    /// Only public data is handled, so constant time is not needed.
    /// </summary>
    internal static class Ed25519
    {
        private static readonly BigInteger P = BigInteger.Pow(2, 255) - 19;
        private static readonly BigInteger L = BigInteger.Pow(2, 252) +
            BigInteger.Parse("27742317777372353535851937790883648493");
        private static readonly BigInteger D = Mod(-121665 * Inverse(121666));
        private static readonly BigInteger SqrtMinusOne = BigInteger.ModPow(2, (P - 1) / 4, P);
        private static readonly BigInteger[] BasePoint = MakeBasePoint();

        public static bool Verify(byte[] publicKey, byte[] message, byte[] signature)
        {
            if (publicKey == null || publicKey.Length != 32 || signature == null || signature.Length != 64)
                return false;
            var a = Decode(publicKey);
            if (a == null) return false;
            var rBytes = new byte[32];
            Array.Copy(signature, 0, rBytes, 0, 32);
            var r = Decode(rBytes);
            if (r == null) return false;
            var sBytes = new byte[32];
            Array.Copy(signature, 32, sBytes, 0, 32);
            var s = FromLittleEndian(sBytes);
            if (s >= L) return false;

            byte[] digest;
            using (var sha = SHA512.Create())
            {
                var input = new byte[64 + message.Length];
                Buffer.BlockCopy(rBytes, 0, input, 0, 32);
                Buffer.BlockCopy(publicKey, 0, input, 32, 32);
                Buffer.BlockCopy(message, 0, input, 64, message.Length);
                digest = sha.ComputeHash(input);
            }
            var k = FromLittleEndian(digest) % L;
            return AreEqual(Multiply(s, BasePoint), Add(r, Multiply(k, a)));
        }

        /// <summary>Decodes a 32-byte point encoding; null when it is not the canonical encoding of a point.</summary>
        private static BigInteger[] Decode(byte[] encoded)
        {
            if (encoded == null || encoded.Length != 32) return null;
            var bytes = (byte[])encoded.Clone();
            var sign = (bytes[31] >> 7) & 1;
            bytes[31] &= 0x7f;
            var y = FromLittleEndian(bytes);
            if (y >= P) return null;
            var x = RecoverX(y, sign);
            if (x.IsZero && sign == 1) return null;
            if (x < 0) return null;
            return new[] { x, y, BigInteger.One, Mod(x * y) };
        }

        private static BigInteger RecoverX(BigInteger y, int sign)
        {
            var x2 = Mod((y * y - 1) * Inverse(D * y * y + 1));
            if (x2.IsZero) return BigInteger.Zero;
            var x = BigInteger.ModPow(x2, (P + 3) / 8, P);
            if (!Mod(x * x - x2).IsZero) x = Mod(x * SqrtMinusOne);
            if (!Mod(x * x - x2).IsZero) return BigInteger.MinusOne;
            if ((int)(x & 1) != sign) x = P - x;
            return x;
        }

        private static BigInteger[] Add(BigInteger[] p, BigInteger[] q)
        {
            var a = Mod((p[1] - p[0]) * (q[1] - q[0]));
            var b = Mod((p[1] + p[0]) * (q[1] + q[0]));
            var c = Mod(2 * p[3] * q[3] * D);
            var d = Mod(2 * p[2] * q[2]);
            var e = b - a;
            var f = d - c;
            var g = d + c;
            var h = b + a;
            return new[] { Mod(e * f), Mod(g * h), Mod(f * g), Mod(e * h) };
        }

        private static BigInteger[] Multiply(BigInteger scalar, BigInteger[] point)
        {
            var result = new[] { BigInteger.Zero, BigInteger.One, BigInteger.One, BigInteger.Zero };
            var addend = point;
            while (scalar > 0)
            {
                if (!scalar.IsEven) result = Add(result, addend);
                addend = Add(addend, addend);
                scalar >>= 1;
            }
            return result;
        }

        private static bool AreEqual(BigInteger[] p, BigInteger[] q)
        {
            return Mod(p[0] * q[2] - q[0] * p[2]).IsZero && Mod(p[1] * q[2] - q[1] * p[2]).IsZero;
        }

        private static BigInteger[] MakeBasePoint()
        {
            var y = Mod(4 * Inverse(5));
            var x = RecoverX(y, 0);
            return new[] { x, y, BigInteger.One, Mod(x * y) };
        }

        private static BigInteger Mod(BigInteger value)
        {
            var result = value % P;
            return result.Sign < 0 ? result + P : result;
        }

        private static BigInteger Inverse(BigInteger value)
        {
            return BigInteger.ModPow(Mod(value), P - 2, P);
        }

        private static BigInteger FromLittleEndian(byte[] bytes)
        {
            var unsigned = new byte[bytes.Length + 1];
            Array.Copy(bytes, unsigned, bytes.Length);
            return new BigInteger(unsigned);
        }
    }
}
