// The C# SDK's side of the conformance run (sdks/test/csharp-conformance.test.ts): one long-lived
// process that performs what the TypeScript runner asks through the INSTALLED Latchkey.Client.dll
// (compiled against the DLL taken out of the nupkg, nothing else of the repository), one JSON
// request per line on stdin, one JSON answer per line on stdout. The runner keeps the scenarios,
// the owner's actions, the hostile proxy and every expectation; this file only calls the SDK and
// reports what it answered or threw, translating between the protocol's names (camelCase calls,
// SignatureError) and the library's (PascalCase, SignatureException). It is not part of the
// package: a vendor's installation never holds it.
using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Globalization;
using System.IO;
using System.Linq;
using System.Net.Http;
using System.Net.Http.Headers;
using System.Reflection;
using System.Security.Cryptography;
using System.Text;
using Latchkey;

namespace LatchkeyConformance
{
    public static class ConformanceDriver
    {
        private static LatchkeyClient client;
        // A scenario's other clients (other computers), by name.
        private static Dictionary<string, LatchkeyClient> others = new Dictionary<string, LatchkeyClient>();
        private static readonly object ReportLock = new object();
        private static List<object> revocations = new List<object>();
        private static List<object> heartbeatErrors = new List<object>();
        private static HttpClient plainHttp;

        public static int Main()
        {
            var input = new StreamReader(Console.OpenStandardInput(), new UTF8Encoding(false));
            var output = new StreamWriter(Console.OpenStandardOutput(), new UTF8Encoding(false)) { AutoFlush = true, NewLine = "\n" };
            string line;
            while ((line = input.ReadLine()) != null)
            {
                if (line.Trim().Length == 0) continue;
                var request = (Dictionary<string, object>)Json.Parse(line);
                var answer = new Dictionary<string, object> { { "id", request["id"] } };
                try
                {
                    answer["result"] = Perform((string)request["op"], request);
                }
                catch (Exception error)
                {
                    // A failure of the driver or an exception the SDK should not throw: the
                    // runner fails the step with all of it.
                    answer["failure"] = error.ToString();
                }
                output.WriteLine(Json.Write(answer));
            }
            DisposeClients();
            if (plainHttp != null) plainHttp.Dispose();
            return 0;
        }

        private static object Perform(string op, Dictionary<string, object> request)
        {
            switch (op)
            {
                case "info": return Info();
                case "signatureVector":
                    return AnswerSignature.Check(Text(request, "publicKey"), Text(request, "timestamp"),
                        Text(request, "signature"), Text(request, "nonce"), Encoding.UTF8.GetBytes(Text(request, "body")),
                        Convert.ToInt64(request["now"], CultureInfo.InvariantCulture));
                case "offlineVector":
                    return CheckToJson(OfflineLicense.Verify(Text(request, "license"), Text(request, "publicKey"),
                        Text(request, "hwid"), Integer(request, "applicationId"), Moment(request, "now"),
                        Moment(request, "lastSeenAt")));
                case "machineIdVector":
                    return LatchkeyClient.HashMachineId(Text(request, "rawMachineId"), Text(request, "publicKey"));
                case "activationRequestVector":
                    try
                    {
                        return new Dictionary<string, object>
                        {
                            {
                                "text", ActivationRequest.Create(Text(request, "publicKey"), Text(request, "hwid"),
                                    Text(request, "licenseKey"), Text(request, "username"), Text(request, "deviceName"),
                                    request.ContainsKey("encrypt") && (bool)request["encrypt"], Text(request, "nonce"),
                                    Moment(request, "now"))
                            },
                        };
                    }
                    catch (ArgumentException error)
                    {
                        return new Dictionary<string, object> { { "refused", error.Message } };
                    }
                case "thisMachine":
                {
                    var publicKey = Text(request, "publicKey");
                    using (var machine = new LatchkeyClient(Text(request, "baseUrl"), "lk_live_unused", publicKey, "1.0.0"))
                    {
                        var raw = LatchkeyClient.ReadRawMachineId();
                        return new Dictionary<string, object>
                        {
                            { "machineId", machine.MachineId() },
                            { "hashedRaw", LatchkeyClient.HashMachineId(raw, publicKey) },
                            { "raw", raw },
                            { "hwid", machine.Hwid },
                        };
                    }
                }
                case "construct": return Construct((Dictionary<string, object>)request["options"], Text(request, "client"));
                case "call": return Call(Text(request, "call"), request.ContainsKey("input")
                    ? (Dictionary<string, object>)request["input"] : new Dictionary<string, object>(), Text(request, "client"));
                case "timeCalls": return TimeCalls(Text(request, "call"), request.ContainsKey("input")
                    ? (Dictionary<string, object>)request["input"] : new Dictionary<string, object>(), Integer(request, "count").Value);
                case "timeRawCalls":
                    return TimeRawCalls(Text(request, "url"), Text(request, "apiKey"), request["body"], Integer(request, "count").Value);
                case "heartbeatState":
                    lock (ReportLock)
                    {
                        return new Dictionary<string, object>
                        {
                            { "revocations", new List<object>(revocations) },
                            { "errors", new List<object>(heartbeatErrors) },
                        };
                    }
                case "dispose":
                    DisposeClients();
                    return null;
                default: throw new ArgumentException("Unknown op " + op);
            }
        }

        private static object Info()
        {
            var assembly = typeof(LatchkeyClient).Assembly;
            var informational = (AssemblyInformationalVersionAttribute)Attribute.GetCustomAttribute(assembly,
                typeof(AssemblyInformationalVersionAttribute));
            // What the package's shape tests read of the DLL itself: what it links to, and
            // whether any method is a P/Invoke into native code.
            var pinvoke = new List<object>();
            foreach (var type in assembly.GetTypes())
            {
                const BindingFlags all = BindingFlags.Public | BindingFlags.NonPublic | BindingFlags.Static |
                    BindingFlags.Instance | BindingFlags.DeclaredOnly;
                foreach (var method in type.GetMethods(all))
                {
                    if ((method.Attributes & MethodAttributes.PinvokeImpl) != 0) pinvoke.Add(type.FullName + "." + method.Name);
                }
            }
            return new Dictionary<string, object>
            {
                { "file", assembly.Location },
                { "version", informational == null ? null : informational.InformationalVersion },
                { "resultCodes", Enum.GetNames(typeof(ResultCode)).Cast<object>().ToList() },
                { "offlineLicenseCodes", Enum.GetNames(typeof(OfflineLicenseCode)).Cast<object>().ToList() },
                { "signatureErrorReasons", SignatureException.Reasons.Cast<object>().ToList() },
                { "transportErrorReasons", TransportException.Reasons.Cast<object>().ToList() },
                { "referencedAssemblies", assembly.GetReferencedAssemblies().Select(name => (object)name.Name).ToList() },
                { "pinvokeMethods", pinvoke },
            };
        }

        /// <summary>With <paramref name="name"/>, one of the scenario's other clients; else the scenario's own, anew.</summary>
        private static object Construct(Dictionary<string, object> options, string name)
        {
            var created = new LatchkeyClient(Text(options, "baseUrl"), Text(options, "apiKey"), Text(options, "publicKey"),
                Text(options, "version"), new LatchkeyClientOptions
                {
                    Timeout = TimeSpan.FromMilliseconds(Convert.ToDouble(options["timeoutMs"], CultureInfo.InvariantCulture)),
                    Proxy = Text(options, "proxy"),
                    Hwid = Text(options, "hwid"),
                });
            if (name != null)
            {
                LatchkeyClient replaced;
                if (others.TryGetValue(name, out replaced)) replaced.Dispose();
                others[name] = created;
                return new Dictionary<string, object> { { "hwid", created.Hwid } };
            }
            DisposeClients();
            lock (ReportLock)
            {
                revocations = new List<object>();
                heartbeatErrors = new List<object>();
            }
            client = created;
            return new Dictionary<string, object> { { "hwid", client.Hwid } };
        }

        private static void DisposeClients()
        {
            if (client != null) client.Dispose();
            client = null;
            foreach (var other in others.Values) other.Dispose();
            others = new Dictionary<string, LatchkeyClient>();
        }

        private static object Call(string name, Dictionary<string, object> input, string clientName)
        {
            var caller = clientName == null ? client : others[clientName];
            var watch = Stopwatch.StartNew();
            var outcome = new Dictionary<string, object>();
            try
            {
                outcome["value"] = Invoke(caller, name, input);
            }
            catch (AggregateException wrapped) when (wrapped.InnerExceptions.Count == 1 && wrapped.InnerException is LatchkeyException)
            {
                outcome["error"] = ErrorToJson((LatchkeyException)wrapped.InnerException);
            }
            catch (LatchkeyException error)
            {
                outcome["error"] = ErrorToJson(error);
            }
            outcome["elapsedMs"] = watch.Elapsed.TotalMilliseconds;
            return outcome;
        }

        // The SDK overhead benchmark (bench/sdk-overhead.mjs): `count` calls one after another,
        // through the SDK, then as a plain HTTP request the way a program without the SDK would
        // send it (HttpClient, a fresh nonce, the answer read and parsed, its signature not checked).
        private static object TimeCalls(string name, Dictionary<string, object> input, long count)
        {
            var watch = Stopwatch.StartNew();
            object value = null;
            for (long index = 0; index < count; index++) value = Invoke(client, name, input);
            return new Dictionary<string, object> { { "elapsedMs", watch.Elapsed.TotalMilliseconds }, { "value", value } };
        }

        private static object TimeRawCalls(string url, string apiKey, object body, long count)
        {
            // One HttpClient for every call, its connections kept alive, as the SDK keeps its own;
            // no proxy, as the SDK's default, so both go the same way to the server.
            if (plainHttp == null)
            {
                plainHttp = new HttpClient(new HttpClientHandler { UseProxy = false }) { Timeout = TimeSpan.FromSeconds(30) };
            }
            var bodyBytes = Encoding.UTF8.GetBytes(Json.Write(body));
            var target = new Uri(url);
            var nonceBytes = new byte[16];
            var watch = Stopwatch.StartNew();
            object answer = null;
            using (var random = RandomNumberGenerator.Create())
            {
                for (long index = 0; index < count; index++)
                {
                    random.GetBytes(nonceBytes);
                    using (var request = new HttpRequestMessage(HttpMethod.Post, target))
                    {
                        request.Headers.Add("X-API-Key", apiKey);
                        request.Headers.Add("X-Request-Nonce", BitConverter.ToString(nonceBytes).Replace("-", "").ToLowerInvariant());
                        request.Content = new ByteArrayContent(bodyBytes);
                        request.Content.Headers.ContentType = new MediaTypeHeaderValue("application/json");
                        // Whatever the status: a plain program reads the answer's JSON either way.
                        using (var response = plainHttp.SendAsync(request).GetAwaiter().GetResult())
                        {
                            var text = response.Content.ReadAsStringAsync().GetAwaiter().GetResult();
                            answer = Json.Parse(text);
                        }
                    }
                }
            }
            return new Dictionary<string, object> { { "elapsedMs", watch.Elapsed.TotalMilliseconds }, { "value", answer } };
        }

        private static object Invoke(LatchkeyClient client, string name, Dictionary<string, object> input)
        {
            switch (name)
            {
                case "register":
                    return ResultToJson(client.RegisterAsync(Text(input, "username"), Text(input, "password"),
                        Text(input, "email"), Text(input, "licenseKey")).GetAwaiter().GetResult());
                case "login":
                    return ResultToJson(client.LoginAsync(Text(input, "username"), Text(input, "password"),
                        Texts(input, "requiredEntitlements")).GetAwaiter().GetResult());
                case "licenseLogin":
                    return ResultToJson(client.LicenseLoginAsync(Text(input, "licenseKey"), Texts(input, "requiredEntitlements"))
                        .GetAwaiter().GetResult());
                case "startTrial":
                    return ResultToJson(client.StartTrialAsync(Text(input, "hwid"), Text(input, "username"),
                        Texts(input, "requiredEntitlements")).GetAwaiter().GetResult());
                case "resumeSession":
                    return ResultToJson(client.ResumeSessionAsync(Text(input, "token"), Text(input, "userId")).GetAwaiter().GetResult());
                case "redeem":
                    return ResultToJson(client.RedeemAsync(Text(input, "username"), Text(input, "password"),
                        Text(input, "licenseKey")).GetAwaiter().GetResult());
                case "verify":
                    return ResultToJson(client.VerifyAsync(Text(input, "userId"), Texts(input, "entitlements")).GetAwaiter().GetResult());
                case "heartbeat": return ResultToJson(client.HeartbeatAsync().GetAwaiter().GetResult());
                case "endSession": return ResultToJson(client.EndSessionAsync().GetAwaiter().GetResult());
                case "getVariable": return ResultToJson(client.GetVariableAsync(Text(input, "name")).GetAwaiter().GetResult());
                case "getUserVariable":
                    return ResultToJson(client.GetUserVariableAsync(Text(input, "name")).GetAwaiter().GetResult());
                case "setUserVariable":
                    return ResultToJson(client.SetUserVariableAsync(Text(input, "name"), Text(input, "value")).GetAwaiter().GetResult());
                case "useMeter":
                    var amount = Integer(input, "amount");
                    return ResultToJson(client.UseMeterAsync(Text(input, "name"), amount ?? 1, Text(input, "idempotencyKey"))
                        .GetAwaiter().GetResult());
                case "resetDevices":
                    return ResultToJson(client.ResetDevicesAsync(Text(input, "username"), Text(input, "password"),
                        input.ContainsKey("allDevices") && (bool)input["allDevices"]).GetAwaiter().GetResult());
                case "forgotPassword":
                    return ResultToJson(client.ForgotPasswordAsync(Text(input, "username"), Text(input, "email"))
                        .GetAwaiter().GetResult());
                case "resendVerification":
                    return ResultToJson(client.ResendVerificationAsync(Text(input, "username"), Text(input, "password"))
                        .GetAwaiter().GetResult());
                case "checkout":
                    var ttl = Integer(input, "ttlSeconds");
                    return ResultToJson(client.CheckoutAsync(ttl.HasValue ? (int)ttl.Value : (int?)null,
                        input.ContainsKey("encrypt") && (bool)input["encrypt"]).GetAwaiter().GetResult());
                case "borrowSeat":
                    return ResultToJson(client.BorrowSeatAsync((int)Integer(input, "days").Value,
                        input.ContainsKey("encrypt") && (bool)input["encrypt"]).GetAwaiter().GetResult());
                case "returnSeat": return ResultToJson(client.ReturnSeatAsync().GetAwaiter().GetResult());
                case "download":
                    return ResultToJson(client.DownloadAsync(Text(input, "fileId"), Text(input, "destination"),
                        Text(input, "sha256")).GetAwaiter().GetResult());
                case "checkForUpdate":
                    var offer = client.CheckForUpdate(LatchkeyResult.FromJson(Json.Write(input["answer"])));
                    if (offer == null) return null;
                    return new Dictionary<string, object>
                    {
                        { "version", offer.Version }, { "file_id", offer.FileId }, { "size", offer.Size }, { "sha256", offer.Sha256 },
                    };
                case "verifyOfflineLicense":
                    return CheckToJson(client.VerifyOfflineLicense(Text(input, "license"), Text(input, "hwid"),
                        Integer(input, "applicationId"), Moment(input, "now"), Moment(input, "lastSeenAt")));
                case "createActivationRequest":
                    return client.CreateActivationRequest(Text(input, "licenseKey"), Text(input, "username"),
                        input.ContainsKey("encrypt") && (bool)input["encrypt"], Text(input, "hwid"));
                case "startHeartbeat":
                    var interval = Integer(input, "intervalMs");
                    client.StartHeartbeat(
                        revoked => { lock (ReportLock) revocations.Add(ResultToJson(revoked)); },
                        error => { lock (ReportLock) heartbeatErrors.Add(error.GetType().Name + ": " + error.Message); },
                        interval.HasValue ? TimeSpan.FromMilliseconds(interval.Value) : (TimeSpan?)null);
                    return null;
                case "stopHeartbeat":
                    client.StopHeartbeat();
                    return null;
                default: throw new ArgumentException("Unknown call " + name);
            }
        }

        /// <summary>A result as the protocol wants it: the wire's fields, plus what the SDK adds.</summary>
        private static object ResultToJson(LatchkeyResult result)
        {
            if (result == null) return null;
            var value = new Dictionary<string, object>();
            foreach (var field in result.Fields) value[field.Key] = field.Value;
            if (result.RetryAfterSeconds.HasValue) value["retryAfterSeconds"] = (long)result.RetryAfterSeconds.Value;
            if (result.Path != null) value["path"] = result.Path;
            return value;
        }

        private static object CheckToJson(OfflineLicenseCheck check)
        {
            var value = new Dictionary<string, object>
            {
                { "success", check.Success }, { "code", check.Code.ToString() }, { "message", check.Message },
            };
            if (check.Content != null) value["content"] = check.Content;
            return value;
        }

        private static object ErrorToJson(LatchkeyException error)
        {
            return new Dictionary<string, object>
            {
                { "type", error is SignatureException ? "SignatureError" : "TransportError" },
                { "reason", error.Reason },
                { "message", error.Message },
            };
        }

        private static string Text(Dictionary<string, object> values, string name)
        {
            object value;
            return values.TryGetValue(name, out value) ? value as string : null;
        }

        private static IEnumerable<string> Texts(Dictionary<string, object> values, string name)
        {
            object value;
            if (!values.TryGetValue(name, out value) || value == null) return null;
            return ((List<object>)value).Cast<string>();
        }

        private static long? Integer(Dictionary<string, object> values, string name)
        {
            object value;
            if (!values.TryGetValue(name, out value) || value == null) return null;
            return Convert.ToInt64(value, CultureInfo.InvariantCulture);
        }

        private static DateTimeOffset? Moment(Dictionary<string, object> values, string name)
        {
            var text = Text(values, name);
            if (text == null) return null;
            return DateTimeOffset.Parse(text, CultureInfo.InvariantCulture, DateTimeStyles.AssumeUniversal);
        }
    }

    /// <summary>The protocol's JSON, for this driver alone (the library keeps its own reader private).</summary>
    internal static class Json
    {
        public static object Parse(string text)
        {
            var position = 0;
            var value = Read(text, ref position);
            Skip(text, ref position);
            if (position != text.Length) throw new FormatException("Text after the JSON value");
            return value;
        }

        private static void Skip(string text, ref int position)
        {
            while (position < text.Length && char.IsWhiteSpace(text[position])) position++;
        }

        private static object Read(string text, ref int position)
        {
            Skip(text, ref position);
            var c = text[position];
            if (c == '{')
            {
                position++;
                var members = new Dictionary<string, object>();
                Skip(text, ref position);
                if (text[position] == '}') { position++; return members; }
                while (true)
                {
                    Skip(text, ref position);
                    var name = ReadString(text, ref position);
                    Skip(text, ref position);
                    position++; // ':'
                    members[name] = Read(text, ref position);
                    Skip(text, ref position);
                    if (text[position++] == '}') return members;
                }
            }
            if (c == '[')
            {
                position++;
                var items = new List<object>();
                Skip(text, ref position);
                if (text[position] == ']') { position++; return items; }
                while (true)
                {
                    items.Add(Read(text, ref position));
                    Skip(text, ref position);
                    if (text[position++] == ']') return items;
                }
            }
            if (c == '"') return ReadString(text, ref position);
            if (string.CompareOrdinal(text, position, "true", 0, 4) == 0) { position += 4; return true; }
            if (string.CompareOrdinal(text, position, "false", 0, 5) == 0) { position += 5; return false; }
            if (string.CompareOrdinal(text, position, "null", 0, 4) == 0) { position += 4; return null; }
            var start = position;
            while (position < text.Length && "+-0123456789.eE".IndexOf(text[position]) >= 0) position++;
            var number = text.Substring(start, position - start);
            long integral;
            if (long.TryParse(number, NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture, out integral)) return integral;
            return double.Parse(number, NumberStyles.Float, CultureInfo.InvariantCulture);
        }

        private static string ReadString(string text, ref int position)
        {
            position++;
            var builder = new StringBuilder();
            while (true)
            {
                var c = text[position++];
                if (c == '"') return builder.ToString();
                if (c != '\\') { builder.Append(c); continue; }
                var escape = text[position++];
                switch (escape)
                {
                    case 'b': builder.Append('\b'); break;
                    case 'f': builder.Append('\f'); break;
                    case 'n': builder.Append('\n'); break;
                    case 'r': builder.Append('\r'); break;
                    case 't': builder.Append('\t'); break;
                    case 'u':
                        builder.Append((char)int.Parse(text.Substring(position, 4), NumberStyles.AllowHexSpecifier, CultureInfo.InvariantCulture));
                        position += 4;
                        break;
                    default: builder.Append(escape); break;
                }
            }
        }

        public static string Write(object value)
        {
            var builder = new StringBuilder();
            Write(builder, value);
            return builder.ToString();
        }

        private static void Write(StringBuilder builder, object value)
        {
            if (value == null) { builder.Append("null"); return; }
            var text = value as string;
            if (text != null)
            {
                builder.Append('"');
                foreach (var c in text)
                {
                    if (c == '"' || c == '\\') builder.Append('\\').Append(c);
                    else if (c < 0x20) builder.Append("\\u").Append(((int)c).ToString("x4", CultureInfo.InvariantCulture));
                    else builder.Append(c);
                }
                builder.Append('"');
                return;
            }
            if (value is bool) { builder.Append((bool)value ? "true" : "false"); return; }
            if (value is double) { builder.Append(((double)value).ToString("R", CultureInfo.InvariantCulture)); return; }
            if (value is long || value is int) { builder.Append(Convert.ToInt64(value, CultureInfo.InvariantCulture)); return; }
            var members = value as IEnumerable<KeyValuePair<string, object>>;
            if (members != null)
            {
                builder.Append('{');
                var isFirst = true;
                foreach (var member in members)
                {
                    if (!isFirst) builder.Append(',');
                    isFirst = false;
                    Write(builder, member.Key);
                    builder.Append(':');
                    Write(builder, member.Value);
                }
                builder.Append('}');
                return;
            }
            var items = value as System.Collections.IEnumerable;
            if (items == null) throw new ArgumentException("Not a JSON value: " + value.GetType());
            builder.Append('[');
            var isFirstItem = true;
            foreach (var item in items)
            {
                if (!isFirstItem) builder.Append(',');
                isFirstItem = false;
                Write(builder, item);
            }
            builder.Append(']');
        }
    }
}
