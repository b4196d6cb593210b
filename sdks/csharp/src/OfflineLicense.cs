using System;
using System.Collections.Generic;
using System.Collections.ObjectModel;
using System.Globalization;
using System.Security.Cryptography;
using System.Text;

namespace Latchkey
{
    /// <summary>
    /// Why an offline licence holds or not (spelt as in every Latchkey SDK):
    /// <c>MALFORMED</c>: not <c>LK1.&lt;payload&gt;.&lt;signature&gt;</c> / <c>LK1E.…</c> in
    /// canonical base64url; <c>BAD_SIGNATURE</c>: not signed by this application's key (edited,
    /// made up, another application's); <c>OTHER_APPLICATION</c>: signed, but naming another
    /// application than the one asked for; <c>OTHER_MACHINE</c>: issued to another HWID (an
    /// encrypted one does not even decrypt here); <c>EXPIRED</c>: now is at or past
    /// <c>valid_until</c>; <c>CLOCK_MOVED_BACK</c>: this machine's clock is before the licence's
    /// issue or the latest time the program has seen, beyond the tolerance.
    /// </summary>
    public enum OfflineLicenseCode
    {
        OK,
        MALFORMED,
        BAD_SIGNATURE,
        OTHER_APPLICATION,
        OTHER_MACHINE,
        EXPIRED,
        CLOCK_MOVED_BACK,
    }

    /// <summary>
    /// The verdict on an offline licence; <see cref="Content"/> once its signature holds (also
    /// when its terms refuse it): the payload's JSON, snake_case like the client API.
    /// </summary>
    public sealed class OfflineLicenseCheck
    {
        internal OfflineLicenseCheck(OfflineLicenseCode code, IDictionary<string, object> content)
        {
            Code = code;
            Success = code == OfflineLicenseCode.OK;
            Message = MessageOf(code);
            Content = content == null ? null : new ReadOnlyDictionary<string, object>(content);
        }

        public bool Success { get; private set; }
        public OfflineLicenseCode Code { get; private set; }
        public string Message { get; private set; }

        /// <summary>
        /// <c>application_id</c>, <c>user_id</c>, <c>username</c>, <c>hwid</c>,
        /// <c>entitlements</c>, <c>subscriptions</c>, <c>account_expires_at</c>,
        /// <c>updates_until</c> (the end of the holder's updates window, as login answers it; null
        /// for every release, and for a licence issued before the field existed), <c>meters</c>
        /// (see <see cref="Meters"/>), <c>issued_at</c>, <c>valid_until</c>, <c>id</c>; null
        /// before the signature holds.
        /// </summary>
        public IReadOnlyDictionary<string, object> Content { get; private set; }

        /// <summary>
        /// The usage meters as they stood when the licence was issued (a snapshot: use offline is
        /// not counted); empty for a user without any, for a licence issued before meters existed,
        /// and before the signature holds.
        /// </summary>
        public IReadOnlyList<Meter> Meters
        {
            get { return Meter.ListOf(Content == null ? null : Content["meters"]); }
        }

        private static string MessageOf(OfflineLicenseCode code)
        {
            switch (code)
            {
                case OfflineLicenseCode.OK: return "Offline licence valid";
                case OfflineLicenseCode.MALFORMED: return "This is not an offline licence";
                case OfflineLicenseCode.BAD_SIGNATURE: return "This offline licence is not signed by this application";
                case OfflineLicenseCode.OTHER_APPLICATION: return "This offline licence is for another application";
                case OfflineLicenseCode.OTHER_MACHINE: return "This offline licence belongs to another machine";
                case OfflineLicenseCode.EXPIRED: return "This offline licence has expired";
                default: return "The system clock was set back";
            }
        }
    }

    /// <summary>Offline licences (<c>LK1.</c> and <c>LK1E.</c>), verified without the network.</summary>
    public static class OfflineLicense
    {
        private const string PlainDomain = "latchkey-license-v1";
        private const string EncryptedDomain = "latchkey-license-v1e";
        private const int IvBytes = 12;
        private const int TagBytes = 16;

        /// <summary>
        /// Checks an offline licence from a checkout without the network: its signature under the
        /// pinned key (over the domain and the payload segment as it stands), for <c>LK1E</c> its
        /// decryption with the key derived from this machine's HWID, then its terms (application,
        /// machine, validity, and a clock set back). Never throws for a licence, whatever it holds.
        /// <paramref name="hwid"/> is this machine's HWID exactly as the program sends it at login;
        /// <paramref name="now"/> this machine's clock (now by default); <paramref name="lastSeenAt"/>
        /// the latest time the program has seen, kept between runs; <paramref name="applicationId"/>,
        /// when the program knows it, must be the licence's.
        /// </summary>
        public static OfflineLicenseCheck Verify(string license, string publicKeyHex, string hwid,
            long? applicationId = null, DateTimeOffset? now = null, DateTimeOffset? lastSeenAt = null,
            int clockToleranceSeconds = 300)
        {
            return Verify(license, Hex.PublicKey(publicKeyHex), hwid, applicationId, now, lastSeenAt, clockToleranceSeconds);
        }

        internal static OfflineLicenseCheck Verify(string license, byte[] publicKey, string hwid,
            long? applicationId, DateTimeOffset? now, DateTimeOffset? lastSeenAt, int clockToleranceSeconds)
        {
            var parts = (license ?? "").Split('.');
            if (parts.Length != 3 || (parts[0] != "LK1" && parts[0] != "LK1E")) return Outcome(OfflineLicenseCode.MALFORMED);
            var isEncrypted = parts[0] == "LK1E";
            var domain = isEncrypted ? EncryptedDomain : PlainDomain;
            var payload = FromBase64Url(parts[1]);
            var signature = FromBase64Url(parts[2]);
            if (payload == null || signature == null || signature.Length != 64) return Outcome(OfflineLicenseCode.MALFORMED);

            if (!Ed25519.Verify(publicKey, Encoding.ASCII.GetBytes(domain + "." + parts[1]), signature))
                return Outcome(OfflineLicenseCode.BAD_SIGNATURE);

            var data = payload;
            if (isEncrypted)
            {
                data = DecryptForMachine(payload, hwid ?? "", publicKey);
                if (data == null) return Outcome(OfflineLicenseCode.OTHER_MACHINE);
            }
            var content = ParseContent(data);
            if (content == null) return Outcome(OfflineLicenseCode.MALFORMED);

            object licensed;
            content.TryGetValue("application_id", out licensed);
            if (applicationId.HasValue && !(licensed is long && (long)licensed == applicationId.Value))
                return Outcome(OfflineLicenseCode.OTHER_APPLICATION, content);
            object boundTo;
            content.TryGetValue("hwid", out boundTo);
            if (boundTo != null && (string)boundTo != hwid) return Outcome(OfflineLicenseCode.OTHER_MACHINE, content);
            var current = Seconds(now ?? DateTimeOffset.UtcNow);
            if (current >= Seconds(ParseIso(content["valid_until"]).Value)) return Outcome(OfflineLicenseCode.EXPIRED, content);
            var latestSeen = Seconds(ParseIso(content["issued_at"]).Value);
            if (lastSeenAt.HasValue) latestSeen = Math.Max(latestSeen, Seconds(lastSeenAt.Value));
            if (current + clockToleranceSeconds < latestSeen) return Outcome(OfflineLicenseCode.CLOCK_MOVED_BACK, content);
            return Outcome(OfflineLicenseCode.OK, content);
        }

        private static OfflineLicenseCheck Outcome(OfflineLicenseCode code, IDictionary<string, object> content = null)
        {
            return new OfflineLicenseCheck(code, content);
        }

        private static double Seconds(DateTimeOffset moment)
        {
            return moment.ToUnixTimeMilliseconds() / 1000.0;
        }

        private static IDictionary<string, object> ParseContent(byte[] data)
        {
            IDictionary<string, object> content;
            try
            {
                content = JsonText.Parse(new UTF8Encoding(false, true).GetString(data)) as IDictionary<string, object>;
            }
            catch (FormatException)
            {
                return null;
            }
            catch (ArgumentException)
            {
                return null; // not UTF-8
            }
            if (content == null) return null;
            object value;
            if (!content.TryGetValue("valid_until", out value) || !ParseIso(value).HasValue) return null;
            if (!content.TryGetValue("issued_at", out value) || !ParseIso(value).HasValue) return null;
            if (content.TryGetValue("hwid", out value) && value != null && !(value is string)) return null;
            // Licences issued before updates windows existed lack the field: no window, every release.
            if (!content.ContainsKey("updates_until")) content["updates_until"] = null;
            // The server leaves meters out for a user without any, as licences issued before them do.
            if (!content.ContainsKey("meters")) content["meters"] = new List<object>();
            return content;
        }

        private static readonly string[] IsoFormats =
        {
            "yyyy-MM-dd'T'HH:mm:ssK", "yyyy-MM-dd'T'HH:mm:ss.FFFFFFFK", "yyyy-MM-dd'T'HH:mm:ss", "yyyy-MM-dd'T'HH:mm:ss.FFFFFFF",
        };

        /// <summary>An ISO 8601 time (UTC unless it names its offset), or null when it is not one.</summary>
        internal static DateTimeOffset? ParseIso(object value)
        {
            var text = value as string;
            DateTimeOffset moment;
            if (text == null || !DateTimeOffset.TryParseExact(text.Trim(), IsoFormats, CultureInfo.InvariantCulture,
                    DateTimeStyles.AssumeUniversal, out moment)) return null;
            return moment;
        }

        /// <summary>AES-256-GCM under HKDF-SHA256(HWID, salt: the raw public key, info: the domain); null: not this machine's.</summary>
        private static byte[] DecryptForMachine(byte[] sealedBytes, string hwid, byte[] publicKey)
        {
            if (sealedBytes.Length < IvBytes + TagBytes) return null;
            var key = HkdfSha256(Encoding.UTF8.GetBytes(hwid), publicKey, Encoding.ASCII.GetBytes(EncryptedDomain), 32);
            var iv = new byte[IvBytes];
            var ciphertext = new byte[sealedBytes.Length - IvBytes - TagBytes];
            var tag = new byte[TagBytes];
            Buffer.BlockCopy(sealedBytes, 0, iv, 0, IvBytes);
            Buffer.BlockCopy(sealedBytes, IvBytes, ciphertext, 0, ciphertext.Length);
            Buffer.BlockCopy(sealedBytes, sealedBytes.Length - TagBytes, tag, 0, TagBytes);
            return AesGcmDecryption.Decrypt(key, iv, ciphertext, tag);
        }

        /// <summary>RFC 5869 HKDF with SHA-256 (the framework 4.x has no HKDF class).</summary>
        internal static byte[] HkdfSha256(byte[] secret, byte[] salt, byte[] info, int length)
        {
            byte[] pseudoRandomKey;
            using (var extract = new HMACSHA256(salt)) pseudoRandomKey = extract.ComputeHash(secret);
            var output = new byte[length];
            var block = new byte[0];
            var written = 0;
            using (var expand = new HMACSHA256(pseudoRandomKey))
            {
                for (byte counter = 1; written < length; counter++)
                {
                    var input = new byte[block.Length + info.Length + 1];
                    Buffer.BlockCopy(block, 0, input, 0, block.Length);
                    Buffer.BlockCopy(info, 0, input, block.Length, info.Length);
                    input[input.Length - 1] = counter;
                    block = expand.ComputeHash(input);
                    var count = Math.Min(block.Length, length - written);
                    Buffer.BlockCopy(block, 0, output, written, count);
                    written += count;
                }
            }
            return output;
        }

        /// <summary>
        /// RFC 4648 section 5 base64url without padding, canonical only; null when the text is not
        /// that. Convert.FromBase64String ignores non-zero unused bits, so the text counts only when
        /// it re-encodes to exactly itself.
        /// </summary>
        internal static byte[] FromBase64Url(string text)
        {
            if (string.IsNullOrEmpty(text) || text.Length % 4 == 1) return null;
            foreach (var c in text)
            {
                var isAlphabet = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
                if (!isAlphabet) return null;
            }
            var standard = text.Replace('-', '+').Replace('_', '/');
            byte[] bytes;
            try
            {
                bytes = Convert.FromBase64String(standard + new string('=', (4 - standard.Length % 4) % 4));
            }
            catch (FormatException)
            {
                return null;
            }
            var reEncoded = Convert.ToBase64String(bytes).TrimEnd('=').Replace('+', '-').Replace('/', '_');
            return reEncoded == text ? bytes : null;
        }
    }
}
