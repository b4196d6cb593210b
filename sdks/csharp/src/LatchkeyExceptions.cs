using System;
using System.Collections.Generic;
using System.Collections.ObjectModel;

namespace Latchkey
{
    /// <summary>The base of the library's own exceptions.</summary>
    public abstract class LatchkeyException : Exception
    {
        protected LatchkeyException(string reason, string message, Exception inner)
            : base(message, inner)
        {
            Reason = reason;
        }

        /// <summary>Why, one of the closed list of the exception's type (<c>Reasons</c>).</summary>
        public string Reason { get; private set; }
    }

    /// <summary>
    /// An answer (or a download) that did not prove it comes from the application: never
    /// trusted, never returned as a result.
    /// </summary>
    public class SignatureException : LatchkeyException
    {
        /// <summary>
        /// <c>unsigned</c>: the signature headers are missing or malformed;
        /// <c>signature</c>: the Ed25519 signature does not hold for the pinned key, this
        /// request's nonce and the bytes received (a changed body, another key, a replayed answer);
        /// <c>nonce</c>: the answer is signed for a request that carried no nonce, so this
        /// request's nonce never reached the server;
        /// <c>stale</c>: genuinely signed, but at a time too far from this machine's clock;
        /// <c>digest</c>: downloaded bytes whose size or SHA-256 is not what the signed answer said.
        /// </summary>
        public static readonly ReadOnlyCollection<string> Reasons = new ReadOnlyCollection<string>(
            new[] { "unsigned", "signature", "nonce", "stale", "digest" });

        public SignatureException(string reason, string message) : base(reason, message, null) { }
    }

    /// <summary>The network or the server failed: the outcome is unknown, not a refusal.</summary>
    public class TransportException : LatchkeyException
    {
        /// <summary>
        /// <c>unreachable</c>: no HTTP answer at all (refused, DNS, reset, proxy refused);
        /// <c>timeout</c>: none within the timeout; <c>server-error</c>: a 5xx, a server fault
        /// rather than an answer; <c>malformed</c>: an answer that is not the client API's JSON,
        /// or too large.
        /// </summary>
        public static readonly ReadOnlyCollection<string> Reasons = new ReadOnlyCollection<string>(
            new[] { "unreachable", "timeout", "server-error", "malformed" });

        public TransportException(string reason, string message, int? status = null,
            int? retryAfterSeconds = null, Exception inner = null)
            : base(reason, message, inner)
        {
            Status = status;
            RetryAfterSeconds = retryAfterSeconds;
        }

        /// <summary>The HTTP status, when an answer came.</summary>
        public int? Status { get; private set; }

        /// <summary>Seconds the server asked to wait (a 503's <c>Retry-After</c>), when it did.</summary>
        public int? RetryAfterSeconds { get; private set; }
    }
}
