using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Net;
using System.Net.Http;
using System.Net.Http.Headers;
using System.Threading;
using System.Threading.Tasks;

namespace Latchkey
{
    /// <summary>One POST exchange as received: status, the headers the checks read, the body's bytes.</summary>
    internal sealed class HttpExchange
    {
        public int Status;
        public string SignatureTimestamp;
        public string Signature;
        public string RetryAfter;
        public byte[] Body;
    }

    /// <summary>
    /// HTTP through System.Net.Http, with an explicit proxy or none. The environment's and the
    /// system's proxy settings are not followed (the program decides, in code), redirects are not
    /// followed (the client API never redirects, and a redirect would carry the API key
    /// elsewhere), and no cookie is kept.
    /// </summary>
    internal sealed class HttpTransport : IDisposable
    {
        private readonly HttpClient http;

        public HttpTransport(Uri proxy)
        {
            var handler = new HttpClientHandler { AllowAutoRedirect = false, UseCookies = false };
            if (proxy != null)
            {
                handler.Proxy = new ExplicitProxy(proxy);
                handler.UseProxy = true;
            }
            else
            {
                handler.UseProxy = false;
            }
            // Every wait is bounded per request by a cancellation of its own, which tells a
            // timeout apart from other failures; HttpClient's own timeout would not.
            http = new HttpClient(handler) { Timeout = System.Threading.Timeout.InfiniteTimeSpan };
        }

        public async Task<HttpExchange> PostAsync(Uri url, IDictionary<string, string> headers, byte[] body,
            TimeSpan timeout, int maxBodyBytes)
        {
            using (var deadline = new CancellationTokenSource(timeout))
            {
                var request = new HttpRequestMessage(HttpMethod.Post, url);
                foreach (var header in headers) request.Headers.TryAddWithoutValidation(header.Key, header.Value);
                request.Content = new ByteArrayContent(body);
                request.Content.Headers.ContentType = new MediaTypeHeaderValue("application/json");
                try
                {
                    using (var response = await http.SendAsync(request, HttpCompletionOption.ResponseHeadersRead, deadline.Token).ConfigureAwait(false))
                    using (deadline.Token.Register(response.Dispose))
                    {
                        var bytes = await ReadBodyAsync(response, deadline.Token, maxBodyBytes).ConfigureAwait(false);
                        return new HttpExchange
                        {
                            Status = (int)response.StatusCode,
                            SignatureTimestamp = HeaderOf(response, "X-Signature-Timestamp"),
                            Signature = HeaderOf(response, "X-Signature-Ed25519"),
                            RetryAfter = HeaderOf(response, "Retry-After"),
                            Body = bytes,
                        };
                    }
                }
                catch (Exception error)
                {
                    throw AsTransportException(error, deadline.IsCancellationRequested, timeout);
                }
                finally
                {
                    request.Dispose();
                }
            }
        }

        /// <summary>Sends a GET and answers its response, the body still to read, cancelled by <paramref name="cancel"/>.</summary>
        public Task<HttpResponseMessage> GetAsync(Uri url, CancellationToken cancel)
        {
            var request = new HttpRequestMessage(HttpMethod.Get, url);
            return http.SendAsync(request, HttpCompletionOption.ResponseHeadersRead, cancel);
        }

        private static async Task<byte[]> ReadBodyAsync(HttpResponseMessage response, CancellationToken cancel, int maxBytes)
        {
            using (var stream = await response.Content.ReadAsStreamAsync().ConfigureAwait(false))
            using (var buffer = new MemoryStream())
            {
                var chunk = new byte[16384];
                while (true)
                {
                    var read = await stream.ReadAsync(chunk, 0, chunk.Length, cancel).ConfigureAwait(false);
                    if (read == 0) return buffer.ToArray();
                    if (buffer.Length + read > maxBytes)
                        throw new TransportException("malformed", "The answer is larger than any the server sends");
                    buffer.Write(chunk, 0, read);
                }
            }
        }

        private static string HeaderOf(HttpResponseMessage response, string name)
        {
            IEnumerable<string> values;
            if (response.Headers.TryGetValues(name, out values)) return values.FirstOrDefault();
            return null;
        }

        public static TransportException AsTransportException(Exception error, bool isPastDeadline, TimeSpan timeout)
        {
            var transport = error as TransportException;
            if (transport != null) return transport;
            if (isPastDeadline)
                return new TransportException("timeout", "No answer within " + timeout.TotalSeconds + " s", inner: error);
            var web = error.InnerException as WebException;
            if (web != null && web.Status == WebExceptionStatus.Timeout)
                return new TransportException("timeout", "No answer in time", inner: error);
            var inner = error.InnerException ?? error;
            return new TransportException("unreachable", inner.GetType().Name + ": " + inner.Message, inner: error);
        }

        public void Dispose()
        {
            http.Dispose();
        }

        /// <summary>
        /// The proxy the program chose, for every host: WebProxy would skip it for loopback
        /// addresses on .NET Framework, whatever its settings.
        /// </summary>
        private sealed class ExplicitProxy : IWebProxy
        {
            private readonly Uri address;

            public ExplicitProxy(Uri proxy)
            {
                address = new UriBuilder(proxy.Scheme, proxy.Host, proxy.Port).Uri;
                if (!string.IsNullOrEmpty(proxy.UserInfo))
                {
                    var parts = proxy.UserInfo.Split(new[] { ':' }, 2);
                    Credentials = new NetworkCredential(Uri.UnescapeDataString(parts[0]),
                        parts.Length > 1 ? Uri.UnescapeDataString(parts[1]) : "");
                }
            }

            public ICredentials Credentials { get; set; }

            public Uri GetProxy(Uri destination)
            {
                return address;
            }

            public bool IsBypassed(Uri host)
            {
                return false;
            }
        }
    }
}
