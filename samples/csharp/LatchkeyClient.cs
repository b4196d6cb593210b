// Latchkey client sample for C# (WinForms): login (with a password or a licence key alone),
// registration (with a licence key if you sell them), a link to choose a new password mailed to
// the account's address (Forgot password?), a new link to confirm that address where the
// application lets only confirmed addresses log in (Resend verification e-mail), verify, a live
// session with heartbeats,
// forced logout when the licence is revoked, licence keys redeemed onto the account, its
// entitlements and subscriptions shown, this device released so that another machine can log in,
// an offline licence for starts without the network, the vendor's welcome message and the user's
// own note (remote variables), a newer release downloaded and checked against its signed SHA-256,
// and every server answer's Ed25519 signature checked.
//
// Builds with .NET 8 on Windows (LatchkeyClient.csproj: net8.0-windows, UseWindowsForms) and with
// Mono as C# 7:
//   mcs -langversion:7 -target:winexe -r:System.Windows.Forms.dll -r:System.Drawing.dll
//       -r:System.Net.Http.dll -r:System.Runtime.Serialization.dll -r:System.Numerics.dll
//       -out:client.exe LatchkeyClient.cs
using System;
using System.Collections;
using System.Collections.Generic;
using System.Drawing;
using System.IO;
using System.Linq;
using System.Net;
using System.Net.Http;
using System.Numerics;
using System.Reflection;
using System.Runtime.Serialization;
using System.Runtime.Serialization.Json;
using System.Security.Cryptography;
using System.Text;
using System.Threading.Tasks;
using System.Windows.Forms;

namespace LatchkeySample
{
    /// <summary>Filled in by Latchkey for your application: keep them together at the top.</summary>
    public static class LatchkeySettings
    {
        public const string ApiKey = "YOUR_API_KEY";
        public const string BaseUrl = "YOUR_LATCHKEY_URL";
        public const string AppVersion = "YOUR_APP_VERSION";
        // The application's Ed25519 public key (hex): only answers signed with its private key are trusted.
        public const string SigningPublicKey = "YOUR_SIGNING_PUBLIC_KEY";
        // Entitlement codes this program needs (e.g. { "PRO" }): verify refuses a user who lacks one
        // (ENTITLEMENTS_MISSING). Empty: any user in good standing may use it.
        public static readonly string[] REQUIRED_ENTITLEMENTS = { };

        public const int HEARTBEAT_INTERVAL_SECONDS = 30;
        public const int VERIFY_INTERVAL_SECONDS = 300;
        public const int MAX_VERIFY_FAILURES = 3;
        public const int HTTP_TIMEOUT_SECONDS = 30;
        public const int MAX_CLOCK_SKEW_SECONDS = 300;

        // Offline licence: how long the licence checked out after each login lets the program run
        // without the network (at most the application's offline days), and how far the clock may
        // go back between runs (an NTP correction, a time zone change) before an offline start is
        // refused.
        public const int OFFLINE_LICENSE_TTL_SECONDS = 604800;
        public const int CLOCK_TOLERANCE_SECONDS = 300;
    }

    /// <summary>An answer of the client API: every field any endpoint may send.</summary>
    [DataContract]
    public class ApiResponse
    {
        [DataMember(Name = "success")] public bool Success { get; set; }
        [DataMember(Name = "message")] public string Message { get; set; }
        [DataMember(Name = "code")] public string Code { get; set; }
        [DataMember(Name = "user_id")] public string UserId { get; set; }
        [DataMember(Name = "username")] public string Username { get; set; }
        [DataMember(Name = "email")] public string Email { get; set; }
        [DataMember(Name = "expires_at")] public string ExpiresAt { get; set; }
        [DataMember(Name = "hwid_locked")] public bool HwidLocked { get; set; }
        [DataMember(Name = "session_token")] public string SessionToken { get; set; }
        /// <summary>Sorted entitlement codes of the user's active subscriptions.</summary>
        [DataMember(Name = "entitlements")] public List<string> Entitlements { get; set; }
        [DataMember(Name = "subscriptions")] public List<SubscriptionInfo> Subscriptions { get; set; }
        /// <summary>ENTITLEMENTS_MISSING only: the codes asked for that the user does not hold.</summary>
        [DataMember(Name = "missing_entitlements")] public List<string> MissingEntitlements { get; set; }
        /// <summary>devices/reset only: how many devices were released.</summary>
        [DataMember(Name = "released")] public int Released { get; set; }
        /// <summary>devices/reset (OK and RESET_COOLDOWN): when a device may be released again (ISO 8601; null: any time).</summary>
        [DataMember(Name = "next_reset_at")] public string NextResetAt { get; set; }

        /// <summary>var, user-var and user-var/set: the variable's value; user-var: whether only the vendor may change it.</summary>
        [DataMember(Name = "value")] public string Value { get; set; }
        [DataMember(Name = "read_only")] public bool ReadOnly { get; set; }
        /// <summary>file only: where to GET the bytes (no API key), their size and SHA-256.</summary>
        [DataMember(Name = "url")] public string Url { get; set; }
        [DataMember(Name = "size")] public long Size { get; set; }
        [DataMember(Name = "sha256")] public string Sha256 { get; set; }
        /// <summary>VERSION_MISMATCH only, when the vendor has published a current release.</summary>
        [DataMember(Name = "update")] public UpdateInfo Update { get; set; }
        /// <summary>license/checkout only: the offline licence (LK1...) and until when it holds.</summary>
        [DataMember(Name = "license")] public string License { get; set; }
        [DataMember(Name = "valid_until")] public string ValidUntil { get; set; }

        /// <summary>Seconds from the Retry-After header of a 429, else 0 (not part of the body).</summary>
        public int RetryAfterSeconds { get; set; }
    }

    [DataContract]
    public class LoginRequest
    {
        [DataMember(Name = "username", Order = 1)] public string Username { get; set; }
        [DataMember(Name = "password", Order = 2)] public string Password { get; set; }
        [DataMember(Name = "api_key", Order = 3)] public string ApiKey { get; set; }
        [DataMember(Name = "version", Order = 4)] public string Version { get; set; }
        [DataMember(Name = "hwid", Order = 5)] public string Hwid { get; set; }
        [DataMember(Name = "device_name", Order = 6, EmitDefaultValue = false)] public string DeviceName { get; set; }
    }

    /// <summary>An active subscription: the plan's name and its expiry (null: lifetime).</summary>
    [DataContract]
    public class SubscriptionInfo
    {
        [DataMember(Name = "plan")] public string Plan { get; set; }
        [DataMember(Name = "expires_at")] public string ExpiresAt { get; set; }
    }

    [DataContract]
    public class VerifyRequest
    {
        [DataMember(Name = "user_id", Order = 1)] public string UserId { get; set; }
        [DataMember(Name = "entitlements", Order = 2, EmitDefaultValue = false)] public string[] Entitlements { get; set; }
    }

    [DataContract]
    public class RegisterRequest
    {
        [DataMember(Name = "username", Order = 1)] public string Username { get; set; }
        [DataMember(Name = "password", Order = 2)] public string Password { get; set; }
        [DataMember(Name = "email", Order = 3, EmitDefaultValue = false)] public string Email { get; set; }
        [DataMember(Name = "hwid", Order = 4)] public string Hwid { get; set; }
        [DataMember(Name = "license_key", Order = 5, EmitDefaultValue = false)] public string LicenseKey { get; set; }
    }

    [DataContract]
    public class LicenseLoginRequest
    {
        [DataMember(Name = "license_key", Order = 1)] public string LicenseKey { get; set; }
        [DataMember(Name = "hwid", Order = 2)] public string Hwid { get; set; }
        [DataMember(Name = "version", Order = 3)] public string Version { get; set; }
        [DataMember(Name = "device_name", Order = 4, EmitDefaultValue = false)] public string DeviceName { get; set; }
    }

    [DataContract]
    public class RedeemRequest
    {
        [DataMember(Name = "username", Order = 1)] public string Username { get; set; }
        [DataMember(Name = "password", Order = 2)] public string Password { get; set; }
        [DataMember(Name = "license_key", Order = 3)] public string LicenseKey { get; set; }
    }

    /// <summary>Releases one device of the account (this one: the hwid its login sent).</summary>
    [DataContract]
    public class DeviceResetRequest
    {
        [DataMember(Name = "username", Order = 1)] public string Username { get; set; }
        [DataMember(Name = "password", Order = 2)] public string Password { get; set; }
        [DataMember(Name = "hwid", Order = 3)] public string Hwid { get; set; }
    }

    /// <summary>Names the account whose password is forgotten: by its username or by its e-mail address, never both.</summary>
    [DataContract]
    public class ForgotPasswordRequest
    {
        [DataMember(Name = "username", Order = 1, EmitDefaultValue = false)] public string Username { get; set; }
        [DataMember(Name = "email", Order = 2, EmitDefaultValue = false)] public string Email { get; set; }
    }

    /// <summary>The account whose address is to be confirmed; its password proves the holder.</summary>
    [DataContract]
    public class ResendVerificationRequest
    {
        [DataMember(Name = "username", Order = 1)] public string Username { get; set; }
        [DataMember(Name = "password", Order = 2)] public string Password { get; set; }
    }

    [DataContract]
    public class SessionTrackRequest
    {
        [DataMember(Name = "action", Order = 1)] public string Action { get; set; }
        [DataMember(Name = "user_id", Order = 2, EmitDefaultValue = false)] public string UserId { get; set; }
        [DataMember(Name = "session_token", Order = 3)] public string SessionToken { get; set; }
        [DataMember(Name = "hwid", Order = 4, EmitDefaultValue = false)] public string Hwid { get; set; }
    }

    /// <summary>The release a VERSION_MISMATCH answer offers: fetch it with file, check it against sha256.</summary>
    [DataContract]
    public class UpdateInfo
    {
        [DataMember(Name = "version")] public string Version { get; set; }
        [DataMember(Name = "file_id")] public string FileId { get; set; }
        [DataMember(Name = "size")] public long Size { get; set; }
        [DataMember(Name = "sha256")] public string Sha256 { get; set; }
    }

    [DataContract]
    public class VariableRequest
    {
        [DataMember(Name = "name", Order = 1)] public string Name { get; set; }
        [DataMember(Name = "session_token", Order = 2, EmitDefaultValue = false)] public string SessionToken { get; set; }
    }

    [DataContract]
    public class UserVariableRequest
    {
        [DataMember(Name = "session_token", Order = 1)] public string SessionToken { get; set; }
        [DataMember(Name = "name", Order = 2)] public string Name { get; set; }
        [DataMember(Name = "value", Order = 3, EmitDefaultValue = false)] public string Value { get; set; }
    }

    [DataContract]
    public class FileRequest
    {
        [DataMember(Name = "file_id", Order = 1)] public string FileId { get; set; }
        [DataMember(Name = "session_token", Order = 2, EmitDefaultValue = false)] public string SessionToken { get; set; }
    }

    [DataContract]
    public class CheckoutRequest
    {
        [DataMember(Name = "session_token", Order = 1)] public string SessionToken { get; set; }
        [DataMember(Name = "ttl_seconds", Order = 2)] public int TtlSeconds { get; set; }
    }

    /// <summary>The JSON content of an offline licence (docs/client-api.md, "Offline licences").</summary>
    [DataContract]
    public class OfflineLicenseContent
    {
        [DataMember(Name = "application_id")] public long? ApplicationId { get; set; }
        [DataMember(Name = "user_id")] public string UserId { get; set; }
        [DataMember(Name = "username")] public string Username { get; set; }
        [DataMember(Name = "hwid")] public string Hwid { get; set; }
        [DataMember(Name = "entitlements")] public List<string> Entitlements { get; set; }
        [DataMember(Name = "subscriptions")] public List<SubscriptionInfo> Subscriptions { get; set; }
        [DataMember(Name = "account_expires_at")] public string AccountExpiresAt { get; set; }
        [DataMember(Name = "issued_at")] public string IssuedAt { get; set; }
        [DataMember(Name = "valid_until")] public string ValidUntil { get; set; }
        [DataMember(Name = "id")] public string Id { get; set; }
    }

    /// <summary>
    /// The offline licence of the last login, the last time the program saw the clock, and the
    /// application the licence named when it was checked out.
    /// </summary>
    [DataContract]
    public class OfflineState
    {
        [DataMember(Name = "license", Order = 1)] public string License { get; set; }
        [DataMember(Name = "last_seen", Order = 2)] public long LastSeen { get; set; }
        [DataMember(Name = "application_id", Order = 3)] public long ApplicationId { get; set; }
    }

    /// <summary>What the program keeps between launches: only who logged in, verified again on the next start.</summary>
    [DataContract]
    public class SavedSession
    {
        [DataMember(Name = "user_id")] public string UserId { get; set; }
        [DataMember(Name = "username")] public string Username { get; set; }
    }

    /// <summary>The answer failed its signature or timestamp check: it may come from an impostor.</summary>
    public class ResponseNotVerifiedException : Exception
    {
        public ResponseNotVerifiedException(string reason) : base(reason) { }
    }

    /// <summary>No HTTP answer at all (connection refused, DNS, a timeout): the offline licence's case.</summary>
    public class ServerUnreachableException : HttpRequestException
    {
        public ServerUnreachableException(Exception cause)
            : base(cause is TaskCanceledException ? "the request timed out" : cause.Message, cause.InnerException) { }
    }

    /// <summary>The user shown on the main screen.</summary>
    public class UserInfo
    {
        public string UserId;
        public string Username;
        public string Email;
        public string ExpiresAt;
        public string HwidLock;
        public List<string> Entitlements;
        public List<SubscriptionInfo> Subscriptions;

        public string EntitlementsText
        {
            get { return Entitlements == null || Entitlements.Count == 0 ? "None" : string.Join(", ", Entitlements); }
        }

        public string SubscriptionsText
        {
            get
            {
                if (Subscriptions == null || Subscriptions.Count == 0) return "None";
                return string.Join(", ", Subscriptions.Select(held => string.IsNullOrEmpty(held.ExpiresAt)
                    ? held.Plan + " (lifetime)"
                    : held.Plan + " until " + held.ExpiresAt));
            }
        }

        /// <summary>Takes the entitlements and subscriptions of a login, verify or redeem answer.</summary>
        public void TakeLicensing(ApiResponse answer)
        {
            Entitlements = answer.Entitlements ?? new List<string>();
            Subscriptions = answer.Subscriptions ?? new List<SubscriptionInfo>();
        }
    }

    /// <summary>
    /// The dialog for a refusal, titled by its stable code (never by its text, which the vendor may
    /// rewrite); codes without a title of their own get the title of the action that failed.
    /// </summary>
    public static class Refusals
    {
        public static string Title(string code, string fallbackTitle)
        {
            switch (code)
            {
                case "VERSION_MISMATCH": return "Update Required";
                case "HWID_MISMATCH": return "Hardware Mismatch";
                case "ACCOUNT_EXPIRED": return "Account Expired";
                case "ACCOUNT_DISABLED": return "Account Disabled";
                case "BLACKLISTED": return "Access Blocked";
                case "NO_ACTIVE_SUBSCRIPTION": return "Subscription Required";
                case "LICENSE_REQUIRED": return "Licence Key Required";
                case "LICENSE_INVALID": return "Invalid Licence Key";
                case "LICENSE_USED": return "Licence Key Used";
                case "LICENSE_BANNED": return "Licence Key Banned";
                case "LICENSE_EXPIRED": return "Licence Key Lapsed";
                case "ENTITLEMENTS_MISSING": return "Feature Not Included";
                case "RESET_NOT_ALLOWED": return "Reset Not Allowed";
                case "RESET_COOLDOWN": return "Reset Not Yet Available";
                case "DEVICE_NOT_FOUND": return "Device Not Found";
                case "MAIL_UNAVAILABLE": return "E-mail Unavailable";
                case "EMAIL_NOT_VERIFIED": return "E-mail Not Verified";
                default: return fallbackTitle;
            }
        }

        /// <summary>Whether the program must close after showing it (update required, access blocked).</summary>
        public static bool Exits(string code)
        {
            return code == "VERSION_MISMATCH" || code == "BLACKLISTED";
        }

        /// <summary>The server's message, with what is missing and when to retry where it says so.</summary>
        public static string Text(ApiResponse answer)
        {
            var text = answer.Message ?? "";
            if (answer.MissingEntitlements != null && answer.MissingEntitlements.Count > 0)
                text += " (missing: " + string.Join(", ", answer.MissingEntitlements) + ")";
            if (answer.Code == "RESET_COOLDOWN" && !string.IsNullOrEmpty(answer.NextResetAt))
                text += " (next release possible at " + LocalTime(answer.NextResetAt) + ")";
            if (answer.Code == "RATE_LIMITED" && answer.RetryAfterSeconds > 0)
                text += " Try again in " + answer.RetryAfterSeconds + " seconds.";
            if (answer.Code == "EMAIL_NOT_VERIFIED")
                text += " Click \"Resend verification e-mail\" in the login window to be mailed a new link.";
            return text;
        }

        /// <summary>
        /// An ISO 8601 time of the server as this computer's local time to the minute, rounded up (so
        /// the time shown is never before the one meant); the text as it came when it is not one.
        /// </summary>
        public static string LocalTime(string iso)
        {
            DateTimeOffset at;
            if (!DateTimeOffset.TryParse(iso, System.Globalization.CultureInfo.InvariantCulture,
                    System.Globalization.DateTimeStyles.AssumeUniversal, out at)) return iso;
            var minute = at.AddTicks(-(at.Ticks % TimeSpan.TicksPerMinute));
            if (minute < at) minute = minute.AddMinutes(1);
            return minute.ToLocalTime().ToString("yyyy-MM-dd HH:mm", System.Globalization.CultureInfo.InvariantCulture);
        }

        public static void Show(IWin32Window owner, ApiResponse answer, string fallbackTitle)
        {
            Dialog.Show(owner, Text(answer), Title(answer.Code, fallbackTitle),
                Exits(answer.Code) ? MessageBoxIcon.Error : MessageBoxIcon.Warning);
        }
    }

    /// <summary>Message boxes, each also logged so what the user was told is on record.</summary>
    public static class Dialog
    {
        public static void Show(IWin32Window owner, string text, string title, MessageBoxIcon icon)
        {
            Log.Write("dialog \"" + title + "\": " + text);
            MessageBox.Show(owner, text, title, MessageBoxButtons.OK, icon);
        }

        /// <summary>A Yes/No question (No unless Yes is chosen), logged with the choice.</summary>
        public static bool Confirm(IWin32Window owner, string text, string title)
        {
            Log.Write("confirm \"" + title + "\": " + text);
            var isConfirmed = MessageBox.Show(owner, text, title, MessageBoxButtons.YesNo, MessageBoxIcon.Question) == DialogResult.Yes;
            Log.Write("confirm \"" + title + "\": " + (isConfirmed ? "yes" : "no"));
            return isConfirmed;
        }
    }

    public static class Log
    {
        // One line per event on standard output; never a password, a token only by its first 8 characters.
        public static void Write(string line)
        {
            Console.WriteLine("[latchkey] " + line);
            Console.Out.Flush();
        }

        public static string Preview(string token)
        {
            if (string.IsNullOrEmpty(token)) return "(none)";
            return token.Length <= 8 ? token : token.Substring(0, 8) + "...";
        }
    }

    /// <summary>
    /// Talks to the Latchkey client API. Every request carries the API key and a fresh nonce; every
    /// answer, whatever its HTTP status, is checked (Ed25519 signature over
    /// "{timestamp}.{nonce}.{body}" with the pinned public key, and a timestamp near the local clock)
    /// before its body is read.
    /// </summary>
    public class LatchkeyClient
    {
        private static readonly HttpClient Http = CreateHttpClient();
        private readonly string baseUrl;
        private readonly byte[] publicKey;

        public LatchkeyClient()
        {
            baseUrl = LatchkeySettings.BaseUrl.TrimEnd('/');
            publicKey = ParseHex(LatchkeySettings.SigningPublicKey);
            Hwid = HardwareId.Get();
            DeviceName = HardwareId.DeviceName();
        }

        public string Hwid { get; private set; }
        /// <summary>This machine's name, sent with a login so the user and the vendor can tell devices apart.</summary>
        public string DeviceName { get; private set; }
        public string UserId { get; private set; }
        public string SessionToken { get; private set; }

        private static HttpClient CreateHttpClient()
        {
            var http = new HttpClient();
            http.Timeout = TimeSpan.FromSeconds(LatchkeySettings.HTTP_TIMEOUT_SECONDS);
            return http;
        }

        public async Task<ApiResponse> LoginAsync(string username, string password)
        {
            var response = await PostAsync("/api/v1/login", new LoginRequest
            {
                Username = username,
                Password = password,
                ApiKey = LatchkeySettings.ApiKey,
                Version = LatchkeySettings.AppVersion,
                Hwid = Hwid,
                DeviceName = DeviceName,
            }).ConfigureAwait(false);
            if (response.Success)
            {
                UserId = response.UserId;
                SessionToken = response.SessionToken;
            }
            return response;
        }

        /// <summary>A licence key alone logs in: the answer is a login's (user id, session token).</summary>
        public async Task<ApiResponse> LoginWithLicenseAsync(string licenseKey)
        {
            var response = await PostAsync("/api/v1/license/login", new LicenseLoginRequest
            {
                LicenseKey = licenseKey,
                Hwid = Hwid,
                Version = LatchkeySettings.AppVersion,
                DeviceName = DeviceName,
            }).ConfigureAwait(false);
            if (response.Success)
            {
                UserId = response.UserId;
                SessionToken = response.SessionToken;
            }
            return response;
        }

        /// <summary>A new account; a licence key, when given, is redeemed in the same step. No session.</summary>
        public Task<ApiResponse> RegisterAsync(string username, string password, string email, string licenseKey)
        {
            return PostAsync("/api/v1/register", new RegisterRequest
            {
                Username = username,
                Password = password,
                Email = string.IsNullOrEmpty(email) ? null : email,
                Hwid = Hwid,
                LicenseKey = string.IsNullOrEmpty(licenseKey) ? null : licenseKey,
            });
        }

        /// <summary>Adds a licence key to an account; the password proves the holder.</summary>
        public Task<ApiResponse> RedeemLicenseAsync(string username, string password, string licenseKey)
        {
            return PostAsync("/api/v1/license/redeem", new RedeemRequest
            {
                Username = username,
                Password = password,
                LicenseKey = licenseKey,
            });
        }

        /// <summary>
        /// Releases this device from the account (the password proves the holder), so that another
        /// machine can take its seat; the server ends this device's sessions.
        /// </summary>
        public Task<ApiResponse> ReleaseThisDeviceAsync(string username, string password)
        {
            return PostAsync("/api/v1/devices/reset", new DeviceResetRequest
            {
                Username = username,
                Password = password,
                Hwid = Hwid,
            });
        }

        /// <summary>
        /// Has a link to choose a new password mailed to the account, named by its e-mail address when
        /// the text holds an '@' (every address has one, few usernames do), else by its username. The
        /// answer is the same whether or not such an account exists, so it tells no one who has an
        /// account here.
        /// </summary>
        public Task<ApiResponse> ForgotPasswordAsync(string usernameOrEmail)
        {
            var name = (usernameOrEmail ?? "").Trim();
            var isEmail = name.Contains("@");
            return PostAsync("/api/v1/password/forgot", new ForgotPasswordRequest
            {
                Username = isEmail ? null : name,
                Email = isEmail ? name : null,
            });
        }

        /// <summary>
        /// Has a new link to confirm the account's e-mail address mailed to it, where the application lets
        /// only confirmed addresses log in (login answers EMAIL_NOT_VERIFIED until the link is followed).
        /// The password proves the holder. The answer is the same whether or not the account exists or its
        /// address is confirmed already.
        /// </summary>
        public Task<ApiResponse> ResendVerificationAsync(string username, string password)
        {
            return PostAsync("/api/v1/email/verify/resend", new ResendVerificationRequest
            {
                Username = username,
                Password = password,
            });
        }

        /// <summary>Good standing now, and every entitlement of REQUIRED_ENTITLEMENTS held.</summary>
        public Task<ApiResponse> VerifyAsync(string userId)
        {
            var required = LatchkeySettings.REQUIRED_ENTITLEMENTS;
            return PostAsync("/api/v1/verify", new VerifyRequest
            {
                UserId = userId,
                Entitlements = required != null && required.Length > 0 ? required : null,
            });
        }

        /// <summary>
        /// Starts the session with the token login returned; with none (a saved session from an earlier
        /// launch) the client makes its own sess_{id}_{unix seconds} token, which the server accepts only
        /// from the address and device of the user's latest login.
        /// </summary>
        public Task<ApiResponse> StartSessionAsync(string userId)
        {
            UserId = userId;
            if (string.IsNullOrEmpty(SessionToken))
            {
                SessionToken = "sess_" + Guid.NewGuid().ToString("N") + "_" +
                    DateTimeOffset.UtcNow.ToUnixTimeSeconds();
            }
            return PostAsync("/api/v1/session/track", new SessionTrackRequest
            {
                Action = "start",
                UserId = userId,
                SessionToken = SessionToken,
                Hwid = Hwid,
            });
        }

        public Task<ApiResponse> HeartbeatAsync()
        {
            return PostAsync("/api/v1/session/track", new SessionTrackRequest
            {
                Action = "heartbeat",
                SessionToken = SessionToken,
            });
        }

        public async Task<ApiResponse> EndSessionAsync()
        {
            var token = SessionToken;
            SessionToken = null;
            if (string.IsNullOrEmpty(token)) return null;
            return await PostAsync("/api/v1/session/track", new SessionTrackRequest
            {
                Action = "end",
                SessionToken = token,
            }).ConfigureAwait(false);
        }

        /// <summary>An offline licence for this machine, for the live session (answers license, valid_until).</summary>
        public Task<ApiResponse> CheckOutLicenseAsync()
        {
            return PostAsync("/api/v1/license/checkout", new CheckoutRequest
            {
                SessionToken = SessionToken,
                TtlSeconds = LatchkeySettings.OFFLINE_LICENSE_TTL_SECONDS,
            });
        }

        /// <summary>An application variable the vendor sets in the console (with the session, for those that require one).</summary>
        public Task<ApiResponse> GetVariableAsync(string name)
        {
            return PostAsync("/api/v1/var", new VariableRequest { Name = name, SessionToken = SessionToken });
        }

        /// <summary>One of the session's own user's variables (answers value and read_only).</summary>
        public Task<ApiResponse> GetUserVariableAsync(string name)
        {
            return PostAsync("/api/v1/user-var", new UserVariableRequest { SessionToken = SessionToken, Name = name });
        }

        public Task<ApiResponse> SetUserVariableAsync(string name, string value)
        {
            return PostAsync("/api/v1/user-var/set", new UserVariableRequest { SessionToken = SessionToken, Name = name, Value = value ?? "" });
        }

        /// <summary>
        /// A short-lived download URL of one of the application's files, its size and SHA-256 in the
        /// signed answer. A release needs no session: a user on an old version cannot log in to start one.
        /// </summary>
        public Task<ApiResponse> GetFileAsync(string fileId)
        {
            return PostAsync("/api/v1/file", new FileRequest { FileId = fileId, SessionToken = SessionToken });
        }

        /// <summary>
        /// GETs a download URL into a temporary file beside destination, hashing while it writes, and
        /// renames it to destination only when its size and SHA-256 are the signed ones; otherwise the
        /// temporary file is deleted and the answer is false. The bytes are not signed (a proxy or a
        /// broken disk could change them); their hash is.
        /// </summary>
        public static async Task<bool> DownloadVerifiedAsync(string url, long expectedSize, string expectedSha256, string destination)
        {
            var temporary = destination + ".part";
            var isMatch = false;
            try
            {
                using (var answer = await Http.GetAsync(url, HttpCompletionOption.ResponseHeadersRead).ConfigureAwait(false))
                {
                    answer.EnsureSuccessStatusCode();
                    using (var body = await answer.Content.ReadAsStreamAsync().ConfigureAwait(false))
                    using (var file = new FileStream(temporary, FileMode.Create, FileAccess.Write))
                    using (var sha = SHA256.Create())
                    {
                        var buffer = new byte[81920];
                        long size = 0;
                        int read;
                        while ((read = await body.ReadAsync(buffer, 0, buffer.Length).ConfigureAwait(false)) > 0)
                        {
                            size += read;
                            if (size > expectedSize) break; // longer than signed: no need to read on
                            sha.TransformBlock(buffer, 0, read, null, 0);
                            await file.WriteAsync(buffer, 0, read).ConfigureAwait(false);
                        }
                        sha.TransformFinalBlock(new byte[0], 0, 0);
                        isMatch = size == expectedSize && ToHex(sha.Hash) == expectedSha256;
                    }
                }
                if (isMatch)
                {
                    if (File.Exists(destination)) File.Delete(destination);
                    File.Move(temporary, destination);
                }
                return isMatch;
            }
            finally
            {
                if (!isMatch && File.Exists(temporary)) File.Delete(temporary);
            }
        }

        public void Reset()
        {
            UserId = null;
            SessionToken = null;
        }

        private async Task<ApiResponse> PostAsync(string path, object payload)
        {
            var nonce = NewNonce();
            var request = new HttpRequestMessage(HttpMethod.Post, baseUrl + path);
            request.Headers.Add("X-API-Key", LatchkeySettings.ApiKey);
            request.Headers.Add("X-Request-Nonce", nonce);
            request.Content = new ByteArrayContent(Json.Serialize(payload));
            request.Content.Headers.ContentType = new System.Net.Http.Headers.MediaTypeHeaderValue("application/json");

            HttpResponseMessage sent;
            try
            {
                sent = await Http.SendAsync(request).ConfigureAwait(false);
            }
            catch (Exception error) when (error is HttpRequestException || error is TaskCanceledException)
            {
                throw new ServerUnreachableException(error);
            }
            using (var answer = sent)
            {
                var body = await answer.Content.ReadAsByteArrayAsync().ConfigureAwait(false);
                var timestamp = FirstHeader(answer, "X-Signature-Timestamp");
                var signature = FirstHeader(answer, "X-Signature-Ed25519");
                if (!IsGenuineResponse(publicKey, timestamp, nonce, body, signature,
                        DateTimeOffset.UtcNow.ToUnixTimeSeconds()))
                {
                    Log.Write("response not verified (" + path + ", HTTP " + (int)answer.StatusCode + ")");
                    throw new ResponseNotVerifiedException("The server response could not be verified.");
                }
                if ((int)answer.StatusCode >= 500)
                {
                    throw new HttpRequestException("the server answered HTTP " + (int)answer.StatusCode);
                }
                var response = Json.Deserialize<ApiResponse>(body);
                if (response == null) throw new HttpRequestException("the server's answer is not JSON");
                if (answer.Headers.RetryAfter != null && answer.Headers.RetryAfter.Delta.HasValue)
                {
                    response.RetryAfterSeconds = (int)answer.Headers.RetryAfter.Delta.Value.TotalSeconds;
                }
                return response;
            }
        }

        private static string FirstHeader(HttpResponseMessage answer, string name)
        {
            IEnumerable<string> values;
            return answer.Headers.TryGetValues(name, out values) ? values.FirstOrDefault() : null;
        }

        /// <summary>
        /// True only for an answer signed by the holder of the application's private key, for this
        /// request's nonce, at a time within MAX_CLOCK_SKEW_SECONDS of nowUnixSeconds.
        /// </summary>
        public static bool IsGenuineResponse(byte[] publicKey, string timestamp, string nonce, byte[] body,
            string signatureHex, long nowUnixSeconds)
        {
            if (publicKey == null || publicKey.Length != 32) return false;
            if (string.IsNullOrEmpty(timestamp) || string.IsNullOrEmpty(signatureHex)) return false;
            long signedAt;
            if (!long.TryParse(timestamp, System.Globalization.NumberStyles.None,
                    System.Globalization.CultureInfo.InvariantCulture, out signedAt)) return false;
            if (Math.Abs(nowUnixSeconds - signedAt) > LatchkeySettings.MAX_CLOCK_SKEW_SECONDS) return false;
            var signature = ParseHex(signatureHex);
            if (signature == null || signature.Length != 64) return false;
            var prefix = Encoding.UTF8.GetBytes(timestamp + "." + nonce + ".");
            var message = new byte[prefix.Length + body.Length];
            Buffer.BlockCopy(prefix, 0, message, 0, prefix.Length);
            Buffer.BlockCopy(body, 0, message, prefix.Length, body.Length);
            return Ed25519.Verify(publicKey, message, signature);
        }

        private static string NewNonce()
        {
            var bytes = new byte[16];
            using (var random = RandomNumberGenerator.Create()) random.GetBytes(bytes);
            return ToHex(bytes);
        }

        public static string ToHex(byte[] bytes)
        {
            var text = new StringBuilder(bytes.Length * 2);
            foreach (var b in bytes) text.Append(b.ToString("x2"));
            return text.ToString();
        }

        /// <summary>The bytes of a hex string, or null when it is not one.</summary>
        public static byte[] ParseHex(string hex)
        {
            if (hex == null || hex.Length % 2 != 0) return null;
            var bytes = new byte[hex.Length / 2];
            for (var i = 0; i < bytes.Length; i++)
            {
                var high = HexValue(hex[2 * i]);
                var low = HexValue(hex[2 * i + 1]);
                if (high < 0 || low < 0) return null;
                bytes[i] = (byte)(high * 16 + low);
            }
            return bytes;
        }

        private static int HexValue(char c)
        {
            if (c >= '0' && c <= '9') return c - '0';
            if (c >= 'a' && c <= 'f') return c - 'a' + 10;
            if (c >= 'A' && c <= 'F') return c - 'A' + 10;
            return -1;
        }
    }

    public static class Json
    {
        public static byte[] Serialize(object value)
        {
            using (var stream = new MemoryStream())
            {
                new DataContractJsonSerializer(value.GetType()).WriteObject(stream, value);
                return stream.ToArray();
            }
        }

        public static T Deserialize<T>(byte[] bytes) where T : class
        {
            try
            {
                using (var stream = new MemoryStream(bytes))
                {
                    return new DataContractJsonSerializer(typeof(T)).ReadObject(stream) as T;
                }
            }
            catch (SerializationException)
            {
                return null;
            }
        }
    }

    /// <summary>
    /// Ed25519 signature verification (RFC 8032 section 5.1.7) in managed code, so the sample needs no native
    /// library. Points are decoded strictly (y &lt; p, no negative zero), S must be below the group
    /// order, and [S]B is compared with R + [k]A in extended coordinates (the cofactorless check).
    /// Only public data is handled, so constant time is not needed.
    /// </summary>
    public static class Ed25519
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
        public static BigInteger[] Decode(byte[] encoded)
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

    public enum OfflineVerdict { Accepted, NotSigned, OtherMachine, Expired, ClockMovedBack }

    /// <summary>An offline licence as checked: the verdict and, once its signature held, what it says.</summary>
    public class OfflineCheck
    {
        public OfflineVerdict Verdict = OfflineVerdict.NotSigned;
        public OfflineLicenseContent Content;

        /// <summary>What the user is told when the licence is refused (title "Offline Licence Refused").</summary>
        public string RefusalText
        {
            get
            {
                switch (Verdict)
                {
                    case OfflineVerdict.OtherMachine: return "This offline licence belongs to another machine.";
                    case OfflineVerdict.Expired: return "This offline licence expired on " + Refusals.LocalTime(Content.ValidUntil) + ".";
                    case OfflineVerdict.ClockMovedBack: return "The system clock moved backwards since the last run.";
                    default: return "This offline licence is not signed by this application.";
                }
            }
        }
    }

    /// <summary>
    /// Checks an offline licence without the network: the program's only trust boundary when the
    /// server cannot be reached. A licence is "LK1.&lt;payload&gt;.&lt;signature&gt;" (docs/client-api.md,
    /// "Offline licences"): the Ed25519 signature, by the application's key, over
    /// "latchkey-license-v1." and the payload segment as it stands. The domain prefix means no
    /// signed API answer can pass as a licence.
    /// </summary>
    public static class OfflineLicense
    {
        private const string SigningDomain = "latchkey-license-v1.";

        /// <summary>
        /// The pinned public key stands for this application, and applicationId (when given: the one
        /// the licence checked out online named, in an answer signed for that request) must be the licence's. The licence must be bound to
        /// this machine's HWID (an unbound one could be copied to any machine) and hold now. The clock
        /// is the one thing the user controls offline, so a clock earlier than the last time this
        /// program ran (or than the licence's issue) by more than CLOCK_TOLERANCE_SECONDS is refused:
        /// setting the date back must not stretch a licence.
        /// </summary>
        public static OfflineCheck Check(string license, byte[] publicKey, string hwid, long nowUnixSeconds,
            long lastSeenUnixSeconds, long? applicationId)
        {
            var result = new OfflineCheck();
            var segments = (license ?? "").Split('.');
            if (segments.Length != 3 || segments[0] != "LK1") return result;
            var payload = FromBase64Url(segments[1]);
            var signature = FromBase64Url(segments[2]);
            if (payload == null || signature == null || signature.Length != 64) return result;
            if (!Ed25519.Verify(publicKey, Encoding.ASCII.GetBytes(SigningDomain + segments[1]), signature)) return result;

            var content = Json.Deserialize<OfflineLicenseContent>(payload);
            if (content == null || !content.ApplicationId.HasValue) return result;
            if (applicationId.HasValue && content.ApplicationId.Value != applicationId.Value) return result;
            var validUntil = UnixSeconds(content.ValidUntil);
            var issuedAt = UnixSeconds(content.IssuedAt);
            if (!validUntil.HasValue || !issuedAt.HasValue) return result;
            result.Content = content;

            if (string.IsNullOrEmpty(content.Hwid) || content.Hwid != hwid)
                result.Verdict = OfflineVerdict.OtherMachine;
            else if (nowUnixSeconds > validUntil.Value)
                result.Verdict = OfflineVerdict.Expired;
            else if (nowUnixSeconds + LatchkeySettings.CLOCK_TOLERANCE_SECONDS < Math.Max(lastSeenUnixSeconds, issuedAt.Value))
                result.Verdict = OfflineVerdict.ClockMovedBack;
            else
                result.Verdict = OfflineVerdict.Accepted;
            return result;
        }

        /// <summary>
        /// RFC 4648 section 5 base64url without padding, canonical only; null when the text is not that.
        /// Convert.FromBase64String ignores non-zero unused bits, so the text counts only when it
        /// re-encodes to exactly itself.
        /// </summary>
        public static byte[] FromBase64Url(string text)
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

        private static long? UnixSeconds(string iso)
        {
            DateTimeOffset at;
            if (string.IsNullOrEmpty(iso) || !DateTimeOffset.TryParse(iso, System.Globalization.CultureInfo.InvariantCulture,
                    System.Globalization.DateTimeStyles.AssumeUniversal, out at)) return null;
            return at.ToUnixTimeSeconds();
        }
    }

    /// <summary>
    /// The hardware id: a 32-character base64 substring of a SHA-256 of the processor id and the
    /// baseboard serial. Both come from WMI on Windows; System.Management is reached by reflection
    /// because .NET 8 only has it as a NuGet package. Where WMI is not available the documented
    /// fallback hashes a fixed prefix plus the machine name.
    /// </summary>
    public static class HardwareId
    {
        private const string FallbackPrefix = "LATCHKEY-FALLBACK-";

        public static string Get()
        {
            var processorId = QueryWmi("Win32_Processor", "ProcessorId");
            var boardSerial = QueryWmi("Win32_BaseBoard", "SerialNumber");
            var source = processorId.Length > 0 || boardSerial.Length > 0
                ? processorId + "|" + boardSerial
                : FallbackPrefix + Environment.MachineName;
            using (var sha = SHA256.Create())
            {
                var hash = Convert.ToBase64String(sha.ComputeHash(Encoding.UTF8.GetBytes(source)));
                return hash.Substring(0, 32);
            }
        }

        private static string QueryWmi(string wmiClass, string property)
        {
            if (Environment.OSVersion.Platform != PlatformID.Win32NT) return "";
            try
            {
                var searcherType = Type.GetType(
                    "System.Management.ManagementObjectSearcher, System.Management, Version=4.0.0.0, " +
                    "Culture=neutral, PublicKeyToken=b03f5f7f11d50a3a", false);
                if (searcherType == null) return "";
                var searcher = Activator.CreateInstance(searcherType, "SELECT " + property + " FROM " + wmiClass);
                try
                {
                    var results = searcherType.GetMethod("Get", Type.EmptyTypes).Invoke(searcher, null) as IEnumerable;
                    if (results == null) return "";
                    foreach (var item in results)
                    {
                        var value = item.GetType().GetMethod("GetPropertyValue", new[] { typeof(string) })
                            .Invoke(item, new object[] { property });
                        var text = value == null ? "" : value.ToString().Trim();
                        if (text.Length > 0) return text;
                    }
                }
                finally
                {
                    var disposable = searcher as IDisposable;
                    if (disposable != null) disposable.Dispose();
                }
            }
            catch (Exception error)
            {
                Log.Write("hardware id: " + wmiClass + " unavailable (" + error.GetType().Name + ")");
            }
            return "";
        }

        /// <summary>The machine's name (at most 128 characters, the server's limit), or null when it has none.</summary>
        public static string DeviceName()
        {
            string name;
            try
            {
                name = Environment.MachineName;
            }
            catch (InvalidOperationException)
            {
                return null;
            }
            name = (name ?? "").Trim();
            if (name.Length == 0) return null;
            if (name.Length <= 128) return name;
            // Never half of a surrogate pair: the server refuses text that is not valid Unicode.
            return name.Substring(0, char.IsHighSurrogate(name[127]) ? 127 : 128);
        }
    }

    /// <summary>The saved user id, verified on the next start, in ~/.latchkey/{first 12 characters of the API key}.json.</summary>
    public static class SessionStore
    {
        private static string FilePath
        {
            get { return StatePath(".json"); }
        }

        /// <summary>~/.latchkey/{first 12 characters of the API key}{suffix}</summary>
        public static string StatePath(string suffix)
        {
            var home = Environment.GetFolderPath(Environment.SpecialFolder.UserProfile);
            var key = LatchkeySettings.ApiKey.Length > 12 ? LatchkeySettings.ApiKey.Substring(0, 12) : LatchkeySettings.ApiKey;
            var safeKey = new string(key.Select(c => char.IsLetterOrDigit(c) || c == '_' || c == '-' ? c : '_').ToArray());
            return Path.Combine(Path.Combine(home, ".latchkey"), safeKey + suffix);
        }

        public static SavedSession Load()
        {
            try
            {
                if (!File.Exists(FilePath)) return null;
                var saved = Json.Deserialize<SavedSession>(File.ReadAllBytes(FilePath));
                return saved != null && !string.IsNullOrEmpty(saved.UserId) ? saved : null;
            }
            catch (IOException)
            {
                return null;
            }
        }

        public static void Save(string userId, string username)
        {
            try
            {
                Directory.CreateDirectory(Path.GetDirectoryName(FilePath));
                File.WriteAllBytes(FilePath, Json.Serialize(new SavedSession { UserId = userId, Username = username }));
            }
            catch (Exception error)
            {
                Log.Write("could not save the session: " + error.Message);
            }
        }

        /// <summary>Forgets the saved session, and its offline licence with it: it was that user's.</summary>
        public static void Clear()
        {
            try
            {
                if (File.Exists(FilePath)) File.Delete(FilePath);
            }
            catch (Exception error)
            {
                Log.Write("could not clear the saved session: " + error.Message);
            }
            OfflineStore.Clear();
        }
    }

    /// <summary>
    /// The offline licence of the last login and the last time the program saw the clock, in
    /// ~/.latchkey/{first 12 characters of the API key}.offline.json: {"license": "LK1...", "last_seen": unix seconds}.
    /// </summary>
    public static class OfflineStore
    {
        private static readonly object FileLock = new object();

        private static string FilePath
        {
            get { return SessionStore.StatePath(".offline.json"); }
        }

        public static OfflineState Load()
        {
            lock (FileLock)
            {
                try
                {
                    if (!File.Exists(FilePath)) return null;
                    var state = Json.Deserialize<OfflineState>(File.ReadAllBytes(FilePath));
                    return state != null && !string.IsNullOrEmpty(state.License) ? state : null;
                }
                catch (IOException)
                {
                    return null;
                }
            }
        }

        /// <summary>A fresh licence; last_seen never goes down (it is what the clock check compares with).</summary>
        public static void SaveLicense(string license, long applicationId)
        {
            lock (FileLock)
            {
                var previous = Load();
                Write(new OfflineState
                {
                    License = license,
                    ApplicationId = applicationId,
                    LastSeen = Math.Max(DateTimeOffset.UtcNow.ToUnixTimeSeconds(), previous == null ? 0 : previous.LastSeen),
                });
            }
        }

        /// <summary>Records that the program ran now (each start and heartbeat), never lowering last_seen.</summary>
        public static void TouchLastSeen()
        {
            lock (FileLock)
            {
                var state = Load();
                var now = DateTimeOffset.UtcNow.ToUnixTimeSeconds();
                if (state == null || now <= state.LastSeen) return;
                state.LastSeen = now;
                Write(state);
            }
        }

        public static void Clear()
        {
            lock (FileLock)
            {
                try
                {
                    if (File.Exists(FilePath)) File.Delete(FilePath);
                }
                catch (Exception error)
                {
                    Log.Write("could not clear the offline licence: " + error.Message);
                }
            }
        }

        private static void Write(OfflineState state)
        {
            try
            {
                Directory.CreateDirectory(Path.GetDirectoryName(FilePath));
                File.WriteAllBytes(FilePath, Json.Serialize(state));
            }
            catch (Exception error)
            {
                Log.Write("could not save the offline licence: " + error.Message);
            }
        }
    }

    /// <summary>The login window (400x300): a password login, or registration, or a licence key alone.</summary>
    public class LoginForm : Form
    {
        private readonly LatchkeyClient client = new LatchkeyClient();
        private readonly TextBox usernameBox = new TextBox();
        private readonly TextBox passwordBox = new TextBox();
        private readonly Button loginButton = new Button();
        private readonly Button registerButton = new Button();
        private readonly Button licenseKeyButton = new Button();
        private readonly LinkLabel forgotPasswordLink = new LinkLabel();
        private readonly LinkLabel resendVerificationLink = new LinkLabel();
        private readonly Label statusLabel = new Label();
        private MainForm mainForm;

        public LoginForm()
        {
            Text = "Latchkey Login";
            ClientSize = new Size(400, 300);
            FormBorderStyle = FormBorderStyle.FixedDialog;
            MaximizeBox = false;
            StartPosition = FormStartPosition.CenterScreen;

            var title = new Label { Text = "Sign in", Font = new Font(FontFamily.GenericSansSerif, 14f, FontStyle.Bold), Location = new Point(30, 20), Size = new Size(340, 30) };
            var usernameLabel = new Label { Text = "Username", Location = new Point(30, 70), Size = new Size(90, 22) };
            usernameBox.Location = new Point(130, 68);
            usernameBox.Size = new Size(240, 22);
            usernameBox.TabIndex = 0;
            var passwordLabel = new Label { Text = "Password", Location = new Point(30, 110), Size = new Size(90, 22) };
            passwordBox.Location = new Point(130, 108);
            passwordBox.Size = new Size(240, 22);
            passwordBox.UseSystemPasswordChar = true;
            passwordBox.TabIndex = 1;
            loginButton.Text = "Login";
            loginButton.Location = new Point(130, 150);
            loginButton.Size = new Size(240, 32);
            loginButton.TabIndex = 2;
            loginButton.Click += OnLoginClick;
            registerButton.Text = "Register...";
            registerButton.Location = new Point(130, 192);
            registerButton.Size = new Size(115, 28);
            registerButton.TabIndex = 3;
            registerButton.Click += OnRegisterClick;
            licenseKeyButton.Text = "Licence key...";
            licenseKeyButton.Location = new Point(255, 192);
            licenseKeyButton.Size = new Size(115, 28);
            licenseKeyButton.TabIndex = 4;
            licenseKeyButton.Click += OnLicenseKeyClick;
            forgotPasswordLink.Text = "Forgot password?";
            forgotPasswordLink.Location = new Point(130, 230);
            forgotPasswordLink.Size = new Size(240, 20);
            forgotPasswordLink.TabIndex = 5;
            forgotPasswordLink.LinkClicked += OnForgotPasswordClick;
            resendVerificationLink.Text = "Resend verification e-mail";
            resendVerificationLink.Location = new Point(130, 252);
            resendVerificationLink.Size = new Size(240, 20);
            resendVerificationLink.TabIndex = 6;
            resendVerificationLink.LinkClicked += OnResendVerificationClick;
            statusLabel.Location = new Point(30, 276);
            statusLabel.Size = new Size(340, 22);

            Controls.AddRange(new Control[] { title, usernameLabel, usernameBox, passwordLabel, passwordBox, loginButton, registerButton, licenseKeyButton, forgotPasswordLink, resendVerificationLink, statusLabel });
            AcceptButton = loginButton;
            ActiveControl = usernameBox;
            Shown += OnShownFirst;
        }

        /// <summary>A user id saved by an earlier launch is verified before anything is shown as signed in.</summary>
        private async void OnShownFirst(object sender, EventArgs e)
        {
            Shown -= OnShownFirst;
            var saved = SessionStore.Load();
            if (saved == null) return;
            SetBusy(true, "Checking the saved session...");
            try
            {
                var verify = await client.VerifyAsync(saved.UserId);
                if (!verify.Success)
                {
                    Log.Write("saved session refused (" + verify.Code + ")");
                    SessionStore.Clear();
                    SetBusy(false, "");
                    return;
                }
                Log.Write("saved session verified");
                SetBusy(false, "Saved session verified.");
                var user = new UserInfo { UserId = saved.UserId, Username = saved.Username };
                user.TakeLicensing(verify);
                await OpenMainAsync(user, "Saved session verified.");
            }
            catch (ResponseNotVerifiedException error)
            {
                SessionStore.Clear();
                SetBusy(false, "");
                Dialog.Show(this, error.Message, "Security Warning", MessageBoxIcon.Warning);
            }
            catch (ServerUnreachableException error)
            {
                Log.Write("server unreachable (" + Describe(error) + ")");
                SetBusy(false, "");
                StartOffline();
            }
            catch (Exception error)
            {
                Log.Write("saved session check failed: " + Describe(error));
                SetBusy(false, "");
            }
        }

        /// <summary>
        /// The server cannot be reached: the offline licence stored at the last login, checked here with
        /// the pinned key alone, may let the user in until its valid_until. There is no session, so
        /// no heartbeats: the server would not answer them.
        /// </summary>
        private void StartOffline()
        {
            var stored = OfflineStore.Load();
            if (stored == null)
            {
                Log.Write("no offline licence");
                Dialog.Show(this, "Cannot reach the server, and there is no offline licence on this machine.",
                    "Server Unreachable", MessageBoxIcon.Warning);
                return;
            }
            var checkedLicense = OfflineLicense.Check(stored.License, LatchkeyClient.ParseHex(LatchkeySettings.SigningPublicKey),
                client.Hwid, DateTimeOffset.UtcNow.ToUnixTimeSeconds(), stored.LastSeen, stored.ApplicationId);
            if (checkedLicense.Verdict != OfflineVerdict.Accepted)
            {
                Log.Write("offline licence refused (" + checkedLicense.Verdict + ")");
                Dialog.Show(this, checkedLicense.RefusalText, "Offline Licence Refused", MessageBoxIcon.Warning);
                return;
            }
            Log.Write("offline licence accepted");
            var content = checkedLicense.Content;
            var user = new UserInfo
            {
                UserId = content.UserId,
                Username = content.Username,
                ExpiresAt = string.IsNullOrEmpty(content.AccountExpiresAt) ? "Never" : content.AccountExpiresAt,
                HwidLock = "Licence bound to this device",
                Entitlements = content.Entitlements ?? new List<string>(),
                Subscriptions = content.Subscriptions ?? new List<SubscriptionInfo>(),
            };
            OpenMain(user, "Welcome, " + user.Username, content.ValidUntil);
        }

        private async void OnLoginClick(object sender, EventArgs e)
        {
            var username = usernameBox.Text.Trim();
            var password = passwordBox.Text;
            if (username.Length == 0 || password.Length == 0)
            {
                Dialog.Show(this, "Please enter both username and password.", "Login Failed", MessageBoxIcon.Warning);
                return;
            }
            await LogInAsync(() => client.LoginAsync(username, password));
        }

        /// <summary>Logs in with a licence key alone: the answer is a login's, and goes the same way.</summary>
        private async void OnLicenseKeyClick(object sender, EventArgs e)
        {
            string licenseKey;
            using (var prompt = new PromptForm("Latchkey Licence Key", "Log in with a licence key", "Log in",
                new[] { new PromptField("Licence key", false) }))
            {
                if (prompt.ShowDialog(this) != DialogResult.OK) return;
                licenseKey = prompt.Values[0].Trim();
            }
            if (licenseKey.Length == 0)
            {
                Dialog.Show(this, "Please enter a licence key.", "Login Failed", MessageBoxIcon.Warning);
                return;
            }
            await LogInAsync(() => client.LoginWithLicenseAsync(licenseKey));
        }

        /// <summary>
        /// Asks for the username or e-mail address and has a link to choose a new password mailed to the
        /// account. The answer reads the same whether or not the account exists, so the login window
        /// stays as it is.
        /// </summary>
        private async void OnForgotPasswordClick(object sender, LinkLabelLinkClickedEventArgs e)
        {
            string usernameOrEmail;
            using (var prompt = new PromptForm("Latchkey Forgot Password", "Mail me a link for a new password", "Send link",
                new[] { new PromptField("Username or e-mail", false) }))
            {
                if (prompt.ShowDialog(this) != DialogResult.OK) return;
                usernameOrEmail = prompt.Values[0].Trim();
            }
            if (usernameOrEmail.Length == 0)
            {
                Dialog.Show(this, "Please enter your username or your e-mail address.", "Password Reset Failed", MessageBoxIcon.Warning);
                return;
            }

            await RequestMailAsync(() => client.ForgotPasswordAsync(usernameOrEmail), "Password Reset Failed",
                "password reset");
        }

        /// <summary>
        /// Has a new link to confirm the account's address mailed to it, for the username and password in
        /// the login window (still there after a login refused as E-mail Not Verified). The answer reads
        /// the same whatever the account, so the login window stays as it is.
        /// </summary>
        private async void OnResendVerificationClick(object sender, LinkLabelLinkClickedEventArgs e)
        {
            var username = usernameBox.Text.Trim();
            var password = passwordBox.Text;
            if (username.Length == 0 || password.Length == 0)
            {
                Dialog.Show(this, "Please enter both username and password.", "Resend Failed", MessageBoxIcon.Warning);
                return;
            }

            await RequestMailAsync(() => client.ResendVerificationAsync(username, password), "Resend Failed",
                "verification e-mail");
        }

        /// <summary>
        /// Asks the server to mail a link (a new password's, an address confirmation's) and shows what it
        /// answered: the same text whatever the account, or a refusal under <paramref name="failedTitle"/>.
        /// </summary>
        private async Task RequestMailAsync(Func<Task<ApiResponse>> request, string failedTitle, string what)
        {
            SetBusy(true, "Requesting a link...");
            try
            {
                var answer = await request();
                SetBusy(false, "");
                if (!answer.Success)
                {
                    Log.Write(what + " request failed (" + answer.Code + "): " + answer.Message);
                    ShowRefusal(answer, failedTitle);
                    return;
                }
                Log.Write(what + " requested");
                Dialog.Show(this, answer.Message, "Check Your E-mail", MessageBoxIcon.Information);
            }
            catch (ResponseNotVerifiedException error)
            {
                SetBusy(false, "");
                Dialog.Show(this, error.Message, "Security Warning", MessageBoxIcon.Warning);
            }
            catch (Exception error)
            {
                Log.Write("network error: " + Describe(error));
                SetBusy(false, "");
                Dialog.Show(this, "Network error: " + Describe(error), "Error", MessageBoxIcon.Error);
            }
        }

        /// <summary>Registers (a licence key, when given, is redeemed in the same step), then logs in.</summary>
        private async void OnRegisterClick(object sender, EventArgs e)
        {
            string[] values;
            using (var prompt = new PromptForm("Latchkey Register", "Create an account", "Register", new[]
            {
                new PromptField("Username", false),
                new PromptField("Password", true),
                new PromptField("E-mail (optional)", false),
                new PromptField("Licence key", false),
            }))
            {
                if (prompt.ShowDialog(this) != DialogResult.OK) return;
                values = prompt.Values;
            }
            var username = values[0].Trim();
            var password = values[1];
            if (username.Length == 0 || password.Length == 0)
            {
                Dialog.Show(this, "Please enter both username and password.", "Registration Failed", MessageBoxIcon.Warning);
                return;
            }

            SetBusy(true, "Registering...");
            try
            {
                var registered = await client.RegisterAsync(username, password, values[2].Trim(), values[3].Trim());
                SetBusy(false, "");
                if (!registered.Success)
                {
                    Log.Write("register failed (" + registered.Code + "): " + registered.Message);
                    ShowRefusal(registered, "Registration Failed");
                    return;
                }
                Log.Write("register ok");
                Dialog.Show(this, registered.Message, "Registration Successful", MessageBoxIcon.Information);
            }
            catch (ResponseNotVerifiedException error)
            {
                SetBusy(false, "");
                Dialog.Show(this, error.Message, "Security Warning", MessageBoxIcon.Warning);
                return;
            }
            catch (Exception error)
            {
                Log.Write("network error: " + Describe(error));
                SetBusy(false, "");
                Dialog.Show(this, "Network error: " + Describe(error), "Error", MessageBoxIcon.Error);
                return;
            }
            usernameBox.Text = username;
            passwordBox.Text = password;
            await LogInAsync(() => client.LoginAsync(username, password));
        }

        /// <summary>A login (by password or by licence key), then verify, then the main window.</summary>
        private async Task LogInAsync(Func<Task<ApiResponse>> logIn)
        {
            SetBusy(true, "Signing in...");
            try
            {
                var login = await logIn();
                if (!login.Success)
                {
                    Log.Write("login failed (" + login.Code + "): " + login.Message);
                    SetBusy(false, "");
                    if (login.Code == "VERSION_MISMATCH" && login.Update != null)
                    {
                        await OfferUpdateAsync(login);
                        return;
                    }
                    ShowRefusal(login, "Login Failed");
                    return;
                }
                Log.Write("login ok (session token " + Log.Preview(login.SessionToken) + ")");
                Dialog.Show(this, login.Message, "Login Successful", MessageBoxIcon.Information);

                var verify = await client.VerifyAsync(login.UserId);
                if (!verify.Success)
                {
                    Log.Write("verify after login failed (" + verify.Code + ")");
                    client.Reset();
                    ClearFields();
                    SetBusy(false, "");
                    if (verify.Code == "ENTITLEMENTS_MISSING" || verify.Code == "EMAIL_NOT_VERIFIED")
                        Refusals.Show(this, verify, "Security Warning");
                    else
                        Dialog.Show(this, "Session verification failed. Please try logging in again.", "Security Warning", MessageBoxIcon.Warning);
                    return;
                }
                Log.Write("verify ok");
                SessionStore.Save(login.UserId, login.Username);
                SetBusy(false, "");
                var user = new UserInfo
                {
                    UserId = login.UserId,
                    Username = login.Username,
                    Email = login.Email,
                    ExpiresAt = string.IsNullOrEmpty(login.ExpiresAt) ? "Never" : login.ExpiresAt,
                    HwidLock = login.HwidLocked ? "Locked to this device" : "Not locked",
                };
                user.TakeLicensing(verify);
                await OpenMainAsync(user, login.Message);
            }
            catch (ResponseNotVerifiedException error)
            {
                client.Reset();
                SetBusy(false, "");
                Dialog.Show(this, error.Message, "Security Warning", MessageBoxIcon.Warning);
            }
            catch (Exception error)
            {
                Log.Write("network error: " + Describe(error));
                client.Reset();
                SetBusy(false, "");
                Dialog.Show(this, "Network error: " + Describe(error), "Error", MessageBoxIcon.Error);
            }
        }

        /// <summary>
        /// This version may not be used, and the vendor has published the current one: the user may
        /// download it next to the program. The program exits afterwards either way.
        /// </summary>
        private async Task OfferUpdateAsync(ApiResponse refusal)
        {
            var update = refusal.Update;
            Refusals.Show(this, refusal, "Login Failed");
            if (Dialog.Confirm(this, "Version " + update.Version + " is available. Download it?", "Update Available"))
            {
                SetBusy(true, "Downloading version " + update.Version + "...");
                try
                {
                    var file = await client.GetFileAsync(update.FileId);
                    if (!file.Success)
                    {
                        Log.Write("download refused (" + file.Code + ")");
                        Refusals.Show(this, file, "Download Failed");
                    }
                    else
                    {
                        var safeVersion = new string(update.Version.Select(c => char.IsLetterOrDigit(c) || c == '.' || c == '-' || c == '_' ? c : '_').ToArray());
                        var destination = Path.Combine(AppDomain.CurrentDomain.BaseDirectory, "update-" + safeVersion + ".bin");
                        // The file's answer must describe the same bytes as the login's: both are signed.
                        var isSaved = file.Sha256 == update.Sha256 && file.Size == update.Size &&
                            await LatchkeyClient.DownloadVerifiedAsync(file.Url, update.Size, update.Sha256, destination);
                        if (isSaved)
                        {
                            Log.Write("update saved");
                            Dialog.Show(this, "Update saved to " + destination, "Update Saved", MessageBoxIcon.Information);
                        }
                        else
                        {
                            Log.Write("update refused (SHA-256 mismatch)");
                            Dialog.Show(this, "The download does not match its signed SHA-256.", "Update Refused", MessageBoxIcon.Error);
                        }
                    }
                }
                catch (ResponseNotVerifiedException error)
                {
                    Dialog.Show(this, error.Message, "Security Warning", MessageBoxIcon.Warning);
                }
                catch (Exception error)
                {
                    Log.Write("download error: " + Describe(error));
                    Dialog.Show(this, "Network error: " + Describe(error), "Download Failed", MessageBoxIcon.Error);
                }
            }
            Log.Write("exiting (" + refusal.Code + ")");
            Application.Exit();
        }

        /// <summary>Refusals are told apart by their code, never by the (vendor-editable) message.</summary>
        private void ShowRefusal(ApiResponse answer, string fallbackTitle)
        {
            Refusals.Show(this, answer, fallbackTitle);
            if (Refusals.Exits(answer.Code))
            {
                Log.Write("exiting (" + answer.Code + ")");
                Application.Exit();
            }
        }

        private async Task OpenMainAsync(UserInfo user, string welcome)
        {
            OpenMain(user, welcome, null);
            await mainForm.StartMonitoringAsync();
        }

        /// <summary>The main window; offlineUntil (the licence's valid_until) when working offline, else null.</summary>
        private void OpenMain(UserInfo user, string welcome, string offlineUntil)
        {
            mainForm = new MainForm(client, user, welcome, offlineUntil);
            mainForm.LoggedOut += OnLoggedOut;
            mainForm.FormClosed += OnMainClosed;
            Hide();
            mainForm.Show();
        }

        /// <summary>Manual, forced or refused: back to a cleared login screen.</summary>
        private void OnLoggedOut(object sender, LogoutEventArgs e)
        {
            var closing = mainForm;
            mainForm = null;
            closing.FormClosed -= OnMainClosed;
            closing.Close();
            SessionStore.Clear();
            client.Reset();
            ClearFields();
            SetBusy(false, "");
            Show();
            Dialog.Show(this, e.Message, e.Title, e.IsWarning ? MessageBoxIcon.Warning : MessageBoxIcon.Information);
            usernameBox.Focus();
        }

        private void OnMainClosed(object sender, FormClosedEventArgs e)
        {
            Close();
        }

        private void ClearFields()
        {
            usernameBox.Text = "";
            passwordBox.Text = "";
            ActiveControl = usernameBox;
        }

        private void SetBusy(bool isBusy, string status)
        {
            loginButton.Enabled = !isBusy;
            registerButton.Enabled = !isBusy;
            licenseKeyButton.Enabled = !isBusy;
            forgotPasswordLink.Enabled = !isBusy;
            resendVerificationLink.Enabled = !isBusy;
            usernameBox.Enabled = !isBusy;
            passwordBox.Enabled = !isBusy;
            statusLabel.Text = status;
        }

        public static string Describe(Exception error)
        {
            while (error is AggregateException && error.InnerException != null) error = error.InnerException;
            if (error is TaskCanceledException) return "the request timed out";
            var detail = error.Message;
            if (error.InnerException != null) detail += " (" + error.InnerException.Message + ")";
            return detail;
        }
    }

    public class PromptField
    {
        public readonly string Label;
        public readonly bool IsPassword;

        public PromptField(string label, bool isPassword)
        {
            Label = label;
            IsPassword = isPassword;
        }
    }

    /// <summary>A small modal form of labelled text fields with an OK and a Cancel button (Enter is OK).</summary>
    public class PromptForm : Form
    {
        private readonly TextBox[] boxes;

        public PromptForm(string title, string heading, string okText, PromptField[] fields)
        {
            Text = title;
            ClientSize = new Size(400, 110 + 40 * fields.Length);
            FormBorderStyle = FormBorderStyle.FixedDialog;
            MaximizeBox = false;
            MinimizeBox = false;
            StartPosition = FormStartPosition.CenterParent;

            Controls.Add(new Label { Text = heading, Font = new Font(FontFamily.GenericSansSerif, 12f, FontStyle.Bold), Location = new Point(20, 15), Size = new Size(360, 26) });
            boxes = new TextBox[fields.Length];
            for (var i = 0; i < fields.Length; i++)
            {
                Controls.Add(new Label { Text = fields[i].Label, Location = new Point(20, 62 + 40 * i), Size = new Size(125, 22) });
                boxes[i] = new TextBox
                {
                    Location = new Point(150, 60 + 40 * i),
                    Size = new Size(230, 22),
                    UseSystemPasswordChar = fields[i].IsPassword,
                    TabIndex = i,
                };
                Controls.Add(boxes[i]);
            }
            var buttonsTop = 70 + 40 * fields.Length;
            var okButton = new Button { Text = okText, DialogResult = DialogResult.OK, Location = new Point(150, buttonsTop), Size = new Size(110, 30), TabIndex = fields.Length };
            var cancelButton = new Button { Text = "Cancel", DialogResult = DialogResult.Cancel, Location = new Point(270, buttonsTop), Size = new Size(110, 30), TabIndex = fields.Length + 1 };
            Controls.Add(okButton);
            Controls.Add(cancelButton);
            AcceptButton = okButton;
            CancelButton = cancelButton;
            ActiveControl = boxes[0];
        }

        /// <summary>What was typed, field by field.</summary>
        public string[] Values
        {
            get { return boxes.Select(box => box.Text).ToArray(); }
        }
    }

    public class LogoutEventArgs : EventArgs
    {
        public string Title;
        public string Message;
        public bool IsWarning;
    }

    /// <summary>
    /// The main window (600x400): who is signed in, their entitlements and subscriptions, a row to
    /// redeem a licence key onto the account, a button to release this device from the account,
    /// and the session kept alive behind it.
    /// </summary>
    public class MainForm : Form
    {
        private readonly LatchkeyClient client;
        private readonly UserInfo user;
        private readonly Timer heartbeatTimer = new Timer();
        private readonly Timer verifyTimer = new Timer();
        private readonly Label statusLabel = new Label();
        private readonly Label details = new Label();
        private readonly TextBox redeemKeyBox = new TextBox();
        private readonly TextBox redeemPasswordBox = new TextBox();
        private readonly Button redeemButton = new Button();
        private readonly Button releaseButton = new Button();
        private readonly Label messageLabel = new Label();
        private readonly Label noteLabel = new Label();
        private readonly TextBox noteBox = new TextBox();
        private readonly Button saveNoteButton = new Button();
        private int verifyFailures;
        private bool isMonitoring;
        private bool isHeartbeatRunning;
        private bool isVerifyRunning;

        public event EventHandler<LogoutEventArgs> LoggedOut;

        public MainForm(LatchkeyClient client, UserInfo user, string welcome, string offlineUntil)
        {
            this.client = client;
            this.user = user;
            Text = "Latchkey - Signed in as " + user.Username;
            ClientSize = new Size(600, 475);
            FormBorderStyle = FormBorderStyle.FixedSingle;
            MaximizeBox = false;
            StartPosition = FormStartPosition.CenterScreen;

            var heading = new Label { Text = welcome, Font = new Font(FontFamily.GenericSansSerif, 14f, FontStyle.Bold), Location = new Point(30, 20), Size = new Size(540, 30) };
            // Two columns of one line per field, so the values line up whatever the font.
            var detailNames = new Label
            {
                Location = new Point(30, 65),
                Size = new Size(130, 140),
                Font = new Font(FontFamily.GenericSansSerif, 11f),
                Text = "Username:\nEmail:\nExpires:\nHWID lock:\nEntitlements:\nSubscriptions:",
            };
            details.Location = new Point(160, 65);
            details.Size = new Size(410, 140);
            details.Font = new Font(FontFamily.GenericSansSerif, 11f);
            ShowDetails();
            statusLabel.Location = new Point(30, 212);
            statusLabel.Size = new Size(540, 40);
            statusLabel.Text = "Starting session...";
            if (offlineUntil != null)
            {
                statusLabel.Text = "Working offline until " + Refusals.LocalTime(offlineUntil);
                Log.Write("status: " + statusLabel.Text);
            }

            // Redeem a licence key onto this account: the password proves the holder.
            var redeemKeyLabel = new Label { Text = "Licence key", Location = new Point(30, 268), Size = new Size(85, 22) };
            redeemKeyBox.Location = new Point(115, 265);
            redeemKeyBox.Size = new Size(200, 22);
            var redeemPasswordLabel = new Label { Text = "Password", Location = new Point(325, 268), Size = new Size(70, 22) };
            redeemPasswordBox.Location = new Point(395, 265);
            redeemPasswordBox.Size = new Size(100, 22);
            redeemPasswordBox.UseSystemPasswordChar = true;
            redeemButton.Text = "Redeem";
            redeemButton.Location = new Point(505, 262);
            redeemButton.Size = new Size(65, 28);
            redeemButton.Click += OnRedeemClick;
            // A new PC, a reinstall: the user frees this device's seat so that another machine can log in.
            releaseButton.Text = "Release this device...";
            releaseButton.Location = new Point(30, 340);
            releaseButton.Size = new Size(170, 32);
            releaseButton.Click += OnReleaseClick;
            var logoutButton = new Button { Text = "Logout", Location = new Point(470, 340), Size = new Size(100, 32) };
            logoutButton.Click += OnLogoutClick;
            // Remote variables: the vendor's message to everyone, and this user's own note.
            messageLabel.Location = new Point(30, 385);
            messageLabel.Size = new Size(540, 22);
            noteLabel.Location = new Point(30, 410);
            noteLabel.Size = new Size(540, 22);
            noteBox.Location = new Point(30, 439);
            noteBox.Size = new Size(390, 22);
            saveNoteButton.Text = "Save Note";
            saveNoteButton.Location = new Point(430, 436);
            saveNoteButton.Size = new Size(140, 28);
            saveNoteButton.Click += OnSaveNoteClick;
            Controls.AddRange(new Control[]
            {
                heading, detailNames, details, statusLabel, redeemKeyLabel, redeemKeyBox, redeemPasswordLabel, redeemPasswordBox,
                redeemButton, releaseButton, logoutButton, messageLabel, noteLabel, noteBox, saveNoteButton,
            });

            heartbeatTimer.Interval = LatchkeySettings.HEARTBEAT_INTERVAL_SECONDS * 1000;
            heartbeatTimer.Tick += OnHeartbeatTick;
            verifyTimer.Interval = LatchkeySettings.VERIFY_INTERVAL_SECONDS * 1000;
            verifyTimer.Tick += OnVerifyTick;
            FormClosing += OnClosing;
        }

        /// <summary>The user's details, entitlements and subscriptions (also logged: what the user was shown).</summary>
        private void ShowDetails()
        {
            details.Text =
                Display(user.Username) + "\n" +
                Display(user.Email) + "\n" +
                Display(user.ExpiresAt) + "\n" +
                Display(user.HwidLock) + "\n" +
                user.EntitlementsText + "\n" +
                user.SubscriptionsText;
            Log.Write("entitlements: " + user.EntitlementsText);
            Log.Write("subscriptions: " + user.SubscriptionsText);
        }

        /// <summary>Adds a licence key to the account that is signed in; its password proves the holder.</summary>
        private async void OnRedeemClick(object sender, EventArgs e)
        {
            var licenseKey = redeemKeyBox.Text.Trim();
            var password = redeemPasswordBox.Text;
            redeemPasswordBox.Text = "";
            if (licenseKey.Length == 0 || password.Length == 0)
            {
                Dialog.Show(this, "Please enter a licence key and your password.", "Redeem Failed", MessageBoxIcon.Warning);
                return;
            }
            redeemButton.Enabled = false;
            try
            {
                var answer = await client.RedeemLicenseAsync(user.Username, password, licenseKey);
                if (!answer.Success)
                {
                    Log.Write("redeem failed (" + answer.Code + "): " + answer.Message);
                    Refusals.Show(this, answer, "Redeem Failed");
                    return;
                }
                Log.Write("redeem ok");
                redeemKeyBox.Text = "";
                user.TakeLicensing(answer);
                ShowDetails();
                Dialog.Show(this, answer.Message, "Licence Key Redeemed", MessageBoxIcon.Information);
            }
            catch (ResponseNotVerifiedException error)
            {
                Dialog.Show(this, error.Message, "Security Warning", MessageBoxIcon.Warning);
            }
            catch (Exception error)
            {
                Log.Write("redeem error: " + LoginForm.Describe(error));
                Dialog.Show(this, "Network error: " + LoginForm.Describe(error), "Error", MessageBoxIcon.Error);
            }
            finally
            {
                redeemButton.Enabled = true;
            }
        }

        /// <summary>
        /// Releases this device from the account, after a confirmation and the password (asked each
        /// time, never kept). The server ends this device's sessions, so a release signs out here.
        /// </summary>
        private async void OnReleaseClick(object sender, EventArgs e)
        {
            if (!Dialog.Confirm(this,
                    "Release this device from your account? You will be signed out here, and another machine can then log in with your account.",
                    "Release This Device")) return;
            string password;
            using (var prompt = new PromptForm("Latchkey Release Device", "Release this device", "Release",
                new[] { new PromptField("Password", true) }))
            {
                if (prompt.ShowDialog(this) != DialogResult.OK) return;
                password = prompt.Values[0];
            }
            if (IsDisposed) return; // signed out meanwhile
            if (password.Length == 0)
            {
                Dialog.Show(this, "Please enter your password.", "Release Failed", MessageBoxIcon.Warning);
                return;
            }
            releaseButton.Enabled = false;
            try
            {
                var answer = await client.ReleaseThisDeviceAsync(user.Username, password);
                if (!answer.Success)
                {
                    Log.Write("release failed (" + answer.Code + "): " + answer.Message);
                    Refusals.Show(this, answer, "Release Failed");
                    return;
                }
                Log.Write("device released (" + answer.Released + ")");
                var text = answer.Message;
                if (!string.IsNullOrEmpty(answer.NextResetAt))
                    text += ". You can release a device again from " + Refusals.LocalTime(answer.NextResetAt) + ".";
                // The server has ended this device's session already: nothing to end here.
                await StopMonitoringAsync(false);
                RaiseLoggedOut("Device Released", text, false);
            }
            catch (ResponseNotVerifiedException error)
            {
                Dialog.Show(this, error.Message, "Security Warning", MessageBoxIcon.Warning);
            }
            catch (Exception error)
            {
                Log.Write("release error: " + LoginForm.Describe(error));
                Dialog.Show(this, "Network error: " + LoginForm.Describe(error), "Error", MessageBoxIcon.Error);
            }
            finally
            {
                if (!IsDisposed) releaseButton.Enabled = true;
            }
        }

        private static string Display(string value)
        {
            return string.IsNullOrEmpty(value) ? "-" : value;
        }

        /// <summary>One session start, then heartbeats and periodic verifies until logout.</summary>
        public async Task StartMonitoringAsync()
        {
            try
            {
                var start = await client.StartSessionAsync(user.UserId);
                if (!start.Success)
                {
                    Log.Write("session start refused (" + start.Code + ")");
                    RaiseLoggedOut("Login Failed", start.Message, true);
                    return;
                }
                Log.Write("session started (" + Log.Preview(client.SessionToken) + ")");
                await CheckOutOfflineLicenseAsync();
                await ShowRemoteValuesAsync();
            }
            catch (ResponseNotVerifiedException error)
            {
                RaiseLoggedOut("Security Warning", error.Message, true);
                return;
            }
            catch (Exception error)
            {
                // Monitoring goes on: the next heartbeat tells whether the session exists.
                Log.Write("Session start error: " + LoginForm.Describe(error));
            }
            statusLabel.Text = "Session active since " + DateTime.Now.ToString("T");
            verifyFailures = 0;
            isMonitoring = true;
            heartbeatTimer.Start();
            verifyTimer.Start();
        }

        /// <summary>
        /// An offline licence for the next start without the network. Failing here must not stop the
        /// user, who is online: it is logged, and the previous licence (if any) stays.
        /// </summary>
        private async Task CheckOutOfflineLicenseAsync()
        {
            try
            {
                var answer = await client.CheckOutLicenseAsync();
                if (IsDisposed) return; // signed out meanwhile: the licence is no longer this user's
                if (!answer.Success || string.IsNullOrEmpty(answer.License))
                {
                    Log.Write("offline licence checkout failed (" + answer.Code + "): " + answer.Message);
                    return;
                }
                // Checked now as a start without the network will check it: only a licence that will
                // work here is kept, and the application it names (in an answer signed for this
                // request) is the one a stored licence must name.
                var checkedLicense = OfflineLicense.Check(answer.License, LatchkeyClient.ParseHex(LatchkeySettings.SigningPublicKey),
                    client.Hwid, DateTimeOffset.UtcNow.ToUnixTimeSeconds(), 0, null);
                if (checkedLicense.Verdict != OfflineVerdict.Accepted)
                {
                    Log.Write("offline licence not kept (" + checkedLicense.RefusalText + ")");
                    return;
                }
                OfflineStore.SaveLicense(answer.License, checkedLicense.Content.ApplicationId.Value);
                Log.Write("offline licence saved (valid until " + answer.ValidUntil + ")");
            }
            catch (Exception error)
            {
                Log.Write("offline licence checkout failed: " + LoginForm.Describe(error));
            }
        }

        /// <summary>The vendor's welcome_message (none when VARIABLE_NOT_FOUND) and the user's note, read with the session.</summary>
        private async Task ShowRemoteValuesAsync()
        {
            try
            {
                var message = await client.GetVariableAsync("welcome_message");
                if (IsDisposed) return;
                if (message.Success) ShowLine(messageLabel, "Message: " + message.Value);
                else if (message.Code != "VARIABLE_NOT_FOUND") Log.Write("welcome message not read (" + message.Code + ")");
                var note = await client.GetUserVariableAsync("note");
                if (IsDisposed) return;
                if (note.Success) ShowLine(noteLabel, "Note: " + note.Value);
                else if (note.Code != "VARIABLE_NOT_FOUND") Log.Write("note not read (" + note.Code + ")");
            }
            catch (Exception error)
            {
                Log.Write("remote variables not read: " + LoginForm.Describe(error));
            }
        }

        private static void ShowLine(Label label, string text)
        {
            label.Text = text;
            Log.Write("shown: " + text);
        }

        /// <summary>Saves the text box as the user's note on the server (their own user variable "note").</summary>
        private async void OnSaveNoteClick(object sender, EventArgs e)
        {
            if (string.IsNullOrEmpty(client.SessionToken))
            {
                Dialog.Show(this, "Notes are kept on the server: not available while working offline.", "Note Not Saved", MessageBoxIcon.Warning);
                return;
            }
            var value = noteBox.Text;
            saveNoteButton.Enabled = false;
            try
            {
                var answer = await client.SetUserVariableAsync("note", value);
                if (answer.Code == "VARIABLE_READ_ONLY")
                {
                    Log.Write("note refused (VARIABLE_READ_ONLY)");
                    Dialog.Show(this, answer.Message, "Note Is Read-Only", MessageBoxIcon.Warning);
                    return;
                }
                if (!answer.Success)
                {
                    Log.Write("note not saved (" + answer.Code + ")");
                    Refusals.Show(this, answer, "Note Not Saved");
                    return;
                }
                Log.Write("note saved");
                ShowLine(noteLabel, "Note: " + answer.Value);
                noteBox.Text = "";
                Dialog.Show(this, "Note saved.", "Note Saved", MessageBoxIcon.Information);
            }
            catch (ResponseNotVerifiedException error)
            {
                Dialog.Show(this, error.Message, "Security Warning", MessageBoxIcon.Warning);
            }
            catch (Exception error)
            {
                Log.Write("note error: " + LoginForm.Describe(error));
                Dialog.Show(this, "Network error: " + LoginForm.Describe(error), "Error", MessageBoxIcon.Error);
            }
            finally
            {
                if (!IsDisposed) saveNoteButton.Enabled = true;
            }
        }

        private async void OnHeartbeatTick(object sender, EventArgs e)
        {
            if (!isMonitoring || isHeartbeatRunning) return;
            isHeartbeatRunning = true;
            OfflineStore.TouchLastSeen();
            try
            {
                var answer = await client.HeartbeatAsync();
                if (answer.Success) Log.Write("heartbeat ok");
                else Log.Write("heartbeat failed (" + answer.Code + "): " + answer.Message);
            }
            catch (Exception error)
            {
                Log.Write("Heartbeat error: " + LoginForm.Describe(error));
            }
            finally
            {
                isHeartbeatRunning = false;
            }
        }

        private async void OnVerifyTick(object sender, EventArgs e)
        {
            if (!isMonitoring || isVerifyRunning) return;
            isVerifyRunning = true;
            try
            {
                ApiResponse answer = null;
                try
                {
                    answer = await client.VerifyAsync(user.UserId);
                }
                catch (ResponseNotVerifiedException)
                {
                    // An answer we cannot trust is never a success: answer stays null.
                }
                if (!isMonitoring) return;
                if (answer != null && answer.Success)
                {
                    verifyFailures = 0;
                    Log.Write("verify ok");
                    statusLabel.Text = "Session verified at " + DateTime.Now.ToString("T");
                    // The owner may have granted or taken back a plan since: show what holds now.
                    var before = user.EntitlementsText + "|" + user.SubscriptionsText;
                    user.TakeLicensing(answer);
                    if (user.EntitlementsText + "|" + user.SubscriptionsText != before) ShowDetails();
                    return;
                }
                verifyFailures++;
                Log.Write("verify failed (" + verifyFailures + "/" + LatchkeySettings.MAX_VERIFY_FAILURES + ")");
                if (verifyFailures >= LatchkeySettings.MAX_VERIFY_FAILURES)
                {
                    Log.Write("forced logout");
                    await StopMonitoringAsync(true);
                    RaiseLoggedOut("Session Expired", "Your session has expired. Please login again.", true);
                }
            }
            catch (Exception error)
            {
                // Network trouble is not the licence being revoked: logged, not counted.
                Log.Write("Verification error: " + LoginForm.Describe(error));
            }
            finally
            {
                isVerifyRunning = false;
            }
        }

        private async void OnLogoutClick(object sender, EventArgs e)
        {
            Log.Write("logout");
            await StopMonitoringAsync(true);
            RaiseLoggedOut("Logged Out", "You have been logged out.", false);
        }

        private async Task StopMonitoringAsync(bool endSession)
        {
            isMonitoring = false;
            heartbeatTimer.Stop();
            verifyTimer.Stop();
            if (!endSession) return;
            try
            {
                var answer = await client.EndSessionAsync();
                if (answer != null) Log.Write("session ended (" + answer.Code + ")");
            }
            catch (Exception error)
            {
                Log.Write("Session end error: " + LoginForm.Describe(error));
            }
        }

        private void RaiseLoggedOut(string title, string message, bool isWarning)
        {
            isMonitoring = false;
            heartbeatTimer.Stop();
            verifyTimer.Stop();
            var handler = LoggedOut;
            if (handler != null) handler(this, new LogoutEventArgs { Title = title, Message = message, IsWarning = isWarning });
        }

        /// <summary>Closing the window stops monitoring and ends the session (best effort, briefly).</summary>
        private void OnClosing(object sender, FormClosingEventArgs e)
        {
            if (!isMonitoring) return;
            isMonitoring = false;
            heartbeatTimer.Stop();
            verifyTimer.Stop();
            Log.Write("window closed: monitoring stopped");
            try
            {
                Task.Run(() => client.EndSessionAsync()).Wait(TimeSpan.FromSeconds(3));
            }
            catch (Exception error)
            {
                Log.Write("Session end error: " + LoginForm.Describe(error));
            }
        }
    }

    public static class Program
    {
#if !LATCHKEY_TESTS
        [STAThread]
        public static void Main()
        {
            Application.EnableVisualStyles();
            Application.SetCompatibleTextRenderingDefault(false);
            Log.Write("starting (hardware id " + HardwareId.Get() + ", device name " + (HardwareId.DeviceName() ?? "(none)") + ")");
            OfflineStore.TouchLastSeen();
            Application.Run(new LoginForm());
        }
#endif
    }
}
