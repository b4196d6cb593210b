using System;
using System.Text;

namespace Latchkey
{
    /// <summary>The check every answer passes before anything reads it.</summary>
    public static class AnswerSignature
    {
        /// <summary>How far an answer's signing time may be from this machine's clock (the server's advice).</summary>
        public const int DefaultMaxClockSkewSeconds = 300;

        /// <summary>
        /// Why an answer is not to be believed (one of <see cref="SignatureException.Reasons"/>),
        /// or null when it is genuine: its Ed25519 signature covers
        /// <c>{timestamp}.{nonce}.{body}</c> under the pinned key (the nonce binds it to this
        /// request, so an answer recorded earlier cannot be replayed), and it was signed within
        /// <paramref name="maxClockSkewSeconds"/> of <paramref name="nowUnixSeconds"/>. The
        /// signature is checked first, so <c>stale</c> only ever describes a genuine answer.
        /// <paramref name="timestamp"/> and <paramref name="signatureHex"/> are the
        /// <c>X-Signature-Timestamp</c> and <c>X-Signature-Ed25519</c> headers as received (null
        /// when absent), <paramref name="nonce"/> the <c>X-Request-Nonce</c> this request sent
        /// ("" for none), <paramref name="body"/> the bytes exactly as received.
        /// </summary>
        public static string Check(string publicKeyHex, string timestamp, string signatureHex, string nonce,
            byte[] body, long nowUnixSeconds, int maxClockSkewSeconds = DefaultMaxClockSkewSeconds)
        {
            return Check(Hex.PublicKey(publicKeyHex), timestamp, signatureHex, nonce, body, nowUnixSeconds, maxClockSkewSeconds);
        }

        internal static string Check(byte[] publicKey, string timestamp, string signatureHex, string nonce,
            byte[] body, long nowUnixSeconds, int maxClockSkewSeconds)
        {
            if (!IsUnixSeconds(timestamp)) return "unsigned";
            if (signatureHex == null || signatureHex.Length != 128) return "unsigned";
            var signature = Hex.Parse(signatureHex);
            if (signature == null) return "unsigned";
            if (!HoldsFor(publicKey, timestamp, nonce ?? "", body, signature))
            {
                // Only to say why: an answer signed for no nonce is refused all the same.
                return !string.IsNullOrEmpty(nonce) && HoldsFor(publicKey, timestamp, "", body, signature)
                    ? "nonce"
                    : "signature";
            }
            if (Math.Abs(nowUnixSeconds - long.Parse(timestamp)) > maxClockSkewSeconds) return "stale";
            return null;
        }

        private static bool IsUnixSeconds(string timestamp)
        {
            if (timestamp == null || timestamp.Length < 1 || timestamp.Length > 15) return false;
            foreach (var c in timestamp)
            {
                if (c < '0' || c > '9') return false;
            }
            return true;
        }

        private static bool HoldsFor(byte[] publicKey, string timestamp, string nonce, byte[] body, byte[] signature)
        {
            var prefix = Encoding.UTF8.GetBytes(timestamp + "." + nonce + ".");
            var message = new byte[prefix.Length + body.Length];
            Buffer.BlockCopy(prefix, 0, message, 0, prefix.Length);
            Buffer.BlockCopy(body, 0, message, prefix.Length, body.Length);
            return Ed25519.Verify(publicKey, message, signature);
        }
    }

    internal static class Hex
    {
        /// <summary>The 32 bytes of a 64-hex public key; ArgumentException on anything else (a programming error).</summary>
        public static byte[] PublicKey(string hex)
        {
            var bytes = hex != null && hex.Length == 64 ? Parse(hex) : null;
            if (bytes == null)
                throw new ArgumentException("publicKey must be the application's Ed25519 public key: 64 hex digits", "publicKey");
            return bytes;
        }

        /// <summary>The bytes of a hex string, or null when it is not one.</summary>
        public static byte[] Parse(string hex)
        {
            if (hex == null || hex.Length % 2 != 0) return null;
            var bytes = new byte[hex.Length / 2];
            for (var i = 0; i < bytes.Length; i++)
            {
                var high = Value(hex[2 * i]);
                var low = Value(hex[2 * i + 1]);
                if (high < 0 || low < 0) return null;
                bytes[i] = (byte)(high * 16 + low);
            }
            return bytes;
        }

        public static string Of(byte[] bytes)
        {
            var text = new StringBuilder(bytes.Length * 2);
            foreach (var b in bytes) text.Append(b.ToString("x2", System.Globalization.CultureInfo.InvariantCulture));
            return text.ToString();
        }

        private static int Value(char c)
        {
            if (c >= '0' && c <= '9') return c - '0';
            if (c >= 'a' && c <= 'f') return c - 'a' + 10;
            if (c >= 'A' && c <= 'F') return c - 'A' + 10;
            return -1;
        }
    }
}
