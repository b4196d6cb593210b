using System;
using System.Collections.Generic;
using System.Security.Cryptography;
using System.Text;
using System.Threading;
using System.Threading.Tasks;

namespace Latchkey
{
    /// <summary>The session a login opened or a saved one resumed: its token and its user.</summary>
    public sealed class ClientSession
    {
        internal ClientSession(string token, string userId)
        {
            Token = token;
            UserId = userId;
        }

        public string Token { get; private set; }
        public string UserId { get; private set; }
    }

    /// <summary>
    /// A client of one Latchkey application. Every answer is checked before it is read: its
    /// Ed25519 signature under the pinned key, this request's nonce in it, its time within the
    /// clock window; a refused answer throws <see cref="SignatureException"/>, a network or server
    /// failure <see cref="TransportException"/>. Business outcomes (a wrong password, an expired
    /// account) are results with a <see cref="ResultCode"/>, never exceptions. The client never
    /// writes to the console, never shows a window and never exits the process. Its calls are
    /// Task-based and never resume on the caller's synchronisation context, so a WinForms program
    /// may await them (or, outside the UI thread, wait on them).
    /// </summary>
    public sealed class LatchkeyClient : IDisposable
    {
        private const string V1 = "/api/v1";
        private const int MaxAnswerBytes = 4 * 1024 * 1024;
        private static readonly TimeSpan FirstRetryDelay = TimeSpan.FromMilliseconds(250);
        private static readonly TimeSpan MinDownloadTimeout = TimeSpan.FromMinutes(10);

        /// <summary>
        /// Heartbeat answers that mean the session is over; any other refusal (a rate limit) is
        /// not a revocation and the loop goes on.
        /// </summary>
        private static readonly HashSet<ResultCode> SessionEndingCodes = new HashSet<ResultCode>
        {
            ResultCode.SESSION_INVALID,
            ResultCode.ACCOUNT_DISABLED,
            ResultCode.ACCOUNT_EXPIRED,
            ResultCode.APP_DISABLED,
            ResultCode.NO_ACTIVE_SUBSCRIPTION,
            ResultCode.EMAIL_NOT_VERIFIED,
            ResultCode.USER_NOT_FOUND,
        };

        private readonly byte[] key;
        private readonly HttpTransport transport;
        private readonly TimeSpan timeout;
        private readonly int retries;
        private readonly TimeSpan maxRetryDelay;
        private readonly int maxClockSkewSeconds;
        private readonly object sync = new object();
        private ClientSession session;
        // The token of the session whose seat this client last borrowed: the seat stays borrowed
        // after that session ends (which forgets the session), and ReturnSeatAsync gives it back.
        private string borrowedSeatToken;
        private HeartbeatLoop heartbeatLoop;

        /// <summary>
        /// <paramref name="baseUrl"/> is the server's origin (<c>https://auth.example.com</c>),
        /// <paramref name="apiKey"/> the application's API key, <paramref name="publicKey"/> its
        /// Ed25519 public key (64 hex digits, the console's <c>signingPublicKey</c>: pinned, so an
        /// answer signed by any other key is refused), <paramref name="version"/> this program's
        /// version (sent with login, key login and a trial's start). ArgumentException on a malformed one.
        /// </summary>
        public LatchkeyClient(string baseUrl, string apiKey, string publicKey, string version,
            LatchkeyClientOptions options = null)
        {
            Uri baseUri;
            if (baseUrl == null || !Uri.TryCreate(baseUrl, UriKind.Absolute, out baseUri) ||
                (baseUri.Scheme != Uri.UriSchemeHttp && baseUri.Scheme != Uri.UriSchemeHttps))
                throw new ArgumentException("baseUrl must be an http: or https: URL", "baseUrl");
            BaseUrl = baseUrl.TrimEnd('/');
            if (string.IsNullOrEmpty(apiKey)) throw new ArgumentException("apiKey is required", "apiKey");
            ApiKey = apiKey;
            key = Hex.PublicKey(publicKey);
            PublicKey = publicKey.ToLowerInvariant();
            Version = version ?? "";
            options = options ?? new LatchkeyClientOptions();
            Uri proxy = null;
            if (!string.IsNullOrEmpty(options.Proxy) &&
                (!Uri.TryCreate(options.Proxy, UriKind.Absolute, out proxy) || proxy.Scheme != Uri.UriSchemeHttp))
                throw new ArgumentException("Proxy must be an http: URL (https targets go through a CONNECT tunnel)", "options");
            if (options.Timeout <= TimeSpan.Zero) throw new ArgumentException("Timeout must be positive", "options");
            timeout = options.Timeout;
            retries = Math.Max(0, options.Retries);
            maxRetryDelay = options.MaxRetryDelay;
            maxClockSkewSeconds = options.MaxClockSkewSeconds;
            Hwid = options.Hwid ?? MachineId();
            DeviceName = string.IsNullOrEmpty(options.DeviceName) ? null : options.DeviceName;
            transport = new HttpTransport(proxy);
        }

        public string BaseUrl { get; private set; }
        public string ApiKey { get; private set; }

        /// <summary>The pinned public key, in lower-case hex.</summary>
        public string PublicKey { get; private set; }

        public string Version { get; private set; }

        /// <summary>The HWID this client sends: the option's, or <see cref="MachineId"/>.</summary>
        public string Hwid { get; private set; }

        public string DeviceName { get; private set; }

        /// <summary>
        /// The session the last login opened (or <see cref="ResumeSessionAsync"/> resumed), or
        /// null. A program that saves its token and user id resumes it at its next start without
        /// the password.
        /// </summary>
        public ClientSession Session
        {
            get { lock (sync) return session; }
        }

        /// <summary>
        /// This machine's id for this application: its own identifier (Windows
        /// <c>MachineGuid</c>, macOS <c>IOPlatformUUID</c>, Linux <c>/etc/machine-id</c>; the
        /// host name where none can be read) hashed with the application's public key, so the raw
        /// identifier never leaves the machine and two vendors cannot match one machine.
        /// </summary>
        public string MachineId()
        {
            return HashMachineId(ReadRawMachineId(), PublicKey);
        }

        /// <summary>
        /// The machine id of a raw machine identifier for a public key: the SHA-256 (lower-case hex)
        /// of the UTF-8 text <c>latchkey-machine-id-v1.{public key, lower case}.{raw id, trimmed}</c>,
        /// the same in every Latchkey SDK.
        /// </summary>
        public static string HashMachineId(string rawMachineId, string publicKeyHex)
        {
            return MachineIdentity.Hash(rawMachineId, publicKeyHex);
        }

        /// <summary>
        /// This machine's own identifier (Windows <c>MachineGuid</c> from the registry's 64-bit
        /// view, macOS <c>IOPlatformUUID</c>, Linux <c>/etc/machine-id</c>), or <c>host:</c> and the
        /// host name where none can be read. Never sent as it is: see <see cref="MachineId"/>.
        /// </summary>
        public static string ReadRawMachineId()
        {
            return MachineIdentity.ReadRaw();
        }

        /// <summary>A new account; with <paramref name="licenseKey"/>, the key is redeemed in the same step. No session: log in next.</summary>
        public Task<LatchkeyResult> RegisterAsync(string username, string password, string email = null, string licenseKey = null)
        {
            var payload = new Dictionary<string, object> { { "username", username }, { "password", password }, { "hwid", Hwid } };
            if (!string.IsNullOrEmpty(email)) payload["email"] = email;
            if (!string.IsNullOrEmpty(licenseKey)) payload["license_key"] = licenseKey;
            return CallAsync("/register", false, payload);
        }

        /// <summary>
        /// Logs in and opens the session (<c>session/track</c> start with the token the login
        /// issued), so heartbeats, checkout and the user's variables can follow. A refused start
        /// answers in the login's place.
        /// </summary>
        public Task<LatchkeyResult> LoginAsync(string username, string password)
        {
            return LoginAsync(username, password, null);
        }

        /// <summary>
        /// Logs in and opens the session, as <see cref="LoginAsync(string, string)"/>, only for a
        /// user who holds every entitlement in <paramref name="requiredEntitlements"/> (a verify
        /// after the login, before the session opens). Otherwise no session opens and the answer
        /// is the verify's refusal (<c>ENTITLEMENTS_MISSING</c>, its <c>missing_entitlements</c>)
        /// over the login's fields, without a <c>session_token</c>. Null or empty requires nothing.
        /// </summary>
        public async Task<LatchkeyResult> LoginAsync(string username, string password, IEnumerable<string> requiredEntitlements)
        {
            var payload = new Dictionary<string, object>
            {
                { "username", username }, { "password", password }, { "version", Version }, { "hwid", Hwid },
            };
            if (DeviceName != null) payload["device_name"] = DeviceName;
            var login = await CallAsync("/login", false, payload).ConfigureAwait(false);
            return await OpenSessionAsync(login, requiredEntitlements).ConfigureAwait(false);
        }

        /// <summary>Logs in with a licence key alone (its first use creates the user) and opens the session.</summary>
        public Task<LatchkeyResult> LicenseLoginAsync(string licenseKey)
        {
            return LicenseLoginAsync(licenseKey, null);
        }

        /// <summary>
        /// Logs in with a licence key alone and, when the user holds every entitlement in
        /// <paramref name="requiredEntitlements"/>, opens the session; see
        /// <see cref="LoginAsync(string, string, IEnumerable{string})"/>.
        /// </summary>
        public async Task<LatchkeyResult> LicenseLoginAsync(string licenseKey, IEnumerable<string> requiredEntitlements)
        {
            var payload = new Dictionary<string, object> { { "license_key", licenseKey }, { "version", Version }, { "hwid", Hwid } };
            if (DeviceName != null) payload["device_name"] = DeviceName;
            var login = await CallAsync("/license/login", false, payload).ConfigureAwait(false);
            return await OpenSessionAsync(login, requiredEntitlements).ConfigureAwait(false);
        }

        /// <summary>
        /// Starts this machine's trial, or logs in the one it already has, and opens the session.
        /// The application offers one trial per machine (<paramref name="hwid"/>, this client's
        /// <see cref="Hwid"/> unless given): the first call creates a trial account (named
        /// <paramref name="username"/>, else <c>trial-</c> and random hex) ending after the
        /// application's trial days, with its trial entitlements; every later call from the
        /// machine, whatever name it sends, logs in that same account. <c>TRIAL_UNAVAILABLE</c>
        /// when the application offers no trial, <c>TRIAL_EXPIRED</c> once the machine's trial has
        /// ended (<c>expires_at</c> says when), <c>TRIAL_USED</c> when the vendor deleted its
        /// account. <paramref name="requiredEntitlements"/> as for
        /// <see cref="LoginAsync(string, string, IEnumerable{string})"/>. Never sent twice, as a login.
        /// </summary>
        public async Task<LatchkeyResult> StartTrialAsync(string hwid = null, string username = null,
            IEnumerable<string> requiredEntitlements = null)
        {
            var machine = hwid ?? Hwid;
            var payload = new Dictionary<string, object> { { "hwid", machine }, { "version", Version } };
            if (!string.IsNullOrEmpty(username)) payload["username"] = username;
            if (DeviceName != null) payload["device_name"] = DeviceName;
            var login = await CallAsync("/trial", false, payload).ConfigureAwait(false);
            return await OpenSessionAsync(login, requiredEntitlements, machine).ConfigureAwait(false);
        }

        /// <summary>Adds a licence key to an account; the password proves the holder.</summary>
        public Task<LatchkeyResult> RedeemAsync(string username, string password, string licenseKey)
        {
            return CallAsync("/license/redeem", false, new Dictionary<string, object>
            {
                { "username", username }, { "password", password }, { "license_key", licenseKey },
            });
        }

        /// <summary>
        /// Is the user (the session's, unless <paramref name="userId"/> is given) in good standing
        /// now, holding every entitlement asked for?
        /// </summary>
        public Task<LatchkeyResult> VerifyAsync(string userId = null, IEnumerable<string> entitlements = null)
        {
            var payload = new Dictionary<string, object> { { "user_id", userId ?? RequireSession("Verify").UserId } };
            if (entitlements != null) payload["entitlements"] = new List<string>(entitlements);
            return CallAsync("/verify", true, payload);
        }

        /// <summary>
        /// Keeps the session alive. A refusal that ends it (paused, expired, released...) forgets
        /// it here too, and a running heartbeat loop stops and reports it to its onRevoked.
        /// </summary>
        public async Task<LatchkeyResult> HeartbeatAsync()
        {
            var current = RequireSession("Heartbeat");
            var answer = await CallAsync("/session/track", true, new Dictionary<string, object>
            {
                { "action", "heartbeat" }, { "session_token", current.Token },
            }).ConfigureAwait(false);
            if (!answer.Success && answer.Code.HasValue && SessionEndingCodes.Contains(answer.Code.Value))
            {
                HeartbeatLoop loop;
                lock (sync)
                {
                    if (session != current) return answer;
                    loop = heartbeatLoop;
                    ForgetSession();
                }
                if (loop != null && loop.OnRevoked != null) ReportSafely(loop.OnRevoked, answer);
            }
            return answer;
        }

        /// <summary>
        /// Resumes a session saved from <see cref="Session"/> at an earlier start, without the
        /// password: one heartbeat with its token. When the server answers OK the client adopts
        /// the session (heartbeats, checkout and the user's variables follow it); otherwise it
        /// keeps none. Either way the heartbeat's answer is returned. Any session the client had
        /// is forgotten first.
        /// </summary>
        public async Task<LatchkeyResult> ResumeSessionAsync(string token, string userId)
        {
            lock (sync) ForgetSession();
            var answer = await CallAsync("/session/track", true, new Dictionary<string, object>
            {
                { "action", "heartbeat" }, { "session_token", token },
            }).ConfigureAwait(false);
            if (answer.Success)
            {
                lock (sync) session = new ClientSession(token, userId);
            }
            return answer;
        }

        /// <summary>Ends the session (null when there is none). It is over here whatever the server answers.</summary>
        public async Task<LatchkeyResult> EndSessionAsync()
        {
            ClientSession ended;
            lock (sync)
            {
                ended = session;
                ForgetSession();
            }
            if (ended == null) return null;
            return await CallAsync("/session/track", true, new Dictionary<string, object>
            {
                { "action", "end" }, { "session_token", ended.Token },
            }).ConfigureAwait(false);
        }

        /// <summary>An application variable; the session is sent when there is one (most variables need it).</summary>
        public Task<LatchkeyResult> GetVariableAsync(string name)
        {
            var payload = new Dictionary<string, object> { { "name", name } };
            var current = Session;
            if (current != null) payload["session_token"] = current.Token;
            return CallAsync("/var", true, payload);
        }

        /// <summary>One of the session's user's own variables (<c>value</c>, <c>read_only</c>).</summary>
        public Task<LatchkeyResult> GetUserVariableAsync(string name)
        {
            return CallAsync("/user-var", true, new Dictionary<string, object>
            {
                { "session_token", RequireSession("GetUserVariable").Token }, { "name", name },
            });
        }

        /// <summary>Creates or replaces one of the session's user's variables, unless the vendor made it read-only.</summary>
        public Task<LatchkeyResult> SetUserVariableAsync(string name, string value)
        {
            return CallAsync("/user-var/set", true, new Dictionary<string, object>
            {
                { "session_token", RequireSession("SetUserVariable").Token }, { "name", name }, { "value", value ?? "" },
            });
        }

        /// <summary>
        /// Counts <paramref name="amount"/> units against the session's user's usage meter
        /// <paramref name="name"/>: <c>METER_EXHAUSTED</c> when a refusing meter would pass its
        /// allowance for the period (nothing counted; the result still says where the meter
        /// stands), <c>METER_NOT_FOUND</c> when no active plan of the user has it. The result's
        /// fields are <c>name</c>, <c>allowance</c>, <c>used</c>, <c>remaining</c>,
        /// <c>overage</c>, <c>resets_at</c> and, when counted, <c>replayed</c>. Each increment
        /// carries an idempotency key (<paramref name="idempotencyKey"/>, or a random UUID), so the
        /// server counts it once however often it arrives: it is retried like the other safe calls,
        /// with the same key, and a repeat is answered as the first time with <c>replayed</c>
        /// true. A program that tries an increment again itself passes the same key each time.
        /// </summary>
        public Task<LatchkeyResult> UseMeterAsync(string name, long amount = 1, string idempotencyKey = null)
        {
            var token = RequireSession("UseMeter").Token;
            // The name is one segment of the path, whatever it holds.
            return CallAsync("/meters/" + Uri.EscapeDataString(name ?? "") + "/use", true, new Dictionary<string, object>
            {
                { "session_token", token }, { "amount", amount }, { "idempotency_key", idempotencyKey ?? Guid.NewGuid().ToString() },
            });
        }

        /// <summary>
        /// Releases this machine's seat (or, with <paramref name="allDevices"/>, every device of the
        /// user) where the application allows it; the server ends those devices' sessions, so this
        /// one is forgotten.
        /// </summary>
        public async Task<LatchkeyResult> ResetDevicesAsync(string username, string password, bool allDevices = false)
        {
            var payload = new Dictionary<string, object> { { "username", username }, { "password", password } };
            if (allDevices) payload["all"] = true;
            else payload["hwid"] = Hwid;
            var answer = await CallAsync("/devices/reset", false, payload).ConfigureAwait(false);
            if (answer.Success)
            {
                lock (sync) ForgetSession();
            }
            return answer;
        }

        /// <summary>
        /// Mails a link to choose a new password to the account named by <paramref name="username"/>
        /// or by <paramref name="email"/> (exactly one: ArgumentException otherwise, before anything
        /// is sent). The answer is the same whether or not the account exists. Never sent twice:
        /// each request may send a mail.
        /// </summary>
        public Task<LatchkeyResult> ForgotPasswordAsync(string username = null, string email = null)
        {
            if ((username == null) == (email == null))
                throw new ArgumentException("ForgotPassword: give either username or email", username == null ? "username" : "email");
            var payload = username != null
                ? new Dictionary<string, object> { { "username", username } }
                : new Dictionary<string, object> { { "email", email } };
            return CallAsync("/password/forgot", false, payload);
        }

        /// <summary>
        /// Mails a new link to confirm the account's e-mail address, for an application that lets
        /// only confirmed addresses log in; the password proves the holder. The answer is the same
        /// whatever the account. Never sent twice.
        /// </summary>
        public Task<LatchkeyResult> ResendVerificationAsync(string username, string password)
        {
            return CallAsync("/email/verify/resend", false, new Dictionary<string, object>
            {
                { "username", username }, { "password", password },
            });
        }

        /// <summary>
        /// An offline licence for the session: one line (<c>LK1.…</c>, or <c>LK1E.…</c> with
        /// <paramref name="encrypt"/>, readable only with this machine's HWID) in the result's
        /// <c>license</c>, to store as the program likes and check with
        /// <see cref="VerifyOfflineLicense"/> when the server is out of reach.
        /// </summary>
        public Task<LatchkeyResult> CheckoutAsync(int? ttlSeconds = null, bool encrypt = false)
        {
            var payload = new Dictionary<string, object> { { "session_token", RequireSession("Checkout").Token } };
            if (ttlSeconds.HasValue) payload["ttl_seconds"] = ttlSeconds.Value;
            if (encrypt) payload["encrypt"] = true;
            return CallAsync("/license/checkout", true, payload);
        }

        /// <summary>
        /// Borrows the session's floating seat for <paramref name="days"/> (1 to 365, at most the
        /// plan's <c>maxBorrowDays</c>): an offline licence in the result's <c>license</c>, as
        /// <see cref="CheckoutAsync"/> answers (<c>LK1.…</c>, or <c>LK1E.…</c> with
        /// <paramref name="encrypt"/>), holding for those days, and the seat kept taken until then,
        /// even once the session has ended, unless <see cref="ReturnSeatAsync"/> gives it back
        /// sooner. <c>BORROW_NOT_ALLOWED</c> when the user's plan is not floating or allows fewer
        /// days. Borrowing again issues another licence for the same seat, so it is retried like
        /// <see cref="CheckoutAsync"/>.
        /// </summary>
        public async Task<LatchkeyResult> BorrowSeatAsync(int days, bool encrypt = false)
        {
            var token = RequireSession("BorrowSeat").Token;
            var payload = new Dictionary<string, object> { { "session_token", token }, { "days", days } };
            if (encrypt) payload["encrypt"] = true;
            var answer = await CallAsync("/session/borrow", true, payload).ConfigureAwait(false);
            if (answer.Success) lock (sync) borrowedSeatToken = token;
            return answer;
        }

        /// <summary>
        /// Gives back the seat this client last borrowed (with <see cref="BorrowSeatAsync"/>, even
        /// if its session has ended since), or else the current session's borrowed seat, before
        /// the borrow ends: another computer may then take it. The licence already issued cannot be
        /// recalled: discard it. <c>SESSION_INVALID</c> when that login has no borrowed seat.
        /// Giving a seat back twice changes nothing, so it is retried like the other safe calls.
        /// InvalidOperationException when the client has neither a borrowed seat nor a session.
        /// </summary>
        public async Task<LatchkeyResult> ReturnSeatAsync()
        {
            string token;
            lock (sync) token = borrowedSeatToken ?? (session == null ? null : session.Token);
            if (token == null)
            {
                throw new InvalidOperationException("ReturnSeat needs a session (or a seat this client borrowed): log in first");
            }
            var answer = await CallAsync("/session/return", true, new Dictionary<string, object>
            {
                { "session_token", token },
            }).ConfigureAwait(false);
            // Given back, or never borrowed under that token: either way nothing is left to return.
            if (answer.Success || answer.Code == ResultCode.SESSION_INVALID)
            {
                lock (sync)
                {
                    if (borrowedSeatToken == token) borrowedSeatToken = null;
                }
            }
            return answer;
        }

        /// <summary>
        /// Downloads one of the application's files to <paramref name="destination"/>: a signed
        /// answer names its URL, size and SHA-256, the bytes are streamed beside the destination and
        /// kept only when they match (else <see cref="SignatureException"/> <c>digest</c>, and no
        /// file). <paramref name="sha256"/>, from an <see cref="UpdateOffer"/>, must also be the
        /// file's. On success the result's <see cref="LatchkeyResult.Path"/> is the destination. A
        /// file that needs a session and was published after the user's updates window is refused
        /// with <c>UPDATES_EXPIRED</c>.
        /// </summary>
        public async Task<LatchkeyResult> DownloadAsync(string fileId, string destination, string sha256 = null)
        {
            if (string.IsNullOrEmpty(destination)) throw new ArgumentException("destination is required", "destination");
            var payload = new Dictionary<string, object> { { "file_id", fileId } };
            var current = Session;
            if (current != null) payload["session_token"] = current.Token;
            var answer = await CallAsync("/file", true, payload).ConfigureAwait(false);
            if (!answer.Success) return answer;
            var url = answer.GetString("url");
            var size = answer.GetInt64("size");
            var digest = answer.GetString("sha256");
            if (url == null || !size.HasValue || digest == null)
                throw new TransportException("malformed", "The file answer has no URL, size or SHA-256");
            if (sha256 != null && !string.Equals(sha256, digest, StringComparison.OrdinalIgnoreCase))
                throw new SignatureException("digest", "The file is not the one the update offer signed");
            Uri location;
            if (!Uri.TryCreate(new Uri(BaseUrl + "/"), url, out location))
                throw new TransportException("malformed", "The file answer's URL is not one");
            var downloadTimeout = timeout > MinDownloadTimeout ? timeout : MinDownloadTimeout;
            await DownloadFile.SaveAsync(transport, location, destination, size.Value, digest, downloadTimeout).ConfigureAwait(false);
            var fields = new Dictionary<string, object>();
            foreach (var field in answer.Fields) fields[field.Key] = field.Value;
            return new LatchkeyResult(fields, answer.RetryAfterSeconds, destination);
        }

        /// <summary>
        /// The release a login refused with <c>VERSION_MISMATCH</c> or <c>UPDATES_EXPIRED</c>
        /// offers, or null: the current release, or, for a user whose updates window ended before it
        /// was published, the newest release published within the window (the one they may run).
        /// The v1 API has no call of its own for it: the offer rides, signed, on the login's answer;
        /// pass its <see cref="UpdateOffer.FileId"/> and <see cref="UpdateOffer.Sha256"/> to
        /// <see cref="DownloadAsync"/>.
        /// </summary>
        public UpdateOffer CheckForUpdate(LatchkeyResult answer)
        {
            if (answer == null) return null;
            if (answer.Code != ResultCode.VERSION_MISMATCH && answer.Code != ResultCode.UPDATES_EXPIRED) return null;
            var update = answer["update"] as IDictionary<string, object>;
            if (update == null) return null;
            object version, fileId, size, sha256;
            update.TryGetValue("version", out version);
            update.TryGetValue("file_id", out fileId);
            update.TryGetValue("size", out size);
            update.TryGetValue("sha256", out sha256);
            var digest = sha256 as string;
            if (!(version is string) || !(fileId is string) || !(size is long) || digest == null || digest.Length != 64 ||
                Hex.Parse(digest) == null) return null;
            return new UpdateOffer((string)version, (string)fileId, (long)size, digest);
        }

        /// <summary>
        /// Checks an offline licence with this application's pinned key and this machine's HWID
        /// (unless another is given), without the network; see <see cref="OfflineLicense.Verify(string, string, string, long?, DateTimeOffset?, DateTimeOffset?, int)"/>.
        /// </summary>
        public OfflineLicenseCheck VerifyOfflineLicense(string license, string hwid = null, long? applicationId = null,
            DateTimeOffset? now = null, DateTimeOffset? lastSeenAt = null, int clockToleranceSeconds = 300)
        {
            return OfflineLicense.Verify(license, key, hwid ?? Hwid, applicationId, now, lastSeenAt, clockToleranceSeconds);
        }

        /// <summary>
        /// An activation request for this machine, written without the network: the text
        /// (<c>LKA1.…</c>) the user of a machine that never reaches the server pastes into the
        /// application's portal (<c>/portal/&lt;publicId&gt;</c>) on another computer, signed in or
        /// with <paramref name="licenseKey"/>; the portal answers an offline licence for this machine
        /// (<c>LK1E.…</c> with <paramref name="encrypt"/>) to paste back and check with
        /// <see cref="VerifyOfflineLicense"/>. It names this application's key, this machine
        /// (<paramref name="hwid"/>, <see cref="Hwid"/> unless given) and <see cref="DeviceName"/>;
        /// <paramref name="nonce"/> and <paramref name="now"/> only pin what would otherwise be random
        /// and this machine's clock. Neither <paramref name="licenseKey"/> nor
        /// <paramref name="username"/> is needed when the user signs in to the portal. See
        /// <see cref="ActivationRequest.Create"/>.
        /// </summary>
        public string CreateActivationRequest(string licenseKey = null, string username = null, bool encrypt = false,
            string hwid = null, string nonce = null, DateTimeOffset? now = null)
        {
            return ActivationRequest.Create(PublicKey, hwid ?? Hwid, licenseKey, username, DeviceName, encrypt, nonce, now);
        }

        /// <summary>
        /// Heartbeats the session every <paramref name="interval"/> (30 s by default, as the server
        /// expects: 90 s without one is not live) on the thread pool, which never keeps the process
        /// alive. When the server ends the session the loop stops and <paramref name="onRevoked"/>
        /// is told why; network failures and refused answers go to <paramref name="onError"/> and
        /// the loop goes on. The callbacks run on a thread-pool thread: a GUI program hands them
        /// to its own thread (<c>Control.BeginInvoke</c>). InvalidOperationException without a session.
        /// </summary>
        public void StartHeartbeat(Action<LatchkeyResult> onRevoked, Action<Exception> onError = null, TimeSpan? interval = null)
        {
            RequireSession("StartHeartbeat");
            var every = interval ?? TimeSpan.FromSeconds(30);
            if (every <= TimeSpan.Zero) throw new ArgumentException("interval must be positive", "interval");
            var loop = new HeartbeatLoop(onRevoked, onError);
            lock (sync)
            {
                StopHeartbeat();
                heartbeatLoop = loop;
            }
            Task.Run(() => RunHeartbeatAsync(loop, every));
        }

        /// <summary>Stops the heartbeat loop, if one runs.</summary>
        public void StopHeartbeat()
        {
            HeartbeatLoop loop;
            lock (sync)
            {
                loop = heartbeatLoop;
                heartbeatLoop = null;
            }
            if (loop != null) loop.Stop();
        }

        /// <summary>Stops the heartbeat loop and releases the HTTP connections (the session is not ended).</summary>
        public void Dispose()
        {
            StopHeartbeat();
            transport.Dispose();
        }

        private async Task RunHeartbeatAsync(HeartbeatLoop loop, TimeSpan interval)
        {
            while (true)
            {
                try
                {
                    await Task.Delay(interval, loop.Stopped).ConfigureAwait(false);
                }
                catch (OperationCanceledException)
                {
                    return;
                }
                if (!IsCurrent(loop)) return;
                try
                {
                    // A revocation stops this loop and reaches onRevoked from HeartbeatAsync itself.
                    await HeartbeatAsync().ConfigureAwait(false);
                }
                catch (Exception error)
                {
                    // The loop's whole point is to outlive a failed beat.
                    if (IsCurrent(loop) && loop.OnError != null) ReportSafely(loop.OnError, error);
                }
            }
        }

        private bool IsCurrent(HeartbeatLoop loop)
        {
            lock (sync) return heartbeatLoop == loop;
        }

        /// <summary>Runs a program's callback so that its failure cannot end the loop.</summary>
        private static void ReportSafely<T>(Action<T> callback, T argument)
        {
            try
            {
                callback(argument);
            }
            catch (Exception)
            {
                // The program's own failure: nothing this library can do with it.
            }
        }

        /// <summary>Under <c>sync</c>.</summary>
        private void ForgetSession()
        {
            StopHeartbeat();
            session = null;
        }

        private ClientSession RequireSession(string call)
        {
            var current = Session;
            if (current == null) throw new InvalidOperationException(call + " needs a session: log in first");
            return current;
        }

        /// <summary>
        /// After a successful login: the entitlements it requires checked (<c>verify</c>), then
        /// <c>session/track</c> start with the login's token, from the machine
        /// (<paramref name="hwid"/>, this client's unless given) the login named.
        /// </summary>
        private async Task<LatchkeyResult> OpenSessionAsync(LatchkeyResult login, IEnumerable<string> requiredEntitlements,
            string hwid = null)
        {
            var userId = login.UserId;
            if (!login.Success || userId == null) return login;
            // A login accepted replaces the session before anything else is asked: a refusal
            // below leaves the client with none, never with the previous user's.
            lock (sync) ForgetSession();
            var refusal = await RequireEntitlementsAsync(login, userId, requiredEntitlements).ConfigureAwait(false);
            if (refusal != null) return refusal;
            var token = login.SessionToken ??
                "sess_" + Guid.NewGuid().ToString("N") + "_" + DateTimeOffset.UtcNow.ToUnixTimeSeconds();
            var start = await CallAsync("/session/track", true, new Dictionary<string, object>
            {
                { "action", "start" }, { "user_id", userId }, { "session_token", token }, { "hwid", hwid ?? Hwid },
            }).ConfigureAwait(false);
            if (!start.Success) return start;
            lock (sync) session = new ClientSession(token, userId);
            var fields = new Dictionary<string, object>();
            foreach (var field in login.Fields) fields[field.Key] = field.Value;
            fields["session_token"] = token;
            return new LatchkeyResult(fields, login.RetryAfterSeconds);
        }

        /// <summary>
        /// Null when the login's user holds every entitlement required (or none is), before any
        /// session opens; otherwise the refusal the login answers: the login's answer overlaid with
        /// the verify's (its <c>success</c>, <c>code</c>, <c>message</c>,
        /// <c>missing_entitlements</c>...), without the login's <c>session_token</c>, so a program
        /// cannot use a session that was never opened.
        /// </summary>
        private async Task<LatchkeyResult> RequireEntitlementsAsync(LatchkeyResult login, string userId,
            IEnumerable<string> requiredEntitlements)
        {
            var required = requiredEntitlements == null ? new List<string>() : new List<string>(requiredEntitlements);
            if (required.Count == 0) return null;
            var verify = await CallAsync("/verify", true, new Dictionary<string, object>
            {
                { "user_id", userId }, { "entitlements", required },
            }).ConfigureAwait(false);
            if (verify.Success) return null;
            var fields = new Dictionary<string, object>();
            foreach (var field in login.Fields) fields[field.Key] = field.Value;
            foreach (var field in verify.Fields) fields[field.Key] = field.Value;
            fields.Remove("session_token");
            return new LatchkeyResult(fields, verify.RetryAfterSeconds);
        }

        /// <summary>
        /// One call, tried again only when <paramref name="isSafe"/> (its repetition changes
        /// nothing; a meter's increment counts once per idempotency key, which its retries keep):
        /// after a failure without an answer or a server fault (backing off, or as
        /// <c>Retry-After</c> says), and after a 429 whose <c>Retry-After</c> is within the
        /// maximum wait. A login, a trial's start, a registration, a key's redemption or a device
        /// release is never sent twice: its 429 is its answer.
        /// </summary>
        private async Task<LatchkeyResult> CallAsync(string path, bool isSafe, IDictionary<string, object> payload)
        {
            var body = Encoding.UTF8.GetBytes(JsonText.Write(payload));
            var attempt = 0;
            while (true)
            {
                var isLastTry = !isSafe || attempt >= retries;
                LatchkeyResult answer;
                try
                {
                    answer = await ExchangeAsync(path, body).ConfigureAwait(false);
                }
                catch (TransportException error)
                {
                    if (isLastTry || error.Reason == "malformed") throw;
                    var delay = error.RetryAfterSeconds.HasValue
                        ? TimeSpan.FromSeconds(error.RetryAfterSeconds.Value)
                        : TimeSpan.FromTicks(FirstRetryDelay.Ticks << attempt);
                    if (delay > maxRetryDelay) throw;
                    await Task.Delay(delay).ConfigureAwait(false);
                    attempt++;
                    continue;
                }
                var wait = answer.RetryAfterSeconds;
                if (answer.Code != ResultCode.RATE_LIMITED || isLastTry || !wait.HasValue ||
                    TimeSpan.FromSeconds(wait.Value) > maxRetryDelay)
                    return answer;
                await Task.Delay(TimeSpan.FromSeconds(wait.Value)).ConfigureAwait(false);
                attempt++;
            }
        }

        /// <summary>One request and its checked answer.</summary>
        private async Task<LatchkeyResult> ExchangeAsync(string path, byte[] body)
        {
            var nonce = NewNonce();
            var headers = new Dictionary<string, string>
            {
                { "Accept", "application/json" },
                { "User-Agent", "latchkey-client-csharp" },
                { "X-API-Key", ApiKey },
                { "X-Request-Nonce", nonce },
            };
            var response = await transport.PostAsync(new Uri(BaseUrl + V1 + path), headers, body, timeout, MaxAnswerBytes)
                .ConfigureAwait(false);
            var retryAfter = RetryAfterOf(response.RetryAfter);
            // A server fault is no outcome, signed or not (a proxy's error page is not): the caller
            // learns the server failed, and a safe call tries again.
            if (response.Status >= 500)
                throw new TransportException("server-error", "The server failed (HTTP " + response.Status + ")",
                    response.Status, retryAfter);
            var refusal = AnswerSignature.Check(key, response.SignatureTimestamp, response.Signature, nonce, response.Body,
                DateTimeOffset.UtcNow.ToUnixTimeSeconds(), maxClockSkewSeconds);
            if (refusal != null) throw new SignatureException(refusal, RefusalMessage(refusal));
            IDictionary<string, object> data;
            try
            {
                data = JsonText.Parse(new UTF8Encoding(false, true).GetString(response.Body)) as IDictionary<string, object>;
            }
            catch (Exception error) when (error is FormatException || error is ArgumentException)
            {
                throw new TransportException("malformed", "The answer is not JSON", response.Status, inner: error);
            }
            object code;
            if (data == null || !data.TryGetValue("code", out code) || !(code is string))
                throw new TransportException("malformed", "The answer has no code", response.Status);
            // The server leaves the meters out for a user without any: where the answer carries the
            // user's licensing (its entitlements), a program reads an empty list instead of nothing.
            object entitlements;
            if (data.TryGetValue("entitlements", out entitlements) && entitlements is IList<object> &&
                !data.ContainsKey("meters"))
                data["meters"] = new List<object>();
            return new LatchkeyResult(data, (string)code == "RATE_LIMITED" ? retryAfter : null);
        }

        private static string RefusalMessage(string reason)
        {
            switch (reason)
            {
                case "unsigned": return "The answer is not signed";
                case "signature": return "The answer's signature does not hold for this application's key and this request";
                case "nonce": return "The answer is signed for a request without this request's nonce";
                default: return "The answer was signed too far from this machine's clock";
            }
        }

        private static int? RetryAfterOf(string value)
        {
            if (value == null || value.Length < 1 || value.Length > 6) return null;
            foreach (var c in value)
            {
                if (c < '0' || c > '9') return null;
            }
            return int.Parse(value, System.Globalization.CultureInfo.InvariantCulture);
        }

        private static string NewNonce()
        {
            var bytes = new byte[16];
            using (var random = RandomNumberGenerator.Create()) random.GetBytes(bytes);
            return Hex.Of(bytes);
        }

        private sealed class HeartbeatLoop
        {
            private readonly CancellationTokenSource stopped = new CancellationTokenSource();

            public HeartbeatLoop(Action<LatchkeyResult> onRevoked, Action<Exception> onError)
            {
                OnRevoked = onRevoked;
                OnError = onError;
            }

            public Action<LatchkeyResult> OnRevoked { get; private set; }
            public Action<Exception> OnError { get; private set; }
            public CancellationToken Stopped { get { return stopped.Token; } }

            public void Stop()
            {
                stopped.Cancel();
            }
        }
    }
}
