// Tests of the sample's managed Ed25519 verifier, response check and offline licence check. Not part of the sample a vendor
// copies: compiled together with LatchkeyClient.cs with -define:LATCHKEY_TESTS (which swaps Main), e.g.
//   mcs -langversion:7 -define:LATCHKEY_TESTS -r:System.Windows.Forms.dll -r:System.Drawing.dll
//       -r:System.Net.Http.dll -r:System.Runtime.Serialization.dll -r:System.Numerics.dll
//       -out:verifier-tests.exe LatchkeyClient.cs VerifierTests.cs
// Prints "ok <name>" or "FAIL <name>" per case; the exit code is the number of failures.
#if LATCHKEY_TESTS
using System;
using System.Numerics;
using System.Security.Cryptography;
using System.Text;

namespace LatchkeySample
{
    public static class VerifierTests
    {
        private static int failures;

        private static void Check(string name, bool isPassing)
        {
            Console.WriteLine((isPassing ? "ok " : "FAIL ") + name);
            if (!isPassing) failures++;
        }

        private static byte[] Hex(string hex)
        {
            return LatchkeyClient.ParseHex(hex);
        }

        // RFC 8032 section 7.1: public key, message, signature.
        private static readonly string[][] Rfc8032Vectors =
        {
            new[]
            {
                "test 1",
                "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a",
                "",
                "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b",
            },
            new[]
            {
                "test 2",
                "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c",
                "72",
                "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00",
            },
            new[]
            {
                "test 3",
                "fc51cd8e6218a1a38da47ed00230f0580816ed13ba3303ac5deb911548908025",
                "af82",
                "6291d657deec24024827e69c3abe01a30ce548a284743a445e3680d7db5ac3ac18ff9b538d16f290ae67f760984dc6594a7c15e9716ed28dc027beceea1ec40a",
            },
            new[]
            {
                "test SHA(abc)",
                "ec172b93ad5e563bf4932c70e1245034c35467ef2efd4d64ebf819683467e2bf",
                "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f",
                "dc2a4459e7369633a52b1bf277839a00201009a3efbf3ecb69bea2186c26b58909351fc9ac90b3ecfdfbc7c66431e0303dca179c138ac17ad9bef1177331a704",
            },
        };

        // docs/client-api.md, "Worked example" (the RFC 8032 test-1 key).
        private const string ExamplePublicKey = "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a";
        private const string ExampleTimestamp = "1775044800";
        private const string ExampleNonce = "c2f1b6a0-7e44-4f7e-9d1b-0b8f6f7f9e11";
        private const string ExampleBody = "{\"success\":true,\"message\":\"User verified\",\"code\":\"OK\"}";
        private const string ExampleSignature = "cfccec4a7f60fa37eee036f851e1e9ee875e33ba0eedfcd95150cbc94d9abb44cf97529416254ca29e28c50d7b344b52fe770894ddbd5c02a0fa6a102f096201";

        // docs/client-api.md, "Worked licence example": application 42, HWID DESKTOP-7F3K, issued
        // 2026-06-01T12:00:00Z, valid until 2026-06-08T12:00:00Z, signed with the same key.
        private const string ExampleLicense =
            "LK1.eyJhcHBsaWNhdGlvbl9pZCI6NDIsInVzZXJfaWQiOiIwYjBmN2MxZS01ZDJhLTRjMWUtOWYzYi02YTdkOGU5ZjBhMWIi" +
            "LCJ1c2VybmFtZSI6ImFsaWNlIiwiaHdpZCI6IkRFU0tUT1AtN0YzSyIsImVudGl0bGVtZW50cyI6WyJFWFBPUlRfUERGIiwi" +
            "UFJPIl0sInN1YnNjcmlwdGlvbnMiOlt7InBsYW4iOiJQcm8iLCJleHBpcmVzX2F0IjoiMjAyNi0wNy0wMVQxMjowMDowMC4w" +
            "MDBaIn1dLCJhY2NvdW50X2V4cGlyZXNfYXQiOm51bGwsImlzc3VlZF9hdCI6IjIwMjYtMDYtMDFUMTI6MDA6MDAuMDAwWiIs" +
            "InZhbGlkX3VudGlsIjoiMjAyNi0wNi0wOFQxMjowMDowMC4wMDBaIiwiaWQiOiI1ZTFjMmI3YS05ZDRmLTRlOGEtYjNjNi0x" +
            "ZjJlM2Q0YzViNmEifQ.gXxZitkGitki-qpbCaGJIDK4PJIMwOzX2X01FKhihO_kDHH4ec5U0X_Iq4ApRnWZb7muw2vpL9IIid7" +
            "Opw4TCg";
        private const string LicenseHwid = "DESKTOP-7F3K";
        private const long LicenseIssuedAt = 1780315200;
        private const long LicenseValidUntil = 1780920000;

        private static OfflineCheck CheckLicense(string license, long now, long lastSeen = 0, string hwid = LicenseHwid,
            string publicKey = ExamplePublicKey, long? applicationId = 42)
        {
            return OfflineLicense.Check(license, Hex(publicKey), hwid, now, lastSeen, applicationId);
        }

        private static void CheckVerdict(string name, OfflineCheck check, OfflineVerdict expected)
        {
            Check("licence: " + name, check.Verdict == expected);
            if (check.Verdict != expected) Console.WriteLine("  (the verdict was " + check.Verdict + ")");
        }

        /// <summary>The licence with one character of its payload segment changed (the signature kept).</summary>
        private static string Edited(string license, int position)
        {
            var characters = license.ToCharArray();
            characters[position] = characters[position] == 'A' ? 'B' : 'A';
            return new string(characters);
        }

        /// <summary>
        /// Re-encodings of the worked licence: some decode, leniently, to its very bytes (the
        /// signature covers the payload's text, not the signature's), and each is refused.
        /// </summary>
        private static void CheckReEncodings(long during)
        {
            var segments = ExampleLicense.Split('.');
            var payload = segments[1];
            var signature = segments[2];
            var lastBitsChanged = signature.Substring(0, signature.Length - 1) + (signature.EndsWith("g") ? "h" : "g");
            Check("licence: the last signature character changed in its unused bits decodes to the same bytes",
                Convert.ToBase64String(Convert.FromBase64String(lastBitsChanged.Replace('-', '+').Replace('_', '/') + "=="))
                == Convert.ToBase64String(Convert.FromBase64String(signature.Replace('-', '+').Replace('_', '/') + "==")));
            CheckVerdict("a trailing newline is refused", CheckLicense(ExampleLicense + "\n", during), OfflineVerdict.NotSigned);
            CheckVerdict("the payload padded is refused", CheckLicense("LK1." + payload + "==." + signature, during), OfflineVerdict.NotSigned);
            CheckVerdict("the signature padded is refused", CheckLicense("LK1." + payload + "." + signature + "==", during), OfflineVerdict.NotSigned);
            CheckVerdict("a space inside the payload is refused",
                CheckLicense("LK1." + payload.Insert(20, " ") + "." + signature, during), OfflineVerdict.NotSigned);
            CheckVerdict("a space inside the signature is refused",
                CheckLicense("LK1." + payload + "." + signature.Insert(20, " "), during), OfflineVerdict.NotSigned);
            var index = signature.IndexOf('-');
            CheckVerdict("a + for the - of the signature is refused",
                CheckLicense("LK1." + payload + "." + signature.Substring(0, index) + "+" + signature.Substring(index + 1), during),
                OfflineVerdict.NotSigned);
            CheckVerdict("the last signature character changed in its unused bits is refused",
                CheckLicense("LK1." + payload + "." + lastBitsChanged, during), OfflineVerdict.NotSigned);
        }

        private static void CheckOfflineLicences()
        {
            var during = LicenseIssuedAt + 3600;
            var valid = CheckLicense(ExampleLicense, during);
            CheckVerdict("the documented licence is accepted", valid, OfflineVerdict.Accepted);
            Check("licence: the documented licence names alice, holding EXPORT_PDF and PRO",
                valid.Content != null && valid.Content.Username == "alice" && valid.Content.UserId == "0b0f7c1e-5d2a-4c1e-9f3b-6a7d8e9f0a1b" &&
                string.Join(",", valid.Content.Entitlements) == "EXPORT_PDF,PRO");
            CheckVerdict("the documented licence, application not checked, is accepted",
                CheckLicense(ExampleLicense, during, 0, LicenseHwid, ExamplePublicKey, null), OfflineVerdict.Accepted);
            CheckVerdict("at its valid_until it is accepted", CheckLicense(ExampleLicense, LicenseValidUntil), OfflineVerdict.Accepted);
            CheckVerdict("a second after its valid_until it has expired", CheckLicense(ExampleLicense, LicenseValidUntil + 1), OfflineVerdict.Expired);
            CheckVerdict("another hwid is another machine", CheckLicense(ExampleLicense, during, 0, "DESKTOP-7F3L"), OfflineVerdict.OtherMachine);
            CheckVerdict("an empty hwid is another machine", CheckLicense(ExampleLicense, during, 0, ""), OfflineVerdict.OtherMachine);
            CheckVerdict("another application is refused", CheckLicense(ExampleLicense, during, 0, LicenseHwid, ExamplePublicKey, 43), OfflineVerdict.NotSigned);
            CheckVerdict("another key is refused", CheckLicense(ExampleLicense, during, 0, LicenseHwid, Rfc8032Vectors[1][1]), OfflineVerdict.NotSigned);
            CheckVerdict("an edited payload is refused", CheckLicense(Edited(ExampleLicense, 10), during), OfflineVerdict.NotSigned);
            CheckVerdict("an edited signature is refused", CheckLicense(Edited(ExampleLicense, ExampleLicense.Length - 5), during), OfflineVerdict.NotSigned);
            CheckVerdict("the LK1E prefix is refused", CheckLicense("LK1E" + ExampleLicense.Substring(3), during), OfflineVerdict.NotSigned);
            CheckVerdict("two segments are refused", CheckLicense(ExampleLicense.Substring(0, ExampleLicense.LastIndexOf('.')), during), OfflineVerdict.NotSigned);
            CheckVerdict("four segments are refused", CheckLicense(ExampleLicense + ".x", during), OfflineVerdict.NotSigned);
            CheckVerdict("padded base64 is refused", CheckLicense(ExampleLicense + "==", during), OfflineVerdict.NotSigned);
            CheckReEncodings(during);
            CheckVerdict("last seen within the clock tolerance is accepted",
                CheckLicense(ExampleLicense, during, during + LatchkeySettings.CLOCK_TOLERANCE_SECONDS), OfflineVerdict.Accepted);
            CheckVerdict("last seen beyond the clock tolerance: the clock moved back",
                CheckLicense(ExampleLicense, during, during + LatchkeySettings.CLOCK_TOLERANCE_SECONDS + 1), OfflineVerdict.ClockMovedBack);
            CheckVerdict("a clock set before its issue: the clock moved back",
                CheckLicense(ExampleLicense, LicenseIssuedAt - 86400), OfflineVerdict.ClockMovedBack);

            // The refusal texts the four samples share (run with TZ=Asia/Kolkata: +05:30).
            Check("licence text: expired",
                CheckLicense(ExampleLicense, LicenseValidUntil + 1).RefusalText == "This offline licence expired on 2026-06-08 17:30.");
            Check("licence text: another machine",
                CheckLicense(ExampleLicense, during, 0, "other").RefusalText == "This offline licence belongs to another machine.");
            Check("licence text: the clock moved back",
                CheckLicense(ExampleLicense, during, during + 86400).RefusalText == "The system clock moved backwards since the last run.");
            Check("licence text: not signed",
                CheckLicense(Edited(ExampleLicense, 10), during).RefusalText == "This offline licence is not signed by this application.");
        }

        public static int Main()
        {
            foreach (var vector in Rfc8032Vectors)
            {
                var publicKey = Hex(vector[1]);
                var message = Hex(vector[2]);
                var signature = Hex(vector[3]);
                Check("RFC 8032 " + vector[0] + " verifies", Ed25519.Verify(publicKey, message, signature));

                var otherMessage = (byte[])message.Clone();
                if (otherMessage.Length == 0) otherMessage = new byte[] { 0 };
                else otherMessage[0] ^= 1;
                Check("RFC 8032 " + vector[0] + " with a changed message is refused", !Ed25519.Verify(publicKey, otherMessage, signature));
            }

            var key1 = Hex(Rfc8032Vectors[0][1]);
            var signature1 = Hex(Rfc8032Vectors[0][3]);
            var key2 = Hex(Rfc8032Vectors[1][1]);
            Check("a signature checked with another key is refused", !Ed25519.Verify(key2, new byte[0], signature1));

            // S + L is the same scalar modulo L, so without the range check this signature would verify.
            var s = FromLittleEndian(signature1, 32);
            var order = BigInteger.Pow(2, 252) + BigInteger.Parse("27742317777372353535851937790883648493");
            var malleable = (byte[])signature1.Clone();
            ToLittleEndian(s + order).CopyTo(malleable, 32);
            Check("S >= L is refused (S + L would pass the group equation)", !Ed25519.Verify(key1, new byte[0], malleable));

            // y = p encodes y = 0, a point on the curve, non-canonically.
            var yEqualsP = Hex("edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f");
            Check("the canonical encoding of y = 0 decodes", Ed25519.Decode(Hex("0000000000000000000000000000000000000000000000000000000000000000")) != null);
            Check("a non-canonical point (y = p) is refused", Ed25519.Decode(yEqualsP) == null);
            Check("a non-canonical point (y = p + 1, the identity) is refused",
                Ed25519.Decode(Hex("eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f")) == null);
            Check("a non-canonical point (x = 0 with the sign bit) is refused",
                Ed25519.Decode(Hex("0100000000000000000000000000000000000000000000000000000000000080")) == null);
            Check("the identity encoded canonically decodes",
                Ed25519.Decode(Hex("0100000000000000000000000000000000000000000000000000000000000000")) != null);
            Check("a y that is on no point is refused",
                Ed25519.Decode(Hex("0200000000000000000000000000000000000000000000000000000000000000")) == null);
            var r1 = new byte[32];
            Array.Copy(signature1, r1, 32);
            Check("the R of test 1 decodes", Ed25519.Decode(r1) != null);
            var nonCanonicalKey = (byte[])yEqualsP.Clone();
            Check("a public key with a non-canonical encoding is refused",
                !Ed25519.Verify(nonCanonicalKey, new byte[0], signature1));

            var exampleKey = Hex(ExamplePublicKey);
            var body = Encoding.UTF8.GetBytes(ExampleBody);
            var signedAt = long.Parse(ExampleTimestamp);
            Check("worked example: valid",
                LatchkeyClient.IsGenuineResponse(exampleKey, ExampleTimestamp, ExampleNonce, body, ExampleSignature, signedAt + 5));
            var tampered = Encoding.UTF8.GetBytes(ExampleBody.Replace("User verified", "user verified"));
            Check("worked example: tampered body refused",
                !LatchkeyClient.IsGenuineResponse(exampleKey, ExampleTimestamp, ExampleNonce, tampered, ExampleSignature, signedAt));
            Check("worked example: wrong nonce refused",
                !LatchkeyClient.IsGenuineResponse(exampleKey, ExampleTimestamp, "c2f1b6a0-7e44-4f7e-9d1b-0b8f6f7f9e12", body, ExampleSignature, signedAt));
            Check("worked example: stale timestamp refused",
                !LatchkeyClient.IsGenuineResponse(exampleKey, ExampleTimestamp, ExampleNonce, body, ExampleSignature,
                    signedAt + LatchkeySettings.MAX_CLOCK_SKEW_SECONDS + 1));
            Check("worked example: timestamp from the future refused",
                !LatchkeyClient.IsGenuineResponse(exampleKey, ExampleTimestamp, ExampleNonce, body, ExampleSignature,
                    signedAt - LatchkeySettings.MAX_CLOCK_SKEW_SECONDS - 1));
            Check("worked example: wrong key refused",
                !LatchkeyClient.IsGenuineResponse(Hex(Rfc8032Vectors[1][1]), ExampleTimestamp, ExampleNonce, body, ExampleSignature, signedAt));
            Check("worked example: missing signature refused",
                !LatchkeyClient.IsGenuineResponse(exampleKey, ExampleTimestamp, ExampleNonce, body, null, signedAt));

            CheckOfflineLicences();

            Check("hardware id is a 32-character base64 string",
                HardwareId.Get().Length == 32 && HardwareId.Get() == HardwareId.Get());

            Console.WriteLine(failures == 0 ? "all passed" : failures + " failed");
            return failures;
        }

        private static BigInteger FromLittleEndian(byte[] bytes, int offset)
        {
            var unsigned = new byte[33];
            Array.Copy(bytes, offset, unsigned, 0, 32);
            return new BigInteger(unsigned);
        }

        private static byte[] ToLittleEndian(BigInteger value)
        {
            var bytes = value.ToByteArray();
            var result = new byte[32];
            Array.Copy(bytes, result, Math.Min(32, bytes.Length));
            return result;
        }
    }
}
#endif
