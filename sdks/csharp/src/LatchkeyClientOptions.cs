using System;

namespace Latchkey
{
    /// <summary>The optional settings of a <see cref="LatchkeyClient"/>; every one has a default.</summary>
    public sealed class LatchkeyClientOptions
    {
        public LatchkeyClientOptions()
        {
            Timeout = TimeSpan.FromSeconds(30);
            Retries = 2;
            MaxRetryDelay = TimeSpan.FromSeconds(30);
            MaxClockSkewSeconds = AnswerSignature.DefaultMaxClockSkewSeconds;
        }

        /// <summary>How long one request may take, answer included (30 s; a download has at least ten minutes).</summary>
        public TimeSpan Timeout { get; set; }

        /// <summary>
        /// An HTTP proxy for every request, <c>http://[user:password@]host:port</c>: an <c>http:</c>
        /// server is reached through it in absolute form, an <c>https:</c> one through a
        /// <c>CONNECT</c> tunnel (TLS end to end). None by default: the system's proxy settings
        /// are not followed.
        /// </summary>
        public string Proxy { get; set; }

        /// <summary>This machine's HWID; by default <see cref="LatchkeyClient.MachineId"/>.</summary>
        public string Hwid { get; set; }

        /// <summary>A name for this machine shown to the vendor in the user's devices (none by default).</summary>
        public string DeviceName { get; set; }

        /// <summary>How many times a safe call is tried again after a failure or a 429 (2).</summary>
        public int Retries { get; set; }

        /// <summary>The longest wait before trying again; a longer <c>Retry-After</c> answers the 429 (30 s).</summary>
        public TimeSpan MaxRetryDelay { get; set; }

        /// <summary>How far an answer's signing time may be from this machine's clock (300 s).</summary>
        public int MaxClockSkewSeconds { get; set; }
    }
}
