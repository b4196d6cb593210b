using System;
using System.Diagnostics;
using System.IO;
using System.Runtime.CompilerServices;
using System.Security.Cryptography;
using System.Text;
using System.Text.RegularExpressions;

namespace Latchkey
{
    /// <summary>A stable per-machine identifier, hashed with the application's identity.</summary>
    internal static class MachineIdentity
    {
        /// <summary>Where Linux (and most BSDs with D-Bus) keep the machine's identifier, the first found.</summary>
        private static readonly string[] MachineIdFiles = { "/etc/machine-id", "/var/lib/dbus/machine-id" };

        public static string Hash(string rawMachineId, string publicKeyHex)
        {
            if (rawMachineId == null) throw new ArgumentNullException("rawMachineId");
            if (publicKeyHex == null) throw new ArgumentNullException("publicKeyHex");
            var text = "latchkey-machine-id-v1." + publicKeyHex.ToLowerInvariant() + "." + rawMachineId.Trim();
            using (var sha = SHA256.Create()) return Hex.Of(sha.ComputeHash(Encoding.UTF8.GetBytes(text)));
        }

        public static string ReadRaw()
        {
            string found = null;
            try
            {
                found = ReadPlatformMachineId();
            }
            catch (Exception)
            {
                // Anything the platform refuses (rights, a missing tool): the host name stands in.
            }
            return string.IsNullOrEmpty(found) ? "host:" + Environment.MachineName : found;
        }

        private static string ReadPlatformMachineId()
        {
            var platform = Environment.OSVersion.Platform;
            if (platform == PlatformID.Win32NT) return ReadWindowsMachineGuid();
            if (platform == PlatformID.MacOSX || (platform == PlatformID.Unix && Directory.Exists("/System/Library/CoreServices")))
            {
                var uuid = ReadMacPlatformUuid();
                if (!string.IsNullOrEmpty(uuid)) return uuid;
            }
            foreach (var path in MachineIdFiles)
            {
                try
                {
                    var text = File.ReadAllText(path, Encoding.UTF8).Trim();
                    if (text.Length > 0) return text;
                }
                catch (IOException)
                {
                    // Not on this system: the next place.
                }
                catch (UnauthorizedAccessException)
                {
                }
            }
            return null;
        }

        /// <summary>
        /// The registry's 64-bit view, read directly: a 32-bit program on 64-bit Windows would
        /// otherwise read the redirected one, and no console window flashes up. In a method of its
        /// own so that a runtime without the registry fails here, inside the caller's catch.
        /// </summary>
        [MethodImpl(MethodImplOptions.NoInlining)]
        private static string ReadWindowsMachineGuid()
        {
            using (var root = Microsoft.Win32.RegistryKey.OpenBaseKey(Microsoft.Win32.RegistryHive.LocalMachine,
                       Microsoft.Win32.RegistryView.Registry64))
            using (var key = root.OpenSubKey(@"SOFTWARE\Microsoft\Cryptography"))
            {
                var value = key == null ? null : key.GetValue("MachineGuid");
                return value == null ? null : value.ToString();
            }
        }

        private static string ReadMacPlatformUuid()
        {
            var start = new ProcessStartInfo("ioreg", "-rd1 -c IOPlatformExpertDevice")
            {
                UseShellExecute = false,
                CreateNoWindow = true,
                RedirectStandardOutput = true,
                RedirectStandardError = true,
                RedirectStandardInput = true,
            };
            using (var process = Process.Start(start))
            {
                process.StandardInput.Close();
                process.ErrorDataReceived += (sender, line) => { };
                process.BeginErrorReadLine();
                var output = process.StandardOutput.ReadToEnd();
                if (!process.WaitForExit(5000))
                {
                    try { process.Kill(); } catch (InvalidOperationException) { }
                    return null;
                }
                var found = Regex.Match(output, "\"IOPlatformUUID\" = \"([^\"]+)\"");
                return found.Success ? found.Groups[1].Value : null;
            }
        }
    }
}
