// Latchkey client sample for C# (WinForms), built on the Latchkey.Client SDK: login (with a
// password or a licence key alone), this machine's trial where the application offers one (Start
// Trial: one trial per machine, its account named by the username when one is typed; a later start,
// whatever the name, logs in the same trial until it ends), registration (with a licence key if you
// sell them), a link to choose a new password mailed to the account's address (Forgot password?), a
// new link to confirm that address where the application lets only confirmed addresses log in
// (Resend verification e-mail), verify, a live session with heartbeats, forced logout when the
// licence is revoked, licence keys redeemed onto the account, its entitlements, subscriptions and
// updates period shown, what is left of each usage meter of its plans (so many exports a month,
// say) shown and one use of a metered feature counted, this device released so that another machine
// can log in, for a plan of floating seats (so many computers at once, any computers; each login
// takes a seat) this computer's seat borrowed for some days (Borrow Seat...: its offline licence,
// kept like the one below, lets the program run offline until the borrow ends) or given back sooner
// for another computer (Return Seat), an offline licence for starts without the network, the
// vendor's welcome message and the user's own note (remote variables), and a newer release
// downloaded and checked against its signed SHA-256 (or, for a version released after the user's
// updates period ended, the release their licence includes). The SDK does everything that talks to
// the server: it checks every answer's Ed25519 signature, nonce and time before this program reads
// it.
//
// Add the SDK from your Latchkey server (the Integration page shows these lines too):
//   curl -fLO "YOUR_LATCHKEY_URL"/sdk/Latchkey.Client.0.1.0.nupkg
//   dotnet add package Latchkey.Client --version 0.1.0 --source .
// then, with .NET 8 on Windows, `dotnet run` (LatchkeyClient.csproj beside this file). With Mono
// (C# 7), install the package with NuGet 2.x and compile against its DLL:
//   nuget install Latchkey.Client -Version 0.1.0 -Source . -OutputDirectory packages
//   cp packages/Latchkey.Client.0.1.0/lib/net45/Latchkey.Client.dll .
//   mcs -langversion:7 -target:winexe -r:Latchkey.Client.dll -r:System.Windows.Forms.dll
//       -r:System.Drawing.dll -r:System.Runtime.Serialization.dll -out:client.exe LatchkeyClient.cs
//   mono client.exe
using System;
using System.Collections;
using System.Collections.Generic;
using System.Drawing;
using System.Globalization;
using System.IO;
using System.Linq;
using System.Runtime.Serialization;
using System.Runtime.Serialization.Json;
using System.Security.Cryptography;
using System.Text;
using System.Threading.Tasks;
using System.Windows.Forms;
using Latchkey;

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
        // The longest a floating seat may be borrowed, in days (the user's plan may allow fewer).
        public const int MAX_BORROW_DAYS = 365;

        /// <summary>The required entitlements as the SDK takes them: null asks for none.</summary>
        public static string[] Required { get { return REQUIRED_ENTITLEMENTS.Length > 0 ? REQUIRED_ENTITLEMENTS : null; } }
    }

    /// <summary>What the program keeps between launches: who logged in, and the session to resume.</summary>
    [DataContract]
    public class SavedSession
    {
        [DataMember(Name = "user_id")] public string UserId { get; set; }
        [DataMember(Name = "username")] public string Username { get; set; }
        [DataMember(Name = "session_token")] public string SessionToken { get; set; }
    }

    /// <summary>The offline licence of the last login, the last time the program saw the clock, and its application.</summary>
    [DataContract]
    public class OfflineState
    {
        [DataMember(Name = "license", Order = 1)] public string License { get; set; }
        [DataMember(Name = "last_seen", Order = 2)] public long LastSeen { get; set; }
        [DataMember(Name = "application_id", Order = 3)] public long ApplicationId { get; set; }
    }

    /// <summary>A usage meter as the main window shows it: from a meters list, or from a meter use's answer.</summary>
    public class MeterView
    {
        public string Name, ResetsAt;
        public long Allowance, Remaining, Overage;

        public static MeterView Of(Meter meter)
        {
            return new MeterView
            {
                Name = meter.Name, Allowance = meter.Allowance, Remaining = meter.Remaining, Overage = meter.Overage, ResetsAt = meter.ResetsAt,
            };
        }

        /// <summary>Where a meter stands after a use, counted or used up; null when the answer does not say.</summary>
        public static MeterView Of(string name, LatchkeyResult answer)
        {
            var allowance = answer.GetInt64("allowance");
            var remaining = answer.GetInt64("remaining");
            if (allowance == null || remaining == null) return null;
            return new MeterView
            {
                Name = name, Allowance = allowance.Value, Remaining = remaining.Value, Overage = answer.GetInt64("overage") ?? 0,
                ResetsAt = answer.GetString("resets_at"),
            };
        }

        /// <summary>
        /// What is left of the period's allowance and when it starts again (in local time; a meter
        /// without periods never does), and, for a meter that counts use beyond its allowance rather
        /// than refusing it, how far beyond.
        /// </summary>
        public override string ToString()
        {
            return Name + ": " + Remaining + " of " + Allowance + " left" + (Overage > 0 ? ", " + Overage + " over" : "")
                + (ResetsAt == null ? ", no reset" : ", resets " + Dialog.LocalTime(ResetsAt));
        }
    }

    /// <summary>The user shown on the main screen.</summary>
    public class UserInfo
    {
        public string UserId, Username, Email, ExpiresAt, HwidLock;
        public string EntitlementsText = "None", SubscriptionsText = "None", UpdatesText = "Every release";
        // Where the usage meters of the user's plans stand (none: no plan has one); from an offline
        // licence, as they stood when it was issued.
        public List<MeterView> Meters = new List<MeterView>();

        public string UsageText
        {
            get { return Meters.Count == 0 ? "None" : string.Join("; ", Meters); }
        }

        /// <summary>
        /// Takes the entitlements, subscriptions and updates window of an answer or of an offline
        /// licence, read by field name (a missing field is null), and its usage meters.
        /// </summary>
        public void TakeLicensing(Func<string, object> field, IEnumerable<Meter> meters)
        {
            var codes = Texts(field("entitlements"));
            EntitlementsText = codes.Count == 0 ? "None" : string.Join(", ", codes);
            var held = (field("subscriptions") as IEnumerable<object> ?? new object[0]).OfType<IDictionary<string, object>>()
                .Select(plan => plan.ContainsKey("expires_at") && plan["expires_at"] is string
                    ? plan["plan"] + " until " + plan["expires_at"] : plan["plan"] + " (lifetime)").ToList();
            SubscriptionsText = held.Count == 0 ? "None" : string.Join(", ", held);
            // Releases published after the window are refused; null (or a licence older than the
            // field) is no window: every release.
            var updatesUntil = field("updates_until") as string;
            UpdatesText = updatesUntil == null ? "Every release" : "Until " + updatesUntil;
            Meters = (meters ?? new Meter[0]).Select(MeterView.Of).ToList();
        }

        /// <summary>What the main window shows of the licensing, to tell whether a verify changed it.</summary>
        public string LicensingText
        {
            get { return EntitlementsText + "|" + SubscriptionsText + "|" + UpdatesText + "|" + UsageText; }
        }

        public static List<string> Texts(object list)
        {
            return (list as IEnumerable<object> ?? new object[0]).OfType<string>().ToList();
        }
    }

    /// <summary>
    /// What the user is told: message boxes (each logged, so what the user saw is on record), and
    /// refusals titled by their stable code, never by their text (which the vendor may rewrite).
    /// </summary>
    public static class Dialog
    {
        public static string Title(string code, string fallbackTitle)
        {
            switch (code)
            {
                case "VERSION_MISMATCH": return "Update Required";
                case "UPDATES_EXPIRED": return "Updates Ended";
                case "METER_EXHAUSTED": return "Usage Limit Reached";
                case "METER_NOT_FOUND": return "Feature Not Included";
                case "NO_SEAT_AVAILABLE": return "All Seats In Use";
                case "BORROW_NOT_ALLOWED": return "Borrowing Not Allowed";
                case "TRIAL_UNAVAILABLE": return "Trial Unavailable";
                case "TRIAL_EXPIRED": return "Trial Ended";
                case "TRIAL_USED": return "Trial Already Used";
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

        /// <summary>Whether the program must close after showing it (update required, updates ended, access blocked).</summary>
        public static bool Exits(LatchkeyResult answer)
        {
            return answer.Code == ResultCode.VERSION_MISMATCH || answer.Code == ResultCode.UPDATES_EXPIRED
                || answer.Code == ResultCode.BLACKLISTED;
        }

        /// <summary>A refusal: the server's message, with what is missing and when to retry where it says so.</summary>
        public static void Refusal(IWin32Window owner, LatchkeyResult answer, string fallbackTitle)
        {
            var text = answer.Message ?? "";
            var missing = UserInfo.Texts(answer["missing_entitlements"]);
            if (missing.Count > 0) text += " (missing: " + string.Join(", ", missing) + ")";
            if (answer.Code == ResultCode.RESET_COOLDOWN && answer.GetString("next_reset_at") != null)
                text += " (next release possible at " + LocalTime(answer.GetString("next_reset_at")) + ")";
            // A meter used up says when it starts again, so the user knows how long to wait.
            if (answer.Code == ResultCode.METER_EXHAUSTED)
                text += answer.GetString("resets_at") == null ? " (no reset)" : " (resets " + LocalTime(answer.GetString("resets_at")) + ")";
            // A machine's trial is over for good: say since when.
            if (answer.Code == ResultCode.TRIAL_EXPIRED && answer.GetString("expires_at") != null)
                text += " (ended " + LocalTime(answer.GetString("expires_at")) + ")";
            // Every seat is taken on other computers: say when the first of their leases lapses (one
            // may free sooner, when its computer signs out).
            if (answer.Code == ResultCode.NO_SEAT_AVAILABLE && answer.NextFreeAt != null)
                text += " (next seat free by " + LocalTime(answer.NextFreeAt) + ")";
            if (answer.Code == ResultCode.RATE_LIMITED && answer.RetryAfterSeconds > 0)
                text += " Try again in " + answer.RetryAfterSeconds + " seconds.";
            if (answer.Code == ResultCode.EMAIL_NOT_VERIFIED)
                text += " Click \"Resend verification e-mail\" in the login window to be mailed a new link.";
            Show(owner, text, Title(answer.CodeText, fallbackTitle), Exits(answer) ? MessageBoxIcon.Error : MessageBoxIcon.Warning);
        }

        /// <summary>
        /// An SDK error: an answer that failed its signature check is never believed (Security
        /// Warning); no answer, or a server fault, is a network error.
        /// </summary>
        public static void Failure(IWin32Window owner, LatchkeyException error, string networkTitle)
        {
            if (error is SignatureException)
            {
                Log.Write("response not verified (" + error.Reason + ")");
                Show(owner, "The server response could not be verified.", "Security Warning", MessageBoxIcon.Warning);
                return;
            }
            Log.Write("network error: " + error.Message);
            Show(owner, "Network error: " + error.Message, networkTitle, MessageBoxIcon.Error);
        }

        /// <summary>Why the stored offline licence is refused.</summary>
        public static string OfflineRefusal(OfflineLicenseCheck check)
        {
            switch (check.Code)
            {
                case OfflineLicenseCode.OTHER_MACHINE: return "This offline licence belongs to another machine.";
                case OfflineLicenseCode.CLOCK_MOVED_BACK: return "The system clock moved backwards since the last run.";
                case OfflineLicenseCode.EXPIRED: return "This offline licence expired on " + LocalTime(check.Content["valid_until"] as string) + ".";
                default: return "This offline licence is not signed by this application.";
            }
        }

        /// <summary>
        /// An ISO 8601 time of the server as this computer's local time to the minute, rounded up (so
        /// the time shown is never before the one meant); the text as it came when it is not one.
        /// </summary>
        public static string LocalTime(string iso)
        {
            DateTimeOffset at;
            if (!DateTimeOffset.TryParse(iso, CultureInfo.InvariantCulture, DateTimeStyles.AssumeUniversal, out at)) return iso;
            var minute = at.AddTicks(-(at.Ticks % TimeSpan.TicksPerMinute));
            if (minute < at) minute = minute.AddMinutes(1);
            return minute.ToLocalTime().ToString("yyyy-MM-dd HH:mm", CultureInfo.InvariantCulture);
        }

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
    /// The hardware id this sample sends in place of the SDK's machine id: a 32-character base64
    /// substring of a SHA-256 of the processor id and the baseboard serial, both from WMI on Windows
    /// (System.Management by reflection: .NET 8 has it only as a NuGet package). Where WMI is not
    /// available the documented fallback hashes a fixed prefix plus the machine name.
    /// </summary>
    public static class HardwareId
    {
        public static string Get()
        {
            var processorId = QueryWmi("Win32_Processor", "ProcessorId");
            var boardSerial = QueryWmi("Win32_BaseBoard", "SerialNumber");
            var source = processorId.Length > 0 || boardSerial.Length > 0
                ? processorId + "|" + boardSerial : "LATCHKEY-FALLBACK-" + Environment.MachineName;
            using (var sha = SHA256.Create())
                return Convert.ToBase64String(sha.ComputeHash(Encoding.UTF8.GetBytes(source))).Substring(0, 32);
        }

        private static string QueryWmi(string wmiClass, string property)
        {
            if (Environment.OSVersion.Platform != PlatformID.Win32NT) return "";
            try
            {
                var searcherType = Type.GetType("System.Management.ManagementObjectSearcher, System.Management, " +
                    "Version=4.0.0.0, Culture=neutral, PublicKeyToken=b03f5f7f11d50a3a", false);
                if (searcherType == null) return "";
                var searcher = Activator.CreateInstance(searcherType, "SELECT " + property + " FROM " + wmiClass);
                using (searcher as IDisposable)
                {
                    foreach (var item in searcherType.GetMethod("Get", Type.EmptyTypes).Invoke(searcher, null) as IEnumerable ?? new object[0])
                    {
                        var value = item.GetType().GetMethod("GetPropertyValue", new[] { typeof(string) }).Invoke(item, new object[] { property });
                        if (value != null && value.ToString().Trim().Length > 0) return value.ToString().Trim();
                    }
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
            var name = (Environment.MachineName ?? "").Trim();
            if (name.Length <= 128) return name.Length == 0 ? null : name;
            // Never half of a surrogate pair: the server refuses text that is not valid Unicode.
            return name.Substring(0, char.IsHighSurrogate(name[127]) ? 127 : 128);
        }
    }

    /// <summary>
    /// The saved session, ~/.latchkey/{first 12 characters of the API key}.json, and beside it
    /// (.offline.json) the offline licence with the last time the program saw the clock.
    /// </summary>
    public static class Store
    {
        private static readonly object FileLock = new object();
        public static readonly string SessionPath = StatePath(".json"), OfflinePath = StatePath(".offline.json");

        private static string StatePath(string suffix)
        {
            var key = new string(LatchkeySettings.ApiKey.Take(12).Select(c => char.IsLetterOrDigit(c) || c == '_' || c == '-' ? c : '_').ToArray());
            return Path.Combine(Environment.GetFolderPath(Environment.SpecialFolder.UserProfile), ".latchkey", key + suffix);
        }

        public static T Read<T>(string path) where T : class
        {
            lock (FileLock)
            {
                try
                {
                    using (var stream = File.OpenRead(path)) return new DataContractJsonSerializer(typeof(T)).ReadObject(stream) as T;
                }
                catch (Exception error) when (error is IOException || error is SerializationException)
                {
                    return null; // none yet, or not ours to read
                }
            }
        }

        public static void Write(string path, object value)
        {
            lock (FileLock)
            {
                try
                {
                    Directory.CreateDirectory(Path.GetDirectoryName(path));
                    using (var stream = File.Create(path)) new DataContractJsonSerializer(value.GetType()).WriteObject(stream, value);
                }
                catch (Exception error) when (error is IOException || error is UnauthorizedAccessException)
                {
                    Log.Write("could not save " + Path.GetFileName(path) + ": " + error.Message);
                }
            }
        }

        /// <summary>
        /// A fresh licence (application null), or the time the program ran now; last_seen never goes
        /// down, since it is what the clock check compares with.
        /// </summary>
        public static void SaveOffline(string license = null, long applicationId = 0)
        {
            lock (FileLock)
            {
                var state = Read<OfflineState>(OfflinePath);
                var now = DateTimeOffset.UtcNow.ToUnixTimeSeconds();
                if (license != null) state = new OfflineState { License = license, ApplicationId = applicationId, LastSeen = state == null ? 0 : state.LastSeen };
                else if (state == null || string.IsNullOrEmpty(state.License) || now <= state.LastSeen) return;
                state.LastSeen = Math.Max(now, state.LastSeen);
                Write(OfflinePath, state);
            }
        }

        /// <summary>Forgets the saved session, and its offline licence with it: it was that user's.</summary>
        public static void Forget()
        {
            Delete(SessionPath, OfflinePath);
        }

        /// <summary>Discards the offline licence: a borrowed seat given back cannot recall the licence it issued.</summary>
        public static void DiscardOffline()
        {
            Delete(OfflinePath);
        }

        private static void Delete(params string[] paths)
        {
            lock (FileLock)
            {
                foreach (var path in paths)
                {
                    try
                    {
                        if (File.Exists(path)) File.Delete(path);
                    }
                    catch (Exception error) when (error is IOException || error is UnauthorizedAccessException)
                    {
                        Log.Write("could not delete " + Path.GetFileName(path) + ": " + error.Message);
                    }
                }
            }
        }
    }

    /// <summary>A window that calls the SDK: each call's failure shown, and answered as null.</summary>
    public class SampleForm : Form
    {
        protected async Task<LatchkeyResult> CallAsync(Func<Task<LatchkeyResult>> call, string networkTitle = "Error")
        {
            try
            {
                return await call();
            }
            catch (LatchkeyException error)
            {
                Dialog.Failure(this, error, networkTitle);
                return null;
            }
        }

        /// <summary>Whether the answer is a refusal, then logged and shown under fallbackTitle unless its code has a title.</summary>
        protected bool IsRefused(LatchkeyResult answer, string what, string fallbackTitle)
        {
            if (answer.Success) return false;
            Log.Write(what + " failed (" + answer.CodeText + "): " + answer.Message);
            Dialog.Refusal(this, answer, fallbackTitle);
            return true;
        }

        /// <summary>IsRefused, and the program closes after a refusal that says so (update required, access blocked).</summary>
        protected bool IsRefusedOrExits(LatchkeyResult answer, string what, string fallbackTitle)
        {
            if (!IsRefused(answer, what, fallbackTitle)) return false;
            if (Dialog.Exits(answer)) ExitFor(answer);
            return true;
        }

        protected static void ExitFor(LatchkeyResult refusal)
        {
            Log.Write("exiting (" + refusal.CodeText + ")");
            Application.Exit();
        }

        protected static Label Caption(string text, int x, int y, int width, int height = 22, float boldSize = 0)
        {
            var label = new Label { Text = text, Location = new Point(x, y), Size = new Size(width, height) };
            if (boldSize > 0) label.Font = new Font(FontFamily.GenericSansSerif, boldSize, FontStyle.Bold);
            return label;
        }
    }

    /// <summary>The login window (400x300): a password login, or this machine's trial, or registration, or a licence key alone.</summary>
    public class LoginForm : SampleForm
    {
        private readonly LatchkeyClient client;
        private readonly TextBox usernameBox = new TextBox { Location = new Point(130, 68), Size = new Size(240, 22), TabIndex = 0 };
        private readonly TextBox passwordBox = new TextBox { Location = new Point(130, 108), Size = new Size(240, 22), TabIndex = 1, UseSystemPasswordChar = true };
        private readonly Button loginButton = new Button { Text = "Login", Location = new Point(130, 150), Size = new Size(240, 32), TabIndex = 2 };
        private readonly Button trialButton = new Button { Text = "Start Trial", Location = new Point(30, 192), Size = new Size(90, 28), TabIndex = 3 };
        private readonly Button registerButton = new Button { Text = "Register...", Location = new Point(130, 192), Size = new Size(115, 28), TabIndex = 4 };
        private readonly Button licenseKeyButton = new Button { Text = "Licence key...", Location = new Point(255, 192), Size = new Size(115, 28), TabIndex = 5 };
        private readonly LinkLabel forgotPasswordLink = new LinkLabel { Text = "Forgot password?", Location = new Point(130, 230), Size = new Size(240, 20), TabIndex = 6 };
        private readonly LinkLabel resendLink = new LinkLabel { Text = "Resend verification e-mail", Location = new Point(130, 252), Size = new Size(240, 20), TabIndex = 7 };
        private readonly Label statusLabel = Caption("", 30, 276, 340);
        private MainForm mainForm;

        public LoginForm(LatchkeyClient client)
        {
            this.client = client;
            Text = "Latchkey Login";
            ClientSize = new Size(400, 300);
            FormBorderStyle = FormBorderStyle.FixedDialog;
            MaximizeBox = false;
            StartPosition = FormStartPosition.CenterScreen;
            Controls.AddRange(new Control[] { Caption("Sign in", 30, 20, 340, 30, 14f), Caption("Username", 30, 70, 90), usernameBox,
                Caption("Password", 30, 110, 90), passwordBox, loginButton, trialButton, registerButton, licenseKeyButton, forgotPasswordLink, resendLink, statusLabel });
            loginButton.Click += OnLoginClick;
            trialButton.Click += OnStartTrialClick;
            registerButton.Click += OnRegisterClick;
            licenseKeyButton.Click += OnLicenseKeyClick;
            forgotPasswordLink.LinkClicked += OnForgotPasswordClick;
            resendLink.LinkClicked += OnResendVerificationClick;
            AcceptButton = loginButton;
            ActiveControl = usernameBox;
            Shown += OnShownFirst;
        }

        /// <summary>
        /// A user saved by an earlier launch is verified before anything is shown as signed in, then
        /// its session resumed (the SDK opens a session only with a login or a saved token). No answer
        /// at all: the offline licence may stand in.
        /// </summary>
        private async void OnShownFirst(object sender, EventArgs e)
        {
            Shown -= OnShownFirst;
            var saved = Store.Read<SavedSession>(Store.SessionPath);
            if (saved == null || string.IsNullOrEmpty(saved.UserId)) return;
            SetBusy(true, "Checking the saved session...");
            try
            {
                var verify = await client.VerifyAsync(saved.UserId, LatchkeySettings.Required);
                var resumed = !verify.Success || saved.SessionToken == null ? null : await client.ResumeSessionAsync(saved.SessionToken, saved.UserId);
                SetBusy(false, "");
                if (resumed == null || !resumed.Success)
                {
                    Log.Write(!verify.Success ? "saved session refused (" + verify.CodeText + ")"
                        : "saved session ended (" + (resumed == null ? "no token" : resumed.CodeText) + ")");
                    Store.Forget();
                    return;
                }
                Log.Write("saved session verified");
                var user = new UserInfo { UserId = saved.UserId, Username = saved.Username };
                user.TakeLicensing(name => verify[name], verify.Meters);
                await OpenMainAsync(user, "Saved session verified.", null, true);
            }
            catch (TransportException error) when (error.Reason == "unreachable" || error.Reason == "timeout")
            {
                Log.Write("server unreachable (" + error.Message + ")");
                SetBusy(false, "");
                StartOffline();
            }
            catch (LatchkeyException error)
            {
                if (error is SignatureException) Store.Forget();
                SetBusy(false, "");
                Dialog.Failure(this, error, "Error");
            }
        }

        /// <summary>
        /// The server cannot be reached: the offline licence stored at the last login, checked by the
        /// SDK with the pinned key and this machine's HWID, may let the user in until its valid_until.
        /// There is no session, so no heartbeats: the server would not answer them.
        /// </summary>
        private void StartOffline()
        {
            var stored = Store.Read<OfflineState>(Store.OfflinePath);
            if (stored == null || string.IsNullOrEmpty(stored.License))
            {
                Dialog.Show(this, "Cannot reach the server, and there is no offline licence on this machine.", "Server Unreachable", MessageBoxIcon.Warning);
                return;
            }
            var check = client.VerifyOfflineLicense(stored.License, applicationId: stored.ApplicationId,
                lastSeenAt: DateTimeOffset.FromUnixTimeSeconds(stored.LastSeen), clockToleranceSeconds: LatchkeySettings.CLOCK_TOLERANCE_SECONDS);
            Log.Write("offline licence " + (check.Success ? "accepted" : "refused (" + check.Code + ")"));
            if (!check.Success)
            {
                Dialog.Show(this, Dialog.OfflineRefusal(check), "Offline Licence Refused", MessageBoxIcon.Warning);
                return;
            }
            Func<string, object> field = name => check.Content.ContainsKey(name) ? check.Content[name] : null;
            var user = new UserInfo
            {
                UserId = field("user_id") as string,
                Username = field("username") as string,
                ExpiresAt = field("account_expires_at") as string ?? "Never",
                HwidLock = "Licence bound to this device",
            };
            user.TakeLicensing(field, check.Meters);
            OpenMain(user, "Welcome, " + user.Username, field("valid_until") as string);
        }

        private async void OnLoginClick(object sender, EventArgs e)
        {
            var username = usernameBox.Text.Trim();
            var password = passwordBox.Text;
            if (username.Length == 0 || password.Length == 0)
                Dialog.Show(this, "Please enter both username and password.", "Login Failed", MessageBoxIcon.Warning);
            else
                await LogInAsync(() => client.LoginAsync(username, password, LatchkeySettings.Required));
        }

        /// <summary>
        /// Starts this machine's trial, or logs in the one it already has: one trial per machine (the
        /// hardware id the client sends with every login), so a reinstall or another name gets the
        /// same trial account until it ends. The username, when one is typed, names a new trial's
        /// account (none: the server names it); no password is needed. The answer is a login's.
        /// </summary>
        private async void OnStartTrialClick(object sender, EventArgs e)
        {
            var username = usernameBox.Text.Trim();
            await LogInAsync(() => client.StartTrialAsync(username: username.Length == 0 ? null : username,
                requiredEntitlements: LatchkeySettings.Required), true);
        }

        /// <summary>Logs in with a licence key alone: the answer is a login's, and goes the same way.</summary>
        private async void OnLicenseKeyClick(object sender, EventArgs e)
        {
            var values = PromptForm.Ask(this, "Latchkey Licence Key", "Log in with a licence key", "Log in", "Licence key");
            if (values == null) return;
            if (values[0].Trim().Length == 0)
                Dialog.Show(this, "Please enter a licence key.", "Login Failed", MessageBoxIcon.Warning);
            else
                await LogInAsync(() => client.LicenseLoginAsync(values[0].Trim(), LatchkeySettings.Required));
        }

        /// <summary>
        /// Has a link to choose a new password mailed to the account, named by its e-mail address when
        /// the text holds an '@' (every address has one, few usernames do), else by its username.
        /// </summary>
        private async void OnForgotPasswordClick(object sender, LinkLabelLinkClickedEventArgs e)
        {
            var values = PromptForm.Ask(this, "Latchkey Forgot Password", "Mail me a link for a new password", "Send link", "Username or e-mail");
            if (values == null) return;
            var name = values[0].Trim();
            if (name.Length == 0)
                Dialog.Show(this, "Please enter your username or your e-mail address.", "Password Reset Failed", MessageBoxIcon.Warning);
            else
                await RequestMailAsync(() => client.ForgotPasswordAsync(name.Contains("@") ? null : name, name.Contains("@") ? name : null),
                    "Password Reset Failed", "password reset request");
        }

        /// <summary>A new link to confirm the account's address, for the username and password in the window.</summary>
        private async void OnResendVerificationClick(object sender, LinkLabelLinkClickedEventArgs e)
        {
            var username = usernameBox.Text.Trim();
            var password = passwordBox.Text;
            if (username.Length == 0 || password.Length == 0)
                Dialog.Show(this, "Please enter both username and password.", "Resend Failed", MessageBoxIcon.Warning);
            else
                await RequestMailAsync(() => client.ResendVerificationAsync(username, password), "Resend Failed", "verification e-mail request");
        }

        /// <summary>The answer reads the same whether or not the account exists, so the login window stays as it is.</summary>
        private async Task RequestMailAsync(Func<Task<LatchkeyResult>> request, string failedTitle, string what)
        {
            SetBusy(true, "Requesting a link...");
            var answer = await CallAsync(request);
            SetBusy(false, "");
            if (answer == null || IsRefusedOrExits(answer, what, failedTitle)) return;
            Dialog.Show(this, answer.Message, "Check Your E-mail", MessageBoxIcon.Information);
        }

        /// <summary>Registers (a licence key, when given, is redeemed in the same step), then logs in.</summary>
        private async void OnRegisterClick(object sender, EventArgs e)
        {
            var values = PromptForm.Ask(this, "Latchkey Register", "Create an account", "Register", "Username", "*Password", "E-mail (optional)", "Licence key");
            if (values == null) return;
            var username = values[0].Trim();
            var password = values[1];
            if (username.Length == 0 || password.Length == 0)
            {
                Dialog.Show(this, "Please enter both username and password.", "Registration Failed", MessageBoxIcon.Warning);
                return;
            }
            SetBusy(true, "Registering...");
            var registered = await CallAsync(() => client.RegisterAsync(username, password, values[2].Trim(), values[3].Trim()));
            SetBusy(false, "");
            if (registered == null || IsRefusedOrExits(registered, "register", "Registration Failed")) return;
            Log.Write("register ok");
            Dialog.Show(this, registered.Message, "Registration Successful", MessageBoxIcon.Information);
            usernameBox.Text = username;
            passwordBox.Text = password;
            await LogInAsync(() => client.LoginAsync(username, password, LatchkeySettings.Required));
        }

        /// <summary>
        /// A login by password or by licence key, or a trial's start (the SDK opens the session once
        /// the required entitlements are checked), then verify, then the main window. A trial says
        /// when it ends.
        /// </summary>
        private async Task LogInAsync(Func<Task<LatchkeyResult>> logIn, bool isTrial = false)
        {
            SetBusy(true, "Signing in...");
            var login = await CallAsync(logIn);
            if (login != null && login.Code == ResultCode.ENTITLEMENTS_MISSING)
            {
                // The password was right but the user lacks a required entitlement: no session was opened.
                FailVerify(login);
                return;
            }
            if (login == null || !login.Success)
            {
                SetBusy(false, "");
                var update = login == null ? null : client.CheckForUpdate(login);
                if (update != null) await OfferUpdateAsync(login, update);
                else if (login != null) IsRefusedOrExits(login, isTrial ? "trial" : "login", isTrial ? "Trial Failed" : "Login Failed");
                return;
            }
            Log.Write((isTrial ? "trial" : "login") + " ok (session token " + Log.Preview(login.SessionToken) + ")");
            if (isTrial)
            {
                var ends = login.GetString("expires_at");
                Dialog.Show(this, login.Message + (ends == null ? "" : " (trial ends " + Dialog.LocalTime(ends) + ")"), "Trial Active", MessageBoxIcon.Information);
            }
            else
                Dialog.Show(this, login.Message, "Login Successful", MessageBoxIcon.Information);
            var verify = await CallAsync(() => client.VerifyAsync(login.UserId, LatchkeySettings.Required));
            if (verify == null || !verify.Success)
            {
                try
                {
                    await client.EndSessionAsync();
                }
                catch (LatchkeyException error)
                {
                    Log.Write("Session end error: " + error.Message); // it goes idle on the server by itself
                }
                if (verify != null) FailVerify(verify);
                else SetBusy(false, "");
                return;
            }
            Log.Write("verify ok");
            Store.Write(Store.SessionPath, new SavedSession { UserId = login.UserId, Username = login.GetString("username"), SessionToken = login.SessionToken });
            SetBusy(false, "");
            var user = new UserInfo
            {
                UserId = login.UserId,
                Username = login.GetString("username"),
                Email = login.GetString("email"),
                ExpiresAt = login.GetString("expires_at") ?? "Never",
                HwidLock = true.Equals(login["hwid_locked"]) ? "Locked to this device" : "Not locked",
            };
            user.TakeLicensing(name => verify[name], verify.Meters);
            await OpenMainAsync(user, login.Message, null, false);
        }

        /// <summary>A verify refused right after the login: the user is told why and stays at a cleared login window.</summary>
        private void FailVerify(LatchkeyResult verify)
        {
            Log.Write("verify after login failed (" + verify.CodeText + ")");
            ClearFields();
            SetBusy(false, "");
            if (verify.Code == ResultCode.ENTITLEMENTS_MISSING || verify.Code == ResultCode.EMAIL_NOT_VERIFIED)
                Dialog.Refusal(this, verify, "Security Warning");
            else
                Dialog.Show(this, "Session verification failed. Please try logging in again.", "Security Warning", MessageBoxIcon.Warning);
        }

        /// <summary>
        /// This version may not be used, and the server names the release this user should run: the
        /// user may download it next to the program (the SDK keeps it only when it matches the signed
        /// SHA-256). Past the user's updates window (UPDATES_EXPIRED) that release is not newer than
        /// this program but the newest their licence includes, and is offered as such. The program
        /// exits afterwards either way.
        /// </summary>
        private async Task OfferUpdateAsync(LatchkeyResult refusal, UpdateOffer update)
        {
            Log.Write("login failed (" + refusal.CodeText + "): " + refusal.Message);
            Dialog.Refusal(this, refusal, "Login Failed");
            var isIncludedRelease = refusal.Code == ResultCode.UPDATES_EXPIRED;
            var question = isIncludedRelease ? "Your licence includes version " + update.Version + ". Download it?"
                : "Version " + update.Version + " is available. Download it?";
            if (Dialog.Confirm(this, question, isIncludedRelease ? "Included Release" : "Update Available"))
            {
                SetBusy(true, "Downloading version " + update.Version + "...");
                var safeVersion = new string(update.Version.Select(c => char.IsLetterOrDigit(c) || c == '.' || c == '-' || c == '_' ? c : '_').ToArray());
                var destination = Path.Combine(AppDomain.CurrentDomain.BaseDirectory, "update-" + safeVersion + ".bin");
                try
                {
                    var file = await client.DownloadAsync(update.FileId, destination, update.Sha256);
                    if (!IsRefused(file, "download", "Download Failed"))
                        Dialog.Show(this, "Update saved to " + file.Path, "Update Saved", MessageBoxIcon.Information);
                }
                catch (SignatureException error) when (error.Reason == "digest")
                {
                    Dialog.Show(this, "The download does not match its signed SHA-256.", "Update Refused", MessageBoxIcon.Error);
                }
                catch (LatchkeyException error)
                {
                    Dialog.Failure(this, error, "Download Failed");
                }
            }
            ExitFor(refusal);
        }

        private async Task OpenMainAsync(UserInfo user, string welcome, string offlineUntil, bool isResumed)
        {
            OpenMain(user, welcome, offlineUntil);
            await mainForm.StartOnlineAsync(isResumed);
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
            mainForm.FormClosed -= OnMainClosed;
            mainForm.Close();
            mainForm = null;
            Store.Forget();
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
            usernameBox.Text = passwordBox.Text = "";
            ActiveControl = usernameBox;
        }

        private void SetBusy(bool isBusy, string status)
        {
            foreach (var control in new Control[] { loginButton, trialButton, registerButton, licenseKeyButton, forgotPasswordLink, resendLink, usernameBox, passwordBox })
                control.Enabled = !isBusy;
            statusLabel.Text = status;
        }
    }

    /// <summary>A small modal form of labelled text fields (a label starting with '*' is a password), OK and Cancel.</summary>
    public class PromptForm : SampleForm
    {
        private readonly TextBox[] boxes;

        private PromptForm(string title, string heading, string okText, string[] fields)
        {
            Text = title;
            ClientSize = new Size(400, 110 + 40 * fields.Length);
            FormBorderStyle = FormBorderStyle.FixedDialog;
            MaximizeBox = MinimizeBox = false;
            StartPosition = FormStartPosition.CenterParent;
            Controls.Add(Caption(heading, 20, 15, 360, 26, 12f));
            boxes = fields.Select((field, i) => new TextBox
            {
                Location = new Point(150, 60 + 40 * i), Size = new Size(230, 22), UseSystemPasswordChar = field.StartsWith("*"), TabIndex = i,
            }).ToArray();
            for (var i = 0; i < fields.Length; i++) Controls.AddRange(new Control[] { Caption(fields[i].TrimStart('*'), 20, 62 + 40 * i, 125), boxes[i] });
            var top = 70 + 40 * fields.Length;
            var okButton = new Button { Text = okText, DialogResult = DialogResult.OK, Location = new Point(150, top), Size = new Size(110, 30), TabIndex = fields.Length };
            var cancelButton = new Button { Text = "Cancel", DialogResult = DialogResult.Cancel, Location = new Point(270, top), Size = new Size(110, 30), TabIndex = fields.Length + 1 };
            Controls.AddRange(new Control[] { okButton, cancelButton });
            AcceptButton = okButton;
            CancelButton = cancelButton;
            ActiveControl = boxes[0];
        }

        /// <summary>What was typed, field by field; null when cancelled.</summary>
        public static string[] Ask(IWin32Window owner, string title, string heading, string okText, params string[] fields)
        {
            using (var prompt = new PromptForm(title, heading, okText, fields))
                return prompt.ShowDialog(owner) == DialogResult.OK ? prompt.boxes.Select(box => box.Text).ToArray() : null;
        }
    }

    public class LogoutEventArgs : EventArgs
    {
        public string Title, Message;
        public bool IsWarning;
    }

    /// <summary>
    /// The main window (600x400): who is signed in, their entitlements, subscriptions, updates
    /// period and usage meters, a row to redeem a licence key onto the account, buttons to borrow
    /// this computer's floating seat and to give it back, a button to use a metered feature, a
    /// button to release this device, the remote variables, and the session kept alive behind it
    /// (the SDK's heartbeat loop, and a verify every VERIFY_INTERVAL_SECONDS).
    /// </summary>
    public class MainForm : SampleForm
    {
        private readonly LatchkeyClient client;
        private readonly UserInfo user;
        private readonly Timer verifyTimer = new Timer { Interval = LatchkeySettings.VERIFY_INTERVAL_SECONDS * 1000 };
        private readonly Label statusLabel = Caption("Starting session...", 30, 228, 540, 32);
        private readonly Label details = Caption("", 160, 65, 410, 160);
        private readonly TextBox redeemKeyBox = new TextBox { Location = new Point(115, 265), Size = new Size(200, 22) };
        private readonly TextBox redeemPasswordBox = new TextBox { Location = new Point(395, 265), Size = new Size(100, 22), UseSystemPasswordChar = true };
        private readonly Button redeemButton = new Button { Text = "Redeem", Location = new Point(505, 262), Size = new Size(65, 28) };
        private readonly Button releaseButton = new Button { Text = "Release this device...", Location = new Point(30, 340), Size = new Size(170, 32) };
        private readonly Button useButton = new Button { Text = "Use feature", Location = new Point(270, 340), Size = new Size(130, 32) };
        private readonly Button logoutButton = new Button { Text = "Logout", Location = new Point(470, 340), Size = new Size(100, 32) };
        // The session's floating seat: borrowed for some days to work offline, or given back.
        private readonly Button borrowButton = new Button { Text = "Borrow Seat...", Location = new Point(30, 298), Size = new Size(120, 28) };
        private readonly Button returnButton = new Button { Text = "Return Seat", Location = new Point(160, 298), Size = new Size(120, 28) };
        private readonly Label seatLabel = Caption("", 290, 304, 280);
        private readonly Label messageLabel = Caption("", 30, 385, 540), noteLabel = Caption("", 30, 410, 540);
        private readonly TextBox noteBox = new TextBox { Location = new Point(30, 439), Size = new Size(390, 22) };
        private readonly Button saveNoteButton = new Button { Text = "Save Note", Location = new Point(430, 436), Size = new Size(140, 28) };
        private int verifyFailures;
        private bool isMonitoring, isVerifyRunning;
        // The increment of a metered feature that got no answer: the next click for that meter sends
        // it again with the same idempotency key.
        private string unansweredUseMeter, unansweredUseKey;
        // Until when this session's floating seat is borrowed (ISO 8601); null when it is not.
        private string borrowedUntil;

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
            // Two columns of one line per field, so the values line up whatever the font.
            var detailNames = Caption("Username:\nEmail:\nExpires:\nHWID lock:\nEntitlements:\nSubscriptions:\nUpdates:\nUsage:", 30, 65, 130, 160);
            detailNames.Font = details.Font = new Font(FontFamily.GenericSansSerif, 11f);
            Controls.AddRange(new Control[] { Caption(welcome, 30, 20, 540, 30, 14f), detailNames, details, statusLabel,
                Caption("Licence key", 30, 268, 85), redeemKeyBox, Caption("Password", 325, 268, 70), redeemPasswordBox, redeemButton,
                releaseButton, useButton, logoutButton, messageLabel, noteLabel, noteBox, saveNoteButton, borrowButton, returnButton, seatLabel });
            ShowDetails();
            if (offlineUntil != null)
            {
                statusLabel.Text = "Working offline until " + Dialog.LocalTime(offlineUntil);
                Log.Write("status: " + statusLabel.Text);
            }
            redeemButton.Click += OnRedeemClick;
            releaseButton.Click += OnReleaseClick;
            useButton.Click += OnUseClick;
            logoutButton.Click += OnLogoutClick;
            saveNoteButton.Click += OnSaveNoteClick;
            borrowButton.Click += OnBorrowClick;
            returnButton.Click += OnReturnClick;
            verifyTimer.Tick += OnVerifyTick;
            FormClosing += OnClosing;
        }

        /// <summary>
        /// The user's details, entitlements, subscriptions, updates window and usage meters (also
        /// logged: what the user was shown; a long list of meters is cut on screen, not in the log).
        /// </summary>
        private void ShowDetails()
        {
            var usage = user.UsageText.Length <= 52 ? user.UsageText : user.UsageText.Substring(0, 51) + "…";
            details.Text = string.Join("\n", new[] { user.Username, user.Email, user.ExpiresAt, user.HwidLock }
                .Select(value => string.IsNullOrEmpty(value) ? "-" : value)
                .Concat(new[] { user.EntitlementsText, user.SubscriptionsText, user.UpdatesText, usage }));
            Log.Write("entitlements: " + user.EntitlementsText);
            Log.Write("subscriptions: " + user.SubscriptionsText);
            Log.Write("updates: " + user.UpdatesText);
            Log.Write("usage: " + user.UsageText);
        }

        private void ShowLine(Label label, string text)
        {
            label.Text = text;
            Log.Write("shown: " + text);
        }

        /// <summary>
        /// The session the SDK opened (or resumed): an offline licence for later starts, the remote
        /// values, then heartbeats (the SDK's loop) and periodic verifies until logout.
        /// </summary>
        public async Task StartOnlineAsync(bool isResumed)
        {
            var session = client.Session;
            Log.Write("session " + (isResumed ? "resumed" : "started") + " (" + Log.Preview(session == null ? null : session.Token) + ")");
            await CheckOutOfflineLicenseAsync();
            try
            {
                var message = await client.GetVariableAsync("welcome_message");
                if (!IsDisposed && message.Success) ShowLine(messageLabel, "Message: " + message.GetString("value"));
                var note = IsDisposed ? null : await client.GetUserVariableAsync("note");
                if (!IsDisposed && note.Success) ShowLine(noteLabel, "Note: " + note.GetString("value"));
            }
            catch (Exception error) when (error is LatchkeyException || error is InvalidOperationException)
            {
                Log.Write("remote variables not read: " + error.Message);
            }
            if (IsDisposed) return;
            try
            {
                // The callbacks run on a thread-pool thread: they only log, as heartbeat failures are only logged.
                client.StartHeartbeat(revoked => Log.Write("heartbeat failed (" + revoked.CodeText + "): " + revoked.Message),
                    error => Log.Write("Heartbeat error: " + error.Message), TimeSpan.FromSeconds(LatchkeySettings.HEARTBEAT_INTERVAL_SECONDS));
            }
            catch (InvalidOperationException)
            {
                Log.Write("Heartbeat error: the session has ended"); // the next verify tells the user
            }
            statusLabel.Text = "Session active since " + DateTime.Now.ToString("T");
            verifyFailures = 0;
            isMonitoring = true;
            verifyTimer.Start();
        }

        /// <summary>
        /// An offline licence for the next start without the network, checked now as such a start
        /// will check it. Failing here must not stop the user, who is online: it is logged, and the
        /// previous licence (if any) stays.
        /// </summary>
        private async Task CheckOutOfflineLicenseAsync()
        {
            try
            {
                var answer = await client.CheckoutAsync(LatchkeySettings.OFFLINE_LICENSE_TTL_SECONDS);
                if (IsDisposed) return; // signed out meanwhile: the licence is no longer this user's
                if (!answer.Success)
                {
                    Log.Write("offline licence checkout failed (" + answer.CodeText + "): " + answer.Message);
                    return;
                }
                // A seat borrowed meanwhile keeps its licence, the one lasting the borrow.
                if (borrowedUntil == null) SaveIssuedLicense(answer.GetString("license"));
            }
            catch (Exception error) when (error is LatchkeyException || error is InvalidOperationException)
            {
                Log.Write("offline licence checkout failed: " + error.Message);
            }
        }

        /// <summary>
        /// Keeps an offline licence the server has just issued (a checkout's, or a borrowed seat's) once
        /// the SDK accepts it as a start without the network will check it: its valid_until, or null
        /// (logged).
        /// </summary>
        private string SaveIssuedLicense(string license)
        {
            var check = client.VerifyOfflineLicense(license);
            object applicationId = null;
            if (!check.Success || !check.Content.TryGetValue("application_id", out applicationId) || !(applicationId is long))
            {
                Log.Write("offline licence not kept (" + check.Code + "): " + check.Message);
                return null;
            }
            // The application the licence names, in an answer signed for this request, is the one a stored licence must name.
            Store.SaveOffline(license, (long)applicationId);
            var validUntil = check.Content["valid_until"] as string;
            Log.Write("offline licence saved (valid until " + validUntil + ")");
            return validUntil;
        }

        /// <summary>
        /// Borrows this computer's floating seat for the days asked (a trip without the network): the
        /// seat stays taken until the borrow ends, even once the session has ended, and the offline
        /// licence the server answers, kept where a checked-out one is, lets the program run offline
        /// until then. The plan says how many days it allows (none: Borrowing Not Allowed).
        /// </summary>
        private async void OnBorrowClick(object sender, EventArgs e)
        {
            if (client.Session == null)
            {
                Dialog.Show(this, "Seats are borrowed and returned on the server: not available while working offline.", "Borrow Failed", MessageBoxIcon.Warning);
                return;
            }
            var values = PromptForm.Ask(this, "Latchkey Borrow Seat", "Borrow this computer's seat", "Borrow", "Days offline");
            if (values == null || IsDisposed) return; // cancelled, or signed out meanwhile
            int days;
            if (!int.TryParse(values[0].Trim(), NumberStyles.None, CultureInfo.InvariantCulture, out days) || days < 1 || days > LatchkeySettings.MAX_BORROW_DAYS)
            {
                Dialog.Show(this, "Please enter a whole number of days, 1 to " + LatchkeySettings.MAX_BORROW_DAYS + ".", "Borrow Failed", MessageBoxIcon.Warning);
                return;
            }
            borrowButton.Enabled = false;
            var answer = await CallAsync(() => client.BorrowSeatAsync(days));
            if (IsDisposed) return;
            borrowButton.Enabled = true;
            if (answer == null || IsRefused(answer, "borrow", "Borrow Failed")) return;
            Log.Write("seat borrowed for " + days + " days");
            borrowedUntil = SaveIssuedLicense(answer.GetString("license")) ?? answer.GetString("valid_until");
            ShowLine(seatLabel, "Seat borrowed until " + Dialog.LocalTime(borrowedUntil));
            Dialog.Show(this, answer.Message + " (borrowed until " + Dialog.LocalTime(borrowedUntil) + ")", "Seat Borrowed", MessageBoxIcon.Information);
        }

        /// <summary>
        /// Gives the borrowed seat back before the borrow ends, so another computer may take it; the
        /// session goes on, on an ordinary seat again. The licence the borrow issued cannot be
        /// recalled: the program discards it (the next login checks out another).
        /// </summary>
        private async void OnReturnClick(object sender, EventArgs e)
        {
            if (client.Session == null)
            {
                Dialog.Show(this, "Seats are borrowed and returned on the server: not available while working offline.", "Return Failed", MessageBoxIcon.Warning);
                return;
            }
            returnButton.Enabled = false;
            var answer = await CallAsync(() => client.ReturnSeatAsync());
            if (IsDisposed) return;
            returnButton.Enabled = true;
            if (answer == null || IsRefused(answer, "return", "Return Failed")) return;
            Log.Write("seat returned");
            borrowedUntil = null;
            Store.DiscardOffline();
            Log.Write("borrowed licence discarded");
            seatLabel.Text = "";
            Dialog.Show(this, answer.Message, "Seat Returned", MessageBoxIcon.Information);
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
            var answer = await CallAsync(() => client.RedeemAsync(user.Username, password, licenseKey));
            redeemButton.Enabled = true;
            if (answer == null || IsRefused(answer, "redeem", "Redeem Failed")) return;
            Log.Write("redeem ok");
            redeemKeyBox.Text = "";
            user.TakeLicensing(name => answer[name], answer.Meters);
            ShowDetails();
            Dialog.Show(this, answer.Message, "Licence Key Redeemed", MessageBoxIcon.Information);
        }

        /// <summary>
        /// Releases this device from the account, after a confirmation and the password (asked each
        /// time, never kept). The server ends this device's sessions, so a release signs out here.
        /// </summary>
        private async void OnReleaseClick(object sender, EventArgs e)
        {
            if (!Dialog.Confirm(this, "Release this device from your account? You will be signed out here, and another machine can then log in with your account.",
                    "Release This Device")) return;
            var values = PromptForm.Ask(this, "Latchkey Release Device", "Release this device", "Release", "*Password");
            if (values == null || IsDisposed) return; // cancelled, or signed out meanwhile
            if (values[0].Length == 0)
            {
                Dialog.Show(this, "Please enter your password.", "Release Failed", MessageBoxIcon.Warning);
                return;
            }
            releaseButton.Enabled = false;
            var answer = await CallAsync(() => client.ResetDevicesAsync(user.Username, values[0]));
            if (!IsDisposed) releaseButton.Enabled = true;
            if (answer == null || IsRefused(answer, "release", "Release Failed")) return;
            Log.Write("device released (" + answer.GetInt64("released") + ")");
            var nextReset = answer.GetString("next_reset_at");
            // The server has ended this device's session already (the SDK forgot it): nothing to end here.
            await StopMonitoringAsync(false);
            RaiseLoggedOut("Device Released", answer.Message + (nextReset == null ? "" : ". You can release a device again from " + Dialog.LocalTime(nextReset) + "."), false);
        }

        /// <summary>
        /// Counts one use of a metered feature against the first usage meter the user holds (a program
        /// names its own: "exports" before an export, say), then shows what is left. Each increment
        /// sends a random idempotency key of its own; one that got no answer is sent again, by the next
        /// click, with the same key, so the server counts it once even when only its answer was lost.
        /// A refusal is titled by its code: the meter is used up, or no longer in the user's plans.
        /// </summary>
        private async void OnUseClick(object sender, EventArgs e)
        {
            if (client.Session == null)
            {
                Dialog.Show(this, "Usage is counted on the server: not available while working offline.", "Usage Not Counted", MessageBoxIcon.Warning);
                return;
            }
            if (user.Meters.Count == 0)
            {
                Dialog.Show(this, "Your plans have no usage meters.", "No Usage Meters", MessageBoxIcon.Information);
                return;
            }
            var name = user.Meters[0].Name;
            if (unansweredUseMeter != name)
            {
                unansweredUseMeter = name;
                unansweredUseKey = Guid.NewGuid().ToString();
            }
            var key = unansweredUseKey;
            useButton.Enabled = false;
            var answer = await CallAsync(() => client.UseMeterAsync(name, 1, key));
            if (IsDisposed) return;
            useButton.Enabled = true;
            if (answer == null) return;
            unansweredUseMeter = unansweredUseKey = null;
            // Counted or used up, the answer says where the meter stands now; a meter no plan of the
            // user has any more is not shown any more.
            var standing = MeterView.Of(name, answer);
            var before = user.UsageText;
            if (standing != null) user.Meters = user.Meters.Select(meter => meter.Name == name ? standing : meter).ToList();
            else if (answer.Code == ResultCode.METER_NOT_FOUND) user.Meters = user.Meters.Where(meter => meter.Name != name).ToList();
            if (user.UsageText != before) ShowDetails();
            if (IsRefused(answer, name + " use", "Usage Not Counted")) return;
            Log.Write(name + " use counted" + (true.Equals(answer["replayed"]) ? " (sent again: counted once)" : ""));
            Dialog.Show(this, standing == null ? answer.Message : standing.ToString(), "Usage Counted", MessageBoxIcon.Information);
        }

        /// <summary>Saves the text box as the user's note on the server (their own user variable "note").</summary>
        private async void OnSaveNoteClick(object sender, EventArgs e)
        {
            if (client.Session == null)
            {
                Dialog.Show(this, "Notes are kept on the server: not available while working offline.", "Note Not Saved", MessageBoxIcon.Warning);
                return;
            }
            saveNoteButton.Enabled = false;
            var answer = await CallAsync(() => client.SetUserVariableAsync("note", noteBox.Text));
            if (IsDisposed) return;
            saveNoteButton.Enabled = true;
            if (answer == null) return;
            if (answer.Code == ResultCode.VARIABLE_READ_ONLY)
            {
                Log.Write("note refused (VARIABLE_READ_ONLY)");
                Dialog.Show(this, answer.Message, "Note Is Read-Only", MessageBoxIcon.Warning);
            }
            else if (!IsRefused(answer, "note save", "Note Not Saved"))
            {
                ShowLine(noteLabel, "Note: " + answer.GetString("value"));
                noteBox.Text = "";
                Dialog.Show(this, "Note saved.", "Note Saved", MessageBoxIcon.Information);
            }
        }

        /// <summary>
        /// A refusal (or an answer that fails its signature check) counts, MAX_VERIFY_FAILURES in a
        /// row log out, a success resets the count. Network trouble is not the licence being revoked:
        /// logged, not counted.
        /// </summary>
        private async void OnVerifyTick(object sender, EventArgs e)
        {
            if (!isMonitoring || isVerifyRunning) return;
            isVerifyRunning = true;
            Store.SaveOffline();
            LatchkeyResult answer = null;
            try
            {
                answer = await client.VerifyAsync(user.UserId, LatchkeySettings.Required);
            }
            catch (SignatureException)
            {
                // An answer we cannot trust is never a success: answer stays null.
            }
            catch (TransportException error)
            {
                Log.Write("Verification error: " + error.Message);
                isVerifyRunning = false;
                return;
            }
            isVerifyRunning = false;
            if (!isMonitoring) return;
            if (answer != null && answer.Success)
            {
                verifyFailures = 0;
                Log.Write("verify ok");
                statusLabel.Text = "Session verified at " + DateTime.Now.ToString("T");
                // The owner may have granted or taken back a plan since: show what holds now.
                var before = user.LicensingText;
                user.TakeLicensing(name => answer[name], answer.Meters);
                if (user.LicensingText != before) ShowDetails();
                return;
            }
            Log.Write("verify failed (" + ++verifyFailures + "/" + LatchkeySettings.MAX_VERIFY_FAILURES + ")");
            if (verifyFailures < LatchkeySettings.MAX_VERIFY_FAILURES) return;
            Log.Write("forced logout");
            await StopMonitoringAsync(true);
            RaiseLoggedOut("Session Expired", "Your session has expired. Please login again.", true);
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
            verifyTimer.Stop();
            client.StopHeartbeat();
            try
            {
                // Null when there is no session (the SDK forgot one the server ended).
                var answer = endSession ? await client.EndSessionAsync() : null;
                if (answer != null) Log.Write("session ended (" + answer.CodeText + ")");
            }
            catch (LatchkeyException error)
            {
                Log.Write("Session end error: " + error.Message);
            }
        }

        private void RaiseLoggedOut(string title, string message, bool isWarning)
        {
            var handler = LoggedOut;
            if (handler != null) handler(this, new LogoutEventArgs { Title = title, Message = message, IsWarning = isWarning });
        }

        /// <summary>
        /// Closing the window stops monitoring. The session stays open on the server (idle after 90 s
        /// without a heartbeat) so that the next start resumes it without the password.
        /// </summary>
        private void OnClosing(object sender, FormClosingEventArgs e)
        {
            if (!isMonitoring) return;
            isMonitoring = false;
            verifyTimer.Stop();
            client.StopHeartbeat();
            Log.Write("window closed: monitoring stopped");
        }
    }

    public static class Program
    {
        [STAThread]
        public static void Main()
        {
            Application.EnableVisualStyles();
            Application.SetCompatibleTextRenderingDefault(false);
            var options = new LatchkeyClientOptions
            {
                Hwid = HardwareId.Get(),
                DeviceName = HardwareId.DeviceName(),
                Timeout = TimeSpan.FromSeconds(LatchkeySettings.HTTP_TIMEOUT_SECONDS),
                MaxClockSkewSeconds = LatchkeySettings.MAX_CLOCK_SKEW_SECONDS,
            };
            Log.Write("starting (hardware id " + options.Hwid + ", device name " + (options.DeviceName ?? "(none)") + ")");
            Store.SaveOffline();
            LatchkeyClient client;
            try
            {
                client = new LatchkeyClient(LatchkeySettings.BaseUrl, LatchkeySettings.ApiKey, LatchkeySettings.SigningPublicKey,
                    LatchkeySettings.AppVersion, options);
            }
            catch (ArgumentException error)
            {
                // The settings at the top are still placeholders, or not a URL and a 64-digit hex key.
                Dialog.Show(null, "The Latchkey settings are not filled in: " + error.Message, "Error", MessageBoxIcon.Error);
                return;
            }
            Application.Run(new LoginForm(client));
        }
    }
}
