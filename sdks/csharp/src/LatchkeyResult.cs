using System;
using System.Collections.Generic;
using System.Collections.ObjectModel;

namespace Latchkey
{
    /// <summary>
    /// A call's outcome: <see cref="Success"/>, <see cref="Code"/> and <see cref="Message"/>, and
    /// every field of the answer exactly as the server named it (<c>user_id</c>,
    /// <c>session_token</c>, ...) in <see cref="Fields"/>, read with the indexer or
    /// <see cref="GetString"/>. Outcomes are values: a wrong password or an expired account is a
    /// result, never an exception. Immutable, so it may be handed to another thread.
    /// </summary>
    public sealed class LatchkeyResult
    {
        private readonly ReadOnlyDictionary<string, object> fields;

        internal LatchkeyResult(IDictionary<string, object> wireFields, int? retryAfterSeconds = null, string path = null)
        {
            var copy = new Dictionary<string, object>(wireFields, StringComparer.Ordinal);
            object code;
            CodeText = copy.TryGetValue("code", out code) && code is string ? (string)code : "";
            ResultCode parsed;
            Code = IsKnownCode(CodeText, out parsed) ? parsed : (ResultCode?)null;
            object success;
            Success = copy.TryGetValue("success", out success) && success is bool && (bool)success && CodeText == "OK";
            copy["success"] = Success;
            object message;
            Message = copy.TryGetValue("message", out message) && message is string ? (string)message : "";
            copy["message"] = Message;
            fields = new ReadOnlyDictionary<string, object>(copy);
            RetryAfterSeconds = retryAfterSeconds;
            Path = path;
        }

        /// <summary>True exactly when the code is <see cref="ResultCode.OK"/>.</summary>
        public bool Success { get; private set; }

        /// <summary>The code; null only for a code newer than this library (then see <see cref="CodeText"/>).</summary>
        public ResultCode? Code { get; private set; }

        /// <summary>The code as the server sent it.</summary>
        public string CodeText { get; private set; }

        /// <summary>The server's message (the vendor may rewrite messages: program against the code).</summary>
        public string Message { get; private set; }

        /// <summary>
        /// A <c>RATE_LIMITED</c> result: the seconds the server's <c>Retry-After</c> asked to wait
        /// (longer than the client's maximum wait, or a call that is never repeated); else null.
        /// </summary>
        public int? RetryAfterSeconds { get; private set; }

        /// <summary>A download: where the checked file now is; else null.</summary>
        public string Path { get; private set; }

        /// <summary>
        /// Every field of the answer, named as on the wire; values are <c>string</c>,
        /// <c>long</c>, <c>double</c>, <c>bool</c>, null, <c>IDictionary&lt;string, object&gt;</c>
        /// and <c>IList&lt;object&gt;</c>.
        /// </summary>
        public IReadOnlyDictionary<string, object> Fields { get { return fields; } }

        /// <summary>The field's value, or null when the answer has no such field.</summary>
        public object this[string name]
        {
            get
            {
                object value;
                return fields.TryGetValue(name, out value) ? value : null;
            }
        }

        /// <summary>The field as text, or null when it is absent or not text.</summary>
        public string GetString(string name)
        {
            return this[name] as string;
        }

        /// <summary>The field as a whole number, or null when it is absent or not one.</summary>
        public long? GetInt64(string name)
        {
            var value = this[name];
            return value is long ? (long)value : (long?)null;
        }

        /// <summary>The session token a login issued (and the session opened with).</summary>
        public string SessionToken { get { return GetString("session_token"); } }

        /// <summary>The user's id, on a login, a registration or a redemption.</summary>
        public string UserId { get { return GetString("user_id"); } }

        /// <summary>
        /// A login refused with <c>NO_SEAT_AVAILABLE</c>: when the first seat leased to the user's
        /// other computers lapses (ISO 8601, as the server wrote it); else null.
        /// </summary>
        public string NextFreeAt { get { return GetString("next_free_at"); } }

        /// <summary>
        /// Where the user's usage meters stand (the <c>meters</c> field of a login, a registration,
        /// a redemption or a verify), by name; empty for a user without any, and for an answer
        /// without the user's licensing.
        /// </summary>
        public IReadOnlyList<Meter> Meters { get { return Meter.ListOf(this["meters"]); } }

        /// <summary>The answer's fields as JSON (for storing it; <see cref="FromJson"/> reads it back).</summary>
        public string ToJson()
        {
            return JsonText.Write(fields);
        }

        /// <summary>
        /// A result from its JSON (<see cref="ToJson"/>'s), e.g. a stored login answer for
        /// <see cref="LatchkeyClient.CheckForUpdate"/>. FormatException when it is not a JSON object.
        /// </summary>
        public static LatchkeyResult FromJson(string json)
        {
            var value = JsonText.Parse(json ?? "") as IDictionary<string, object>;
            if (value == null) throw new FormatException("A result is a JSON object");
            return new LatchkeyResult(value);
        }

        public override string ToString()
        {
            return CodeText + ": " + Message;
        }

        internal static bool IsKnownCode(string text, out ResultCode code)
        {
            code = ResultCode.OK;
            // Enum.TryParse would also take numbers and other cases: only the exact names count.
            if (string.IsNullOrEmpty(text) || !Enum.IsDefined(typeof(ResultCode), text)) return false;
            code = (ResultCode)Enum.Parse(typeof(ResultCode), text);
            return true;
        }
    }

    /// <summary>
    /// Where one usage meter of the user stands in its current period: a plan's allowance of
    /// something (exports, API credits) per day, week, month, year or for good.
    /// </summary>
    public sealed class Meter
    {
        internal Meter(string name, long allowance, long used, long remaining, long overage, string resetsAt)
        {
            Name = name;
            Allowance = allowance;
            Used = used;
            Remaining = remaining;
            Overage = overage;
            ResetsAt = resetsAt;
        }

        public string Name { get; private set; }

        /// <summary>Units allowed each period.</summary>
        public long Allowance { get; private set; }

        public long Used { get; private set; }

        /// <summary><c>Allowance - Used</c>, never below 0.</summary>
        public long Remaining { get; private set; }

        /// <summary>Units used beyond the allowance (a meter that counts overage); 0 otherwise.</summary>
        public long Overage { get; private set; }

        /// <summary>
        /// When the period ends and <see cref="Used"/> starts again at 0 (ISO 8601, as the server
        /// wrote it); null for a meter that never resets.
        /// </summary>
        public string ResetsAt { get; private set; }

        /// <summary>The meters of a <c>meters</c> field; an entry that is not one is left out.</summary>
        internal static IReadOnlyList<Meter> ListOf(object field)
        {
            var meters = new List<Meter>();
            var items = field as IList<object>;
            if (items == null) return meters.AsReadOnly();
            foreach (var item in items)
            {
                var fields = item as IDictionary<string, object>;
                if (fields == null) continue;
                object name, allowance, used, remaining, overage, resetsAt;
                fields.TryGetValue("name", out name);
                fields.TryGetValue("allowance", out allowance);
                fields.TryGetValue("used", out used);
                fields.TryGetValue("remaining", out remaining);
                fields.TryGetValue("overage", out overage);
                fields.TryGetValue("resets_at", out resetsAt);
                if (!(name is string) || !(allowance is long) || !(used is long) || !(remaining is long) ||
                    !(overage is long)) continue;
                meters.Add(new Meter((string)name, (long)allowance, (long)used, (long)remaining, (long)overage,
                    resetsAt as string));
            }
            return meters.AsReadOnly();
        }
    }

    /// <summary>
    /// The release a login refused with <c>VERSION_MISMATCH</c> or <c>UPDATES_EXPIRED</c> offers:
    /// the one this user should run, the current release or, past their updates window, the
    /// newest published within it.
    /// </summary>
    public sealed class UpdateOffer
    {
        internal UpdateOffer(string version, string fileId, long size, string sha256)
        {
            Version = version;
            FileId = fileId;
            Size = size;
            Sha256 = sha256;
        }

        public string Version { get; private set; }
        public string FileId { get; private set; }
        public long Size { get; private set; }
        public string Sha256 { get; private set; }
    }
}
