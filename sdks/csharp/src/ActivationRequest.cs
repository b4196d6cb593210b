using System;
using System.Collections.Generic;
using System.Globalization;
using System.Security.Cryptography;
using System.Text;

namespace Latchkey
{
    /// <summary>
    /// Activation requests (<c>LKA1.</c>): a program on a machine that never reaches the server
    /// writes one; its user pastes it into the application's portal on another computer (signed
    /// in, or with the licence key it carries) and pastes the offline licence the portal answers
    /// back into the program, which checks it with <see cref="OfflineLicense"/>.
    /// </summary>
    public static class ActivationRequest
    {
        private const string Prefix = "LKA1";
        private const string CheckDomain = "latchkey-activation-v1";
        private const int CheckLength = 16;

        /// <summary>
        /// The text of an activation request, <c>LKA1.&lt;payload&gt;.&lt;check&gt;</c>, written
        /// without the network. <paramref name="publicKeyHex"/> is the application's public key (64
        /// hex digits), <paramref name="hwid"/> this machine's HWID exactly as the program sends it
        /// at login; <paramref name="licenseKey"/> the key the user entered (without a signed-in
        /// portal session it decides who), <paramref name="username"/> the account the user named,
        /// <paramref name="deviceName"/> a name for the machine in the user's devices,
        /// <paramref name="encrypt"/> asks for an <c>LK1E.</c> licence; <paramref name="nonce"/>
        /// (16 to 64 of <c>A-Z a-z 0-9 _ -</c>, 16 random bytes in base64url by default) and
        /// <paramref name="now"/> (this machine's clock by default) only pin what would otherwise
        /// be random and the clock.
        /// <c>&lt;payload&gt;</c> is the base64url of the UTF-8 JSON content (<c>app</c>,
        /// <c>hwid</c>, <c>license_key</c>, <c>username</c>, <c>device_name</c>, <c>encrypt</c>,
        /// <c>nonce</c>, <c>created_at</c>, in that order; an empty text and <c>encrypt</c> false
        /// are left out), <c>&lt;check&gt;</c> the first 16 characters of the base64url of SHA-256
        /// over <c>latchkey-activation-v1.</c> and the payload segment: nothing secret signs it,
        /// the check catches a request copied in part. The same bytes in every Latchkey SDK.
        /// ArgumentException for a public key that is not 64 hex digits, an empty HWID, a nonce
        /// outside its alphabet or length, or a text that is not Unicode without NUL.
        /// </summary>
        public static string Create(string publicKeyHex, string hwid, string licenseKey = null, string username = null,
            string deviceName = null, bool encrypt = false, string nonce = null, DateTimeOffset? now = null)
        {
            Hex.PublicKey(publicKeyHex);
            if (string.IsNullOrEmpty(hwid)) throw new ArgumentException("hwid is required", "hwid");
            if (nonce == null)
            {
                var random = new byte[16];
                using (var generator = RandomNumberGenerator.Create()) generator.GetBytes(random);
                nonce = ToBase64Url(random);
            }
            if (!IsNonce(nonce)) throw new ArgumentException("nonce must be 16 to 64 of A-Z, a-z, 0-9, _ and -", "nonce");
            CheckText("hwid", hwid);
            CheckText("licenseKey", licenseKey);
            CheckText("username", username);
            CheckText("deviceName", deviceName);

            // The order is the contract's: every SDK writes the same bytes for the same request.
            var content = new List<KeyValuePair<string, object>>
            {
                new KeyValuePair<string, object>("app", publicKeyHex.ToLowerInvariant()),
                new KeyValuePair<string, object>("hwid", hwid),
            };
            if (!string.IsNullOrEmpty(licenseKey)) content.Add(new KeyValuePair<string, object>("license_key", licenseKey));
            if (!string.IsNullOrEmpty(username)) content.Add(new KeyValuePair<string, object>("username", username));
            if (!string.IsNullOrEmpty(deviceName)) content.Add(new KeyValuePair<string, object>("device_name", deviceName));
            if (encrypt) content.Add(new KeyValuePair<string, object>("encrypt", true));
            content.Add(new KeyValuePair<string, object>("nonce", nonce));
            // UTC to the millisecond, as JavaScript's toISOString writes it.
            var createdAt = (now ?? DateTimeOffset.UtcNow).UtcDateTime
                .ToString("yyyy'-'MM'-'dd'T'HH':'mm':'ss'.'fff'Z'", CultureInfo.InvariantCulture);
            content.Add(new KeyValuePair<string, object>("created_at", createdAt));

            var payload = ToBase64Url(new UTF8Encoding(false, true).GetBytes(JsonText.Write(content)));
            byte[] digest;
            using (var sha = SHA256.Create()) digest = sha.ComputeHash(Encoding.ASCII.GetBytes(CheckDomain + "." + payload));
            return Prefix + "." + payload + "." + ToBase64Url(digest).Substring(0, CheckLength);
        }

        private static bool IsNonce(string nonce)
        {
            if (nonce.Length < 16 || nonce.Length > 64) return false;
            foreach (var c in nonce)
            {
                var isAlphabet = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
                if (!isAlphabet) return false;
            }
            return true;
        }

        /// <summary>A lone surrogate is not Unicode (no UTF-8 encodes it) and the server stores no NUL.</summary>
        private static void CheckText(string name, string value)
        {
            if (value == null) return;
            for (var i = 0; i < value.Length; i++)
            {
                var c = value[i];
                var isPaired = char.IsHighSurrogate(c) && i + 1 < value.Length && char.IsLowSurrogate(value[i + 1]);
                if (isPaired)
                {
                    i++;
                    continue;
                }
                if (c == '\0' || char.IsSurrogate(c))
                    throw new ArgumentException(name + " must be Unicode text without NUL", name);
            }
        }

        private static string ToBase64Url(byte[] bytes)
        {
            return Convert.ToBase64String(bytes).TrimEnd('=').Replace('+', '-').Replace('/', '_');
        }
    }
}
