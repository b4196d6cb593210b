// Ed25519 signature verification adapted from Chaos.NaCl by Christian Winnerlein (CodesInChaos),
// https://github.com/CodesInChaos/Chaos.NaCl, itself a C# port of the ref10 implementation by
// Daniel J. Bernstein et al. in SUPERCOP; both are in the public domain. The reduction of the hash
// modulo the group order follows TweetNaCl's modL (public domain). Only what verification needs
// is kept; decoding is made strict and S is checked against the whole group order (see Verify).
using System;
using System.Security.Cryptography;

namespace Latchkey
{
    /// <summary>
    /// Ed25519 signature verification (RFC 8032 section 5.1.7) in managed code, so the library
    /// needs no native code on any runtime. S must be below the group order L; the public key must
    /// be the canonical encoding of a curve point (y &lt; p, no negative zero); the check is the
    /// cofactorless one: the encoding of [S]B - [k]A must be R's 32 bytes exactly, which also
    /// refuses an R that is not a canonical point encoding. Field elements are ref10's ten signed
    /// limbs of 26 and 25 bits, so every product fits in 64 bits; [S]B - [k]A is one
    /// sliding-window double-scalar multiplication. Only public data is handled, so it runs in
    /// variable time.
    /// </summary>
    internal static class Ed25519
    {
        /// <summary>The group order L = 2^252 + 27742317777372353535851937790883648493, little-endian.</summary>
        private static readonly byte[] GroupOrder =
        {
            0xed, 0xd3, 0xf5, 0x5c, 0x1a, 0x63, 0x12, 0x58, 0xd6, 0x9c, 0xf7, 0xa2, 0xde, 0xf9, 0xde, 0x14,
            0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x10,
        };

        // d, 2d and sqrt(-1) in the field. Not readonly: they are passed by reference, which C# 7
        // allows only for writable fields. Declared before BaseOddMultiples, whose initialiser reads them.
        private static FieldElement D = new FieldElement(
            -10913610, 13857413, -15372611, 6949391, 114729, -8787816, -6275908, -3247719, -18696448, -12055116);
        private static FieldElement D2 = new FieldElement(
            -21827239, -5839606, -30745221, 13898782, 229458, 15978800, -12551817, -6495438, 29715968, 9444199);
        private static FieldElement SqrtMinusOne = new FieldElement(
            -32595792, -7943725, 9377950, 3500415, 12389472, -272473, -25146209, -2005654, 326686, 11406482);

        /// <summary>B, 3B, 5B ... 15B: the base point's odd multiples the sliding window adds.</summary>
        private static readonly CachedPoint[] BaseOddMultiples = OddMultiples(BasePoint());

        public static bool Verify(byte[] publicKey, byte[] message, byte[] signature)
        {
            if (publicKey == null || publicKey.Length != 32 || signature == null || signature.Length != 64 || message == null)
                return false;
            var s = new byte[32];
            Buffer.BlockCopy(signature, 32, s, 0, 32);
            if (!IsBelowGroupOrder(s)) return false;
            ExtendedPoint a;
            if (!TryDecode(publicKey, out a)) return false;

            byte[] digest;
            using (var sha = SHA512.Create())
            {
                var input = new byte[64 + message.Length];
                Buffer.BlockCopy(signature, 0, input, 0, 32);
                Buffer.BlockCopy(publicKey, 0, input, 32, 32);
                Buffer.BlockCopy(message, 0, input, 64, message.Length);
                digest = sha.ComputeHash(input);
            }
            var k = ReduceModuloGroupOrder(digest);

            // [S]B = R + [k]A, checked as [S]B + [k](-A) = R.
            ExtendedPoint minusA;
            FieldElement.Negate(out minusA.X, ref a.X);
            minusA.Y = a.Y;
            minusA.Z = a.Z;
            FieldElement.Negate(out minusA.T, ref a.T);
            ProjectivePoint check;
            DoubleScalarMultiply(out check, k, ref minusA, s);
            var encoded = Encode(ref check);
            var difference = 0;
            for (var i = 0; i < 32; i++) difference |= encoded[i] ^ signature[i];
            return difference == 0;
        }

        private static bool IsBelowGroupOrder(byte[] scalar)
        {
            for (var i = 31; i >= 0; i--)
            {
                if (scalar[i] != GroupOrder[i]) return scalar[i] < GroupOrder[i];
            }
            return false;
        }

        /// <summary>
        /// The point a 32-byte encoding names (RFC 8032 section 5.1.3); false when it names none or
        /// is not the canonical encoding (y &gt;= p, or x = 0 with the sign bit set).
        /// </summary>
        private static bool TryDecode(byte[] encoded, out ExtendedPoint point)
        {
            point = default(ExtendedPoint);
            if (!IsCanonicalY(encoded)) return false;
            FieldElement u, v, v3, root, vxx, check;
            FieldElement.FromBytes(out point.Y, encoded);
            FieldElement.One(out point.Z);
            FieldElement.Square(out u, ref point.Y);
            FieldElement.Multiply(out v, ref u, ref D);
            FieldElement.Subtract(out u, ref u, ref point.Z); // u = y^2 - 1
            FieldElement.Add(out v, ref v, ref point.Z); // v = d y^2 + 1

            // x = u v^3 (u v^7)^((p-5)/8), a square root of u/v when there is one.
            FieldElement.Square(out v3, ref v);
            FieldElement.Multiply(out v3, ref v3, ref v);
            FieldElement.Square(out root, ref v3);
            FieldElement.Multiply(out root, ref root, ref v);
            FieldElement.Multiply(out root, ref root, ref u);
            FieldElement.PowerPMinus5Over8(out root, ref root);
            FieldElement.Multiply(out root, ref root, ref v3);
            FieldElement.Multiply(out point.X, ref root, ref u);

            FieldElement.Square(out vxx, ref point.X);
            FieldElement.Multiply(out vxx, ref vxx, ref v);
            FieldElement.Subtract(out check, ref vxx, ref u);
            if (!FieldElement.IsZero(ref check))
            {
                FieldElement.Add(out check, ref vxx, ref u);
                if (!FieldElement.IsZero(ref check)) return false;
                FieldElement.Multiply(out point.X, ref point.X, ref SqrtMinusOne);
            }
            var sign = encoded[31] >> 7;
            if (sign == 1 && FieldElement.IsZero(ref point.X)) return false;
            if (FieldElement.IsNegative(ref point.X) != sign) FieldElement.Negate(out point.X, ref point.X);
            FieldElement.Multiply(out point.T, ref point.X, ref point.Y);
            return true;
        }

        /// <summary>Is the encoding's y (its low 255 bits) below p = 2^255 - 19?</summary>
        private static bool IsCanonicalY(byte[] encoded)
        {
            if ((encoded[31] & 0x7f) != 0x7f || encoded[0] < 0xed) return true;
            for (var i = 1; i < 31; i++)
            {
                if (encoded[i] != 0xff) return true;
            }
            return false;
        }

        private static byte[] Encode(ref ProjectivePoint point)
        {
            FieldElement inverse, x, y;
            FieldElement.Invert(out inverse, ref point.Z);
            FieldElement.Multiply(out x, ref point.X, ref inverse);
            FieldElement.Multiply(out y, ref point.Y, ref inverse);
            var encoded = new byte[32];
            FieldElement.ToBytes(encoded, ref y);
            encoded[31] |= (byte)(FieldElement.IsNegative(ref x) << 7);
            return encoded;
        }

        private static ExtendedPoint BasePoint()
        {
            var encoded = new byte[32];
            encoded[0] = 0x58;
            for (var i = 1; i < 32; i++) encoded[i] = 0x66; // y = 4/5, x even
            ExtendedPoint point;
            if (!TryDecode(encoded, out point)) throw new InvalidOperationException("The Ed25519 base point does not decode");
            return point;
        }

        private static CachedPoint[] OddMultiples(ExtendedPoint point)
        {
            var multiples = new CachedPoint[8];
            CompletedPoint sum;
            ExtendedPoint twice, next;
            ToCached(out multiples[0], ref point);
            Double(out sum, ref point);
            ToExtended(out twice, ref sum);
            for (var i = 1; i < 8; i++)
            {
                Add(out sum, ref twice, ref multiples[i - 1]);
                ToExtended(out next, ref sum);
                ToCached(out multiples[i], ref next);
            }
            return multiples;
        }

        /// <summary>
        /// [a]A + [b]B, the scalars 32 bytes little-endian, with signed sliding windows of width 5
        /// (odd multiples up to 15) on both scalars and one shared chain of doublings.
        /// </summary>
        private static void DoubleScalarMultiply(out ProjectivePoint result, byte[] a, ref ExtendedPoint pointA, byte[] b)
        {
            var aSlide = Slide(a);
            var bSlide = Slide(b);
            var aOddMultiples = OddMultiples(pointA);
            var baseOddMultiples = BaseOddMultiples;
            FieldElement.Zero(out result.X);
            FieldElement.One(out result.Y);
            FieldElement.One(out result.Z);
            var i = 255;
            while (i >= 0 && aSlide[i] == 0 && bSlide[i] == 0) i--;
            CompletedPoint t;
            ExtendedPoint u;
            for (; i >= 0; i--)
            {
                Double(out t, ref result);
                if (aSlide[i] > 0)
                {
                    ToExtended(out u, ref t);
                    Add(out t, ref u, ref aOddMultiples[aSlide[i] / 2]);
                }
                else if (aSlide[i] < 0)
                {
                    ToExtended(out u, ref t);
                    Subtract(out t, ref u, ref aOddMultiples[-aSlide[i] / 2]);
                }
                if (bSlide[i] > 0)
                {
                    ToExtended(out u, ref t);
                    Add(out t, ref u, ref baseOddMultiples[bSlide[i] / 2]);
                }
                else if (bSlide[i] < 0)
                {
                    ToExtended(out u, ref t);
                    Subtract(out t, ref u, ref baseOddMultiples[-bSlide[i] / 2]);
                }
                ToProjective(out result, ref t);
            }
        }

        /// <summary>The scalar as 256 signed digits, each 0 or odd in -15..15, nonzero ones at least 5 apart.</summary>
        private static sbyte[] Slide(byte[] scalar)
        {
            var r = new sbyte[256];
            for (var i = 0; i < 256; i++) r[i] = (sbyte)(1 & (scalar[i >> 3] >> (i & 7)));
            for (var i = 0; i < 256; i++)
            {
                if (r[i] == 0) continue;
                for (var b = 1; b <= 6 && i + b < 256; b++)
                {
                    if (r[i + b] == 0) continue;
                    if (r[i] + (r[i + b] << b) <= 15)
                    {
                        r[i] += (sbyte)(r[i + b] << b);
                        r[i + b] = 0;
                    }
                    else if (r[i] - (r[i + b] << b) >= -15)
                    {
                        r[i] -= (sbyte)(r[i + b] << b);
                        for (var k = i + b; k < 256; k++)
                        {
                            if (r[k] == 0)
                            {
                                r[k] = 1;
                                break;
                            }
                            r[k] = 0;
                        }
                    }
                    else
                    {
                        break;
                    }
                }
            }
            return r;
        }

        /// <summary>A 64-byte little-endian number modulo the group order L, as 32 bytes.</summary>
        private static byte[] ReduceModuloGroupOrder(byte[] wide)
        {
            var x = new long[64];
            for (var i = 0; i < 64; i++) x[i] = wide[i];
            long carry;
            // Folds each byte above the 32nd into lower ones with 2^256 = -16 (L - 2^252) (mod L).
            for (var i = 63; i >= 32; i--)
            {
                carry = 0;
                int j;
                for (j = i - 32; j < i - 12; j++)
                {
                    x[j] += carry - 16 * x[i] * GroupOrder[j - (i - 32)];
                    carry = (x[j] + 128) >> 8;
                    x[j] -= carry << 8;
                }
                x[j] += carry;
                x[i] = 0;
            }
            carry = 0;
            for (var j = 0; j < 32; j++)
            {
                x[j] += carry - (x[31] >> 4) * GroupOrder[j];
                carry = x[j] >> 8;
                x[j] &= 255;
            }
            for (var j = 0; j < 32; j++) x[j] -= carry * GroupOrder[j];
            var reduced = new byte[32];
            for (var i = 0; i < 32; i++)
            {
                if (i < 31) x[i + 1] += x[i] >> 8;
                reduced[i] = (byte)(x[i] & 255);
            }
            return reduced;
        }

        // Point arithmetic on -x^2 + y^2 = 1 + d x^2 y^2, in ref10's representations.

        /// <summary>r = p + q.</summary>
        private static void Add(out CompletedPoint r, ref ExtendedPoint p, ref CachedPoint q)
        {
            FieldElement t0;
            FieldElement.Add(out r.X, ref p.Y, ref p.X);
            FieldElement.Subtract(out r.Y, ref p.Y, ref p.X);
            FieldElement.Multiply(out r.Z, ref r.X, ref q.YPlusX);
            FieldElement.Multiply(out r.Y, ref r.Y, ref q.YMinusX);
            FieldElement.Multiply(out r.T, ref q.T2D, ref p.T);
            FieldElement.Multiply(out r.X, ref p.Z, ref q.Z);
            FieldElement.Add(out t0, ref r.X, ref r.X);
            FieldElement.Subtract(out r.X, ref r.Z, ref r.Y);
            FieldElement.Add(out r.Y, ref r.Z, ref r.Y);
            FieldElement.Add(out r.Z, ref t0, ref r.T);
            FieldElement.Subtract(out r.T, ref t0, ref r.T);
        }

        /// <summary>r = p - q.</summary>
        private static void Subtract(out CompletedPoint r, ref ExtendedPoint p, ref CachedPoint q)
        {
            FieldElement t0;
            FieldElement.Add(out r.X, ref p.Y, ref p.X);
            FieldElement.Subtract(out r.Y, ref p.Y, ref p.X);
            FieldElement.Multiply(out r.Z, ref r.X, ref q.YMinusX);
            FieldElement.Multiply(out r.Y, ref r.Y, ref q.YPlusX);
            FieldElement.Multiply(out r.T, ref q.T2D, ref p.T);
            FieldElement.Multiply(out r.X, ref p.Z, ref q.Z);
            FieldElement.Add(out t0, ref r.X, ref r.X);
            FieldElement.Subtract(out r.X, ref r.Z, ref r.Y);
            FieldElement.Add(out r.Y, ref r.Z, ref r.Y);
            FieldElement.Subtract(out r.Z, ref t0, ref r.T);
            FieldElement.Add(out r.T, ref t0, ref r.T);
        }

        /// <summary>r = 2p.</summary>
        private static void Double(out CompletedPoint r, ref ProjectivePoint p)
        {
            FieldElement t0;
            FieldElement.Square(out r.X, ref p.X);
            FieldElement.Square(out r.Z, ref p.Y);
            FieldElement.SquareDoubled(out r.T, ref p.Z);
            FieldElement.Add(out r.Y, ref p.X, ref p.Y);
            FieldElement.Square(out t0, ref r.Y);
            FieldElement.Add(out r.Y, ref r.Z, ref r.X);
            FieldElement.Subtract(out r.Z, ref r.Z, ref r.X);
            FieldElement.Subtract(out r.X, ref t0, ref r.Y);
            FieldElement.Subtract(out r.T, ref r.T, ref r.Z);
        }

        private static void Double(out CompletedPoint r, ref ExtendedPoint p)
        {
            ProjectivePoint q;
            q.X = p.X;
            q.Y = p.Y;
            q.Z = p.Z;
            Double(out r, ref q);
        }

        private static void ToProjective(out ProjectivePoint r, ref CompletedPoint p)
        {
            FieldElement.Multiply(out r.X, ref p.X, ref p.T);
            FieldElement.Multiply(out r.Y, ref p.Y, ref p.Z);
            FieldElement.Multiply(out r.Z, ref p.Z, ref p.T);
        }

        private static void ToExtended(out ExtendedPoint r, ref CompletedPoint p)
        {
            FieldElement.Multiply(out r.X, ref p.X, ref p.T);
            FieldElement.Multiply(out r.Y, ref p.Y, ref p.Z);
            FieldElement.Multiply(out r.Z, ref p.Z, ref p.T);
            FieldElement.Multiply(out r.T, ref p.X, ref p.Y);
        }

        private static void ToCached(out CachedPoint r, ref ExtendedPoint p)
        {
            FieldElement.Add(out r.YPlusX, ref p.Y, ref p.X);
            FieldElement.Subtract(out r.YMinusX, ref p.Y, ref p.X);
            r.Z = p.Z;
            FieldElement.Multiply(out r.T2D, ref p.T, ref D2);
        }

        /// <summary>(X:Y:Z) with x = X/Z, y = Y/Z.</summary>
        private struct ProjectivePoint
        {
            public FieldElement X, Y, Z;
        }

        /// <summary>(X:Y:Z:T) with x = X/Z, y = Y/Z, xy = T/Z.</summary>
        private struct ExtendedPoint
        {
            public FieldElement X, Y, Z, T;
        }

        /// <summary>((X:Z),(Y:T)) with x = X/Z, y = Y/T: a sum or a double before its conversion.</summary>
        private struct CompletedPoint
        {
            public FieldElement X, Y, Z, T;
        }

        /// <summary>(Y+X, Y-X, Z, 2dT) of an extended point: what an addition reads of its second operand.</summary>
        private struct CachedPoint
        {
            public FieldElement YPlusX, YMinusX, Z, T2D;
        }

        /// <summary>
        /// An element of GF(2^255 - 19) as x0 + 2^26 x1 + 2^51 x2 + 2^77 x3 + ... + 2^230 x9, the
        /// limbs signed and, between operations, within ref10's bounds (about 2^26 for the even
        /// ones and 2^25 for the odd ones after a multiplication), so no product overflows 64 bits.
        /// </summary>
        private struct FieldElement
        {
            public int x0, x1, x2, x3, x4, x5, x6, x7, x8, x9;

            public FieldElement(int x0, int x1, int x2, int x3, int x4, int x5, int x6, int x7, int x8, int x9)
            {
                this.x0 = x0;
                this.x1 = x1;
                this.x2 = x2;
                this.x3 = x3;
                this.x4 = x4;
                this.x5 = x5;
                this.x6 = x6;
                this.x7 = x7;
                this.x8 = x8;
                this.x9 = x9;
            }

            public static void Zero(out FieldElement h)
            {
                h = default(FieldElement);
            }

            public static void One(out FieldElement h)
            {
                h = default(FieldElement);
                h.x0 = 1;
            }

            public static void Add(out FieldElement h, ref FieldElement f, ref FieldElement g)
            {
                h.x0 = f.x0 + g.x0;
                h.x1 = f.x1 + g.x1;
                h.x2 = f.x2 + g.x2;
                h.x3 = f.x3 + g.x3;
                h.x4 = f.x4 + g.x4;
                h.x5 = f.x5 + g.x5;
                h.x6 = f.x6 + g.x6;
                h.x7 = f.x7 + g.x7;
                h.x8 = f.x8 + g.x8;
                h.x9 = f.x9 + g.x9;
            }

            public static void Subtract(out FieldElement h, ref FieldElement f, ref FieldElement g)
            {
                h.x0 = f.x0 - g.x0;
                h.x1 = f.x1 - g.x1;
                h.x2 = f.x2 - g.x2;
                h.x3 = f.x3 - g.x3;
                h.x4 = f.x4 - g.x4;
                h.x5 = f.x5 - g.x5;
                h.x6 = f.x6 - g.x6;
                h.x7 = f.x7 - g.x7;
                h.x8 = f.x8 - g.x8;
                h.x9 = f.x9 - g.x9;
            }

            public static void Negate(out FieldElement h, ref FieldElement f)
            {
                h.x0 = -f.x0;
                h.x1 = -f.x1;
                h.x2 = -f.x2;
                h.x3 = -f.x3;
                h.x4 = -f.x4;
                h.x5 = -f.x5;
                h.x6 = -f.x6;
                h.x7 = -f.x7;
                h.x8 = -f.x8;
                h.x9 = -f.x9;
            }

            /// <summary>
            /// h = f g (h may be f or g): schoolbook, the factors 2 and 19 folded into the limbs
            /// beforehand, then one carry chain. Each output limb is one sum of products, not ref10's
            /// hundred named products: Mono's JIT runs it about 40% faster so.
            /// </summary>
            public static void Multiply(out FieldElement h, ref FieldElement f, ref FieldElement g)
            {
                int f0 = f.x0; int f1 = f.x1; int f2 = f.x2; int f3 = f.x3; int f4 = f.x4; int f5 = f.x5;
                int f6 = f.x6; int f7 = f.x7; int f8 = f.x8; int f9 = f.x9; int g0 = g.x0; int g1 = g.x1;
                int g2 = g.x2; int g3 = g.x3; int g4 = g.x4; int g5 = g.x5; int g6 = g.x6; int g7 = g.x7;
                int g8 = g.x8; int g9 = g.x9; int g1_19 = 19 * g1; int g2_19 = 19 * g2; int g3_19 = 19 * g3;
                int g4_19 = 19 * g4; int g5_19 = 19 * g5; int g6_19 = 19 * g6; int g7_19 = 19 * g7;
                int g8_19 = 19 * g8; int g9_19 = 19 * g9; int f1_2 = 2 * f1; int f3_2 = 2 * f3;
                int f5_2 = 2 * f5; int f7_2 = 2 * f7; int f9_2 = 2 * f9;
                long h0 = (long)f0 * g0 + (long)f1_2 * g9_19 + (long)f2 * g8_19 + (long)f3_2 * g7_19
                    + (long)f4 * g6_19 + (long)f5_2 * g5_19 + (long)f6 * g4_19 + (long)f7_2 * g3_19
                    + (long)f8 * g2_19 + (long)f9_2 * g1_19;
                long h1 = (long)f0 * g1 + (long)f1 * g0 + (long)f2 * g9_19 + (long)f3 * g8_19
                    + (long)f4 * g7_19 + (long)f5 * g6_19 + (long)f6 * g5_19 + (long)f7 * g4_19
                    + (long)f8 * g3_19 + (long)f9 * g2_19;
                long h2 = (long)f0 * g2 + (long)f1_2 * g1 + (long)f2 * g0 + (long)f3_2 * g9_19
                    + (long)f4 * g8_19 + (long)f5_2 * g7_19 + (long)f6 * g6_19 + (long)f7_2 * g5_19
                    + (long)f8 * g4_19 + (long)f9_2 * g3_19;
                long h3 = (long)f0 * g3 + (long)f1 * g2 + (long)f2 * g1 + (long)f3 * g0 + (long)f4 * g9_19
                    + (long)f5 * g8_19 + (long)f6 * g7_19 + (long)f7 * g6_19 + (long)f8 * g5_19
                    + (long)f9 * g4_19;
                long h4 = (long)f0 * g4 + (long)f1_2 * g3 + (long)f2 * g2 + (long)f3_2 * g1 + (long)f4 * g0
                    + (long)f5_2 * g9_19 + (long)f6 * g8_19 + (long)f7_2 * g7_19 + (long)f8 * g6_19
                    + (long)f9_2 * g5_19;
                long h5 = (long)f0 * g5 + (long)f1 * g4 + (long)f2 * g3 + (long)f3 * g2 + (long)f4 * g1
                    + (long)f5 * g0 + (long)f6 * g9_19 + (long)f7 * g8_19 + (long)f8 * g7_19
                    + (long)f9 * g6_19;
                long h6 = (long)f0 * g6 + (long)f1_2 * g5 + (long)f2 * g4 + (long)f3_2 * g3 + (long)f4 * g2
                    + (long)f5_2 * g1 + (long)f6 * g0 + (long)f7_2 * g9_19 + (long)f8 * g8_19
                    + (long)f9_2 * g7_19;
                long h7 = (long)f0 * g7 + (long)f1 * g6 + (long)f2 * g5 + (long)f3 * g4 + (long)f4 * g3
                    + (long)f5 * g2 + (long)f6 * g1 + (long)f7 * g0 + (long)f8 * g9_19 + (long)f9 * g8_19;
                long h8 = (long)f0 * g8 + (long)f1_2 * g7 + (long)f2 * g6 + (long)f3_2 * g5 + (long)f4 * g4
                    + (long)f5_2 * g3 + (long)f6 * g2 + (long)f7_2 * g1 + (long)f8 * g0 + (long)f9_2 * g9_19;
                long h9 = (long)f0 * g9 + (long)f1 * g8 + (long)f2 * g7 + (long)f3 * g6 + (long)f4 * g5
                    + (long)f5 * g4 + (long)f6 * g3 + (long)f7 * g2 + (long)f8 * g1 + (long)f9 * g0;
                long carry0, carry1, carry2, carry3, carry4, carry5, carry6, carry7, carry8, carry9;
                carry0 = (h0 + (long)(1 << 25)) >> 26; h1 += carry0; h0 -= carry0 << 26;
                carry4 = (h4 + (long)(1 << 25)) >> 26; h5 += carry4; h4 -= carry4 << 26;
                carry1 = (h1 + (long)(1 << 24)) >> 25; h2 += carry1; h1 -= carry1 << 25;
                carry5 = (h5 + (long)(1 << 24)) >> 25; h6 += carry5; h5 -= carry5 << 25;
                carry2 = (h2 + (long)(1 << 25)) >> 26; h3 += carry2; h2 -= carry2 << 26;
                carry6 = (h6 + (long)(1 << 25)) >> 26; h7 += carry6; h6 -= carry6 << 26;
                carry3 = (h3 + (long)(1 << 24)) >> 25; h4 += carry3; h3 -= carry3 << 25;
                carry7 = (h7 + (long)(1 << 24)) >> 25; h8 += carry7; h7 -= carry7 << 25;
                carry4 = (h4 + (long)(1 << 25)) >> 26; h5 += carry4; h4 -= carry4 << 26;
                carry8 = (h8 + (long)(1 << 25)) >> 26; h9 += carry8; h8 -= carry8 << 26;
                carry9 = (h9 + (long)(1 << 24)) >> 25; h0 += carry9 * 19; h9 -= carry9 << 25;
                carry0 = (h0 + (long)(1 << 25)) >> 26; h1 += carry0; h0 -= carry0 << 26;
                h.x0 = (int)h0; h.x1 = (int)h1; h.x2 = (int)h2; h.x3 = (int)h3; h.x4 = (int)h4; h.x5 = (int)h5;
                h.x6 = (int)h6; h.x7 = (int)h7; h.x8 = (int)h8; h.x9 = (int)h9;
            }

            public static void Square(out FieldElement h, ref FieldElement f)
            {
                Square(out h, ref f, false);
            }

            /// <summary>h = 2 f^2, doubled before the carries so its limbs stay within a product's bounds.</summary>
            public static void SquareDoubled(out FieldElement h, ref FieldElement f)
            {
                Square(out h, ref f, true);
            }

            private static void Square(out FieldElement h, ref FieldElement f, bool isDoubled)
            {
                int f0 = f.x0; int f1 = f.x1; int f2 = f.x2; int f3 = f.x3; int f4 = f.x4; int f5 = f.x5;
                int f6 = f.x6; int f7 = f.x7; int f8 = f.x8; int f9 = f.x9; int f0_2 = 2 * f0;
                int f1_2 = 2 * f1; int f2_2 = 2 * f2; int f3_2 = 2 * f3; int f4_2 = 2 * f4; int f5_2 = 2 * f5;
                int f6_2 = 2 * f6; int f7_2 = 2 * f7; int f5_38 = 38 * f5; int f6_19 = 19 * f6;
                int f7_38 = 38 * f7; int f8_19 = 19 * f8; int f9_38 = 38 * f9;
                long h0 = (long)f0 * f0 + (long)f1_2 * f9_38 + (long)f2_2 * f8_19 + (long)f3_2 * f7_38
                    + (long)f4_2 * f6_19 + (long)f5 * f5_38;
                long h1 = (long)f0_2 * f1 + (long)f2 * f9_38 + (long)f3_2 * f8_19 + (long)f4 * f7_38
                    + (long)f5_2 * f6_19;
                long h2 = (long)f0_2 * f2 + (long)f1_2 * f1 + (long)f3_2 * f9_38 + (long)f4_2 * f8_19
                    + (long)f5_2 * f7_38 + (long)f6 * f6_19;
                long h3 = (long)f0_2 * f3 + (long)f1_2 * f2 + (long)f4 * f9_38 + (long)f5_2 * f8_19
                    + (long)f6 * f7_38;
                long h4 = (long)f0_2 * f4 + (long)f1_2 * f3_2 + (long)f2 * f2 + (long)f5_2 * f9_38
                    + (long)f6_2 * f8_19 + (long)f7 * f7_38;
                long h5 = (long)f0_2 * f5 + (long)f1_2 * f4 + (long)f2_2 * f3 + (long)f6 * f9_38
                    + (long)f7_2 * f8_19;
                long h6 = (long)f0_2 * f6 + (long)f1_2 * f5_2 + (long)f2_2 * f4 + (long)f3_2 * f3
                    + (long)f7_2 * f9_38 + (long)f8 * f8_19;
                long h7 = (long)f0_2 * f7 + (long)f1_2 * f6 + (long)f2_2 * f5 + (long)f3_2 * f4
                    + (long)f8 * f9_38;
                long h8 = (long)f0_2 * f8 + (long)f1_2 * f7_2 + (long)f2_2 * f6 + (long)f3_2 * f5_2
                    + (long)f4 * f4 + (long)f9 * f9_38;
                long h9 = (long)f0_2 * f9 + (long)f1_2 * f8 + (long)f2_2 * f7 + (long)f3_2 * f6
                    + (long)f4_2 * f5;
                long carry0, carry1, carry2, carry3, carry4, carry5, carry6, carry7, carry8, carry9;
                if (isDoubled)
                {
                    h0 += h0; h1 += h1; h2 += h2; h3 += h3; h4 += h4; h5 += h5; h6 += h6; h7 += h7; h8 += h8;
                    h9 += h9;
                }
                carry0 = (h0 + (long)(1 << 25)) >> 26; h1 += carry0; h0 -= carry0 << 26;
                carry4 = (h4 + (long)(1 << 25)) >> 26; h5 += carry4; h4 -= carry4 << 26;
                carry1 = (h1 + (long)(1 << 24)) >> 25; h2 += carry1; h1 -= carry1 << 25;
                carry5 = (h5 + (long)(1 << 24)) >> 25; h6 += carry5; h5 -= carry5 << 25;
                carry2 = (h2 + (long)(1 << 25)) >> 26; h3 += carry2; h2 -= carry2 << 26;
                carry6 = (h6 + (long)(1 << 25)) >> 26; h7 += carry6; h6 -= carry6 << 26;
                carry3 = (h3 + (long)(1 << 24)) >> 25; h4 += carry3; h3 -= carry3 << 25;
                carry7 = (h7 + (long)(1 << 24)) >> 25; h8 += carry7; h7 -= carry7 << 25;
                carry4 = (h4 + (long)(1 << 25)) >> 26; h5 += carry4; h4 -= carry4 << 26;
                carry8 = (h8 + (long)(1 << 25)) >> 26; h9 += carry8; h8 -= carry8 << 26;
                carry9 = (h9 + (long)(1 << 24)) >> 25; h0 += carry9 * 19; h9 -= carry9 << 25;
                carry0 = (h0 + (long)(1 << 25)) >> 26; h1 += carry0; h0 -= carry0 << 26;
                h.x0 = (int)h0; h.x1 = (int)h1; h.x2 = (int)h2; h.x3 = (int)h3; h.x4 = (int)h4; h.x5 = (int)h5;
                h.x6 = (int)h6; h.x7 = (int)h7; h.x8 = (int)h8; h.x9 = (int)h9;
            }

            /// <summary>f^((p-5)/8) = f^(2^252 - 3), by ref10's chain of squarings.</summary>
            public static void PowerPMinus5Over8(out FieldElement h, ref FieldElement f)
            {
                FieldElement t0, t1, t2;
                Square(out t0, ref f);
                SquareTimes(out t1, ref t0, 2);
                Multiply(out t1, ref f, ref t1);
                Multiply(out t0, ref t0, ref t1);
                Square(out t0, ref t0);
                Multiply(out t0, ref t1, ref t0); // f^(2^5 - 1)
                SquareTimes(out t1, ref t0, 5);
                Multiply(out t0, ref t1, ref t0); // f^(2^10 - 1)
                SquareTimes(out t1, ref t0, 10);
                Multiply(out t1, ref t1, ref t0); // f^(2^20 - 1)
                SquareTimes(out t2, ref t1, 20);
                Multiply(out t1, ref t2, ref t1); // f^(2^40 - 1)
                SquareTimes(out t1, ref t1, 10);
                Multiply(out t0, ref t1, ref t0); // f^(2^50 - 1)
                SquareTimes(out t1, ref t0, 50);
                Multiply(out t1, ref t1, ref t0); // f^(2^100 - 1)
                SquareTimes(out t2, ref t1, 100);
                Multiply(out t1, ref t2, ref t1); // f^(2^200 - 1)
                SquareTimes(out t1, ref t1, 50);
                Multiply(out t0, ref t1, ref t0); // f^(2^250 - 1)
                SquareTimes(out t0, ref t0, 2);
                Multiply(out h, ref t0, ref f); // f^(2^252 - 3)
            }

            /// <summary>1/f = f^(p-2) = (f^((p-5)/8))^8 f^3.</summary>
            public static void Invert(out FieldElement h, ref FieldElement f)
            {
                FieldElement power, cube;
                PowerPMinus5Over8(out power, ref f);
                SquareTimes(out power, ref power, 3);
                Square(out cube, ref f);
                Multiply(out cube, ref cube, ref f);
                Multiply(out h, ref power, ref cube);
            }

            private static void SquareTimes(out FieldElement h, ref FieldElement f, int times)
            {
                Square(out h, ref f);
                for (var i = 1; i < times; i++) Square(out h, ref h);
            }

            /// <summary>The low 255 bits of 32 little-endian bytes (the top bit, a point's sign, is ignored).</summary>
            public static void FromBytes(out FieldElement h, byte[] data)
            {
                long h0 = Load4(data, 0); long h1 = Load3(data, 4) << 6; long h2 = Load3(data, 7) << 5;
                long h3 = Load3(data, 10) << 3; long h4 = Load3(data, 13) << 2; long h5 = Load4(data, 16);
                long h6 = Load3(data, 20) << 7; long h7 = Load3(data, 23) << 5; long h8 = Load3(data, 26) << 4;
                long h9 = (Load3(data, 29) & 8388607) << 2;
                long carry0, carry1, carry2, carry3, carry4, carry5, carry6, carry7, carry8, carry9;
                carry9 = (h9 + (long)(1 << 24)) >> 25; h0 += carry9 * 19; h9 -= carry9 << 25;
                carry1 = (h1 + (long)(1 << 24)) >> 25; h2 += carry1; h1 -= carry1 << 25;
                carry3 = (h3 + (long)(1 << 24)) >> 25; h4 += carry3; h3 -= carry3 << 25;
                carry5 = (h5 + (long)(1 << 24)) >> 25; h6 += carry5; h5 -= carry5 << 25;
                carry7 = (h7 + (long)(1 << 24)) >> 25; h8 += carry7; h7 -= carry7 << 25;
                carry0 = (h0 + (long)(1 << 25)) >> 26; h1 += carry0; h0 -= carry0 << 26;
                carry2 = (h2 + (long)(1 << 25)) >> 26; h3 += carry2; h2 -= carry2 << 26;
                carry4 = (h4 + (long)(1 << 25)) >> 26; h5 += carry4; h4 -= carry4 << 26;
                carry6 = (h6 + (long)(1 << 25)) >> 26; h7 += carry6; h6 -= carry6 << 26;
                carry8 = (h8 + (long)(1 << 25)) >> 26; h9 += carry8; h8 -= carry8 << 26;
                h.x0 = (int)h0; h.x1 = (int)h1; h.x2 = (int)h2; h.x3 = (int)h3; h.x4 = (int)h4; h.x5 = (int)h5;
                h.x6 = (int)h6; h.x7 = (int)h7; h.x8 = (int)h8; h.x9 = (int)h9;
            }

            /// <summary>The canonical 32 bytes of h (reduced below p, top bit clear).</summary>
            public static void ToBytes(byte[] s, ref FieldElement h)
            {
                FieldElement hr;
                Reduce(out hr, ref h);
                int h0 = hr.x0; int h1 = hr.x1; int h2 = hr.x2; int h3 = hr.x3; int h4 = hr.x4; int h5 = hr.x5;
                int h6 = hr.x6; int h7 = hr.x7; int h8 = hr.x8; int h9 = hr.x9;
                unchecked
                {
                    s[0] = (byte)(h0 >> 0); s[1] = (byte)(h0 >> 8); s[2] = (byte)(h0 >> 16);
                    s[3] = (byte)((h0 >> 24) | (h1 << 2)); s[4] = (byte)(h1 >> 6); s[5] = (byte)(h1 >> 14);
                    s[6] = (byte)((h1 >> 22) | (h2 << 3)); s[7] = (byte)(h2 >> 5); s[8] = (byte)(h2 >> 13);
                    s[9] = (byte)((h2 >> 21) | (h3 << 5)); s[10] = (byte)(h3 >> 3); s[11] = (byte)(h3 >> 11);
                    s[12] = (byte)((h3 >> 19) | (h4 << 6)); s[13] = (byte)(h4 >> 2); s[14] = (byte)(h4 >> 10);
                    s[15] = (byte)(h4 >> 18); s[16] = (byte)(h5 >> 0); s[17] = (byte)(h5 >> 8);
                    s[18] = (byte)(h5 >> 16); s[19] = (byte)((h5 >> 24) | (h6 << 1)); s[20] = (byte)(h6 >> 7);
                    s[21] = (byte)(h6 >> 15); s[22] = (byte)((h6 >> 23) | (h7 << 3)); s[23] = (byte)(h7 >> 5);
                    s[24] = (byte)(h7 >> 13); s[25] = (byte)((h7 >> 21) | (h8 << 4)); s[26] = (byte)(h8 >> 4);
                    s[27] = (byte)(h8 >> 12); s[28] = (byte)((h8 >> 20) | (h9 << 6)); s[29] = (byte)(h9 >> 2);
                    s[30] = (byte)(h9 >> 10); s[31] = (byte)(h9 >> 18);
                }
            }

            public static bool IsZero(ref FieldElement f)
            {
                FieldElement r;
                Reduce(out r, ref f);
                return (r.x0 | r.x1 | r.x2 | r.x3 | r.x4 | r.x5 | r.x6 | r.x7 | r.x8 | r.x9) == 0;
            }

            /// <summary>1 when f, reduced below p, is odd (RFC 8032's "negative" x), else 0.</summary>
            public static int IsNegative(ref FieldElement f)
            {
                FieldElement r;
                Reduce(out r, ref f);
                return r.x0 & 1;
            }

            /// <summary>h reduced below p, in limbs of exactly 26 and 25 bits.</summary>
            private static void Reduce(out FieldElement hr, ref FieldElement h)
            {
                int h0 = h.x0; int h1 = h.x1; int h2 = h.x2; int h3 = h.x3; int h4 = h.x4; int h5 = h.x5;
                int h6 = h.x6; int h7 = h.x7; int h8 = h.x8; int h9 = h.x9;
                int q, carry0, carry1, carry2, carry3, carry4, carry5, carry6, carry7, carry8, carry9;
                q = (19 * h9 + (1 << 24)) >> 25; q = (h0 + q) >> 26; q = (h1 + q) >> 25; q = (h2 + q) >> 26;
                q = (h3 + q) >> 25; q = (h4 + q) >> 26; q = (h5 + q) >> 25; q = (h6 + q) >> 26;
                q = (h7 + q) >> 25; q = (h8 + q) >> 26; q = (h9 + q) >> 25; h0 += 19 * q;
                carry0 = h0 >> 26; h1 += carry0; h0 -= carry0 << 26;
                carry1 = h1 >> 25; h2 += carry1; h1 -= carry1 << 25;
                carry2 = h2 >> 26; h3 += carry2; h2 -= carry2 << 26;
                carry3 = h3 >> 25; h4 += carry3; h3 -= carry3 << 25;
                carry4 = h4 >> 26; h5 += carry4; h4 -= carry4 << 26;
                carry5 = h5 >> 25; h6 += carry5; h5 -= carry5 << 25;
                carry6 = h6 >> 26; h7 += carry6; h6 -= carry6 << 26;
                carry7 = h7 >> 25; h8 += carry7; h7 -= carry7 << 25;
                carry8 = h8 >> 26; h9 += carry8; h8 -= carry8 << 26;
                carry9 = h9 >> 25; h9 -= carry9 << 25; hr.x0 = h0; hr.x1 = h1; hr.x2 = h2; hr.x3 = h3;
                hr.x4 = h4; hr.x5 = h5; hr.x6 = h6; hr.x7 = h7; hr.x8 = h8; hr.x9 = h9;
            }

            private static long Load3(byte[] data, int offset)
            {
                return data[offset] | (long)data[offset + 1] << 8 | (long)data[offset + 2] << 16;
            }

            private static long Load4(byte[] data, int offset)
            {
                return Load3(data, offset) | (long)data[offset + 3] << 24;
            }
        }
    }
}
