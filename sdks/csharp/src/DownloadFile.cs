using System;
using System.IO;
using System.Security.Cryptography;
using System.Threading;
using System.Threading.Tasks;

namespace Latchkey
{
    /// <summary>Downloads checked against the signed size and SHA-256 before they are kept.</summary>
    internal static class DownloadFile
    {
        /// <summary>
        /// Streams a download into a temporary file beside <paramref name="destination"/> while
        /// hashing it, and moves it into place only when its size and SHA-256 are the signed ones.
        /// The bytes themselves are not signed (anything on the way could change them), the hash
        /// is; a file that does not match is deleted, never left where the program would run it.
        /// </summary>
        public static async Task SaveAsync(HttpTransport transport, Uri url, string destination, long size,
            string sha256, TimeSpan timeout)
        {
            var fullPath = Path.GetFullPath(destination);
            var directory = Path.GetDirectoryName(fullPath);
            var temporary = Path.Combine(directory, "." + Path.GetFileName(fullPath) + "." +
                Guid.NewGuid().ToString("N").Substring(0, 12) + ".part");
            var isComplete = false;
            try
            {
                using (var deadline = new CancellationTokenSource(timeout))
                {
                    string actual;
                    long received = 0;
                    try
                    {
                        using (var response = await transport.GetAsync(url, deadline.Token).ConfigureAwait(false))
                        using (deadline.Token.Register(response.Dispose))
                        {
                            var status = (int)response.StatusCode;
                            if (status != 200)
                            {
                                throw new TransportException(status >= 500 ? "server-error" : "unreachable",
                                    "The download answered HTTP " + status, status);
                            }
                            using (var body = await response.Content.ReadAsStreamAsync().ConfigureAwait(false))
                            using (var file = new FileStream(temporary, FileMode.CreateNew, FileAccess.Write))
                            using (var hash = SHA256.Create())
                            {
                                var buffer = new byte[65536];
                                int read;
                                while ((read = await body.ReadAsync(buffer, 0, buffer.Length, deadline.Token).ConfigureAwait(false)) > 0)
                                {
                                    received += read;
                                    // More than was signed is wrong already: stop rather than fill the disk.
                                    if (received > size) throw DigestRefusal("more than the " + size + " bytes signed");
                                    hash.TransformBlock(buffer, 0, read, null, 0);
                                    await file.WriteAsync(buffer, 0, read, deadline.Token).ConfigureAwait(false);
                                }
                                hash.TransformFinalBlock(new byte[0], 0, 0);
                                actual = Hex.Of(hash.Hash);
                            }
                        }
                    }
                    catch (SignatureException)
                    {
                        throw;
                    }
                    catch (Exception error)
                    {
                        throw HttpTransport.AsTransportException(error, deadline.IsCancellationRequested, timeout);
                    }
                    if (received != size || !string.Equals(actual, sha256, StringComparison.OrdinalIgnoreCase))
                        throw DigestRefusal(received + " bytes with SHA-256 " + actual);
                }
                if (File.Exists(fullPath)) File.Replace(temporary, fullPath, null);
                else File.Move(temporary, fullPath);
                isComplete = true;
            }
            finally
            {
                if (!isComplete)
                {
                    try
                    {
                        File.Delete(temporary);
                    }
                    catch (IOException)
                    {
                        // Nothing more to do: the file is not where the program would run it.
                    }
                }
            }
        }

        private static SignatureException DigestRefusal(string what)
        {
            return new SignatureException("digest", "The download does not match its signed size and SHA-256: " + what);
        }
    }
}
