using System;
using System.Collections.Generic;
using System.Globalization;
using System.Text;

namespace Latchkey
{
    /// <summary>
    /// A small JSON reader and writer. A result keeps every field the server wrote, exactly as
    /// written (an unknown field of a newer server included), as plain values: objects are
    /// <c>Dictionary&lt;string, object&gt;</c>, arrays <c>List&lt;object&gt;</c>, numbers
    /// <c>long</c> (or <c>double</c> when not integral), then <c>string</c>, <c>bool</c> and
    /// null. DataContractJsonSerializer needs one class per shape and drops what it does not
    /// know, so it cannot do that.
    /// </summary>
    internal static class JsonText
    {
        private const int MaxDepth = 64;

        /// <summary>The value of a JSON text; FormatException when it is not JSON.</summary>
        public static object Parse(string text)
        {
            var position = 0;
            var value = ReadValue(text, ref position, 0);
            SkipWhiteSpace(text, ref position);
            if (position != text.Length) throw new FormatException("Text after the JSON value");
            return value;
        }

        public static string Write(object value)
        {
            var builder = new StringBuilder();
            WriteValue(builder, value);
            return builder.ToString();
        }

        private static object ReadValue(string text, ref int position, int depth)
        {
            if (depth > MaxDepth) throw new FormatException("JSON nested too deeply");
            SkipWhiteSpace(text, ref position);
            if (position >= text.Length) throw new FormatException("Unexpected end of JSON");
            var c = text[position];
            if (c == '{')
            {
                position++;
                var members = new Dictionary<string, object>(StringComparer.Ordinal);
                SkipWhiteSpace(text, ref position);
                if (position < text.Length && text[position] == '}')
                {
                    position++;
                    return members;
                }
                while (true)
                {
                    SkipWhiteSpace(text, ref position);
                    if (position >= text.Length || text[position] != '"') throw new FormatException("Expected a member name");
                    var name = ReadString(text, ref position);
                    SkipWhiteSpace(text, ref position);
                    Expect(text, ref position, ':');
                    members[name] = ReadValue(text, ref position, depth + 1);
                    SkipWhiteSpace(text, ref position);
                    if (position < text.Length && text[position] == ',')
                    {
                        position++;
                        continue;
                    }
                    Expect(text, ref position, '}');
                    return members;
                }
            }
            if (c == '[')
            {
                position++;
                var items = new List<object>();
                SkipWhiteSpace(text, ref position);
                if (position < text.Length && text[position] == ']')
                {
                    position++;
                    return items;
                }
                while (true)
                {
                    items.Add(ReadValue(text, ref position, depth + 1));
                    SkipWhiteSpace(text, ref position);
                    if (position < text.Length && text[position] == ',')
                    {
                        position++;
                        continue;
                    }
                    Expect(text, ref position, ']');
                    return items;
                }
            }
            if (c == '"') return ReadString(text, ref position);
            if (Matches(text, position, "true")) { position += 4; return true; }
            if (Matches(text, position, "false")) { position += 5; return false; }
            if (Matches(text, position, "null")) { position += 4; return null; }
            return ReadNumber(text, ref position);
        }

        private static bool Matches(string text, int position, string word)
        {
            return string.CompareOrdinal(text, position, word, 0, word.Length) == 0;
        }

        private static void Expect(string text, ref int position, char c)
        {
            if (position >= text.Length || text[position] != c) throw new FormatException("Expected '" + c + "'");
            position++;
        }

        private static void SkipWhiteSpace(string text, ref int position)
        {
            while (position < text.Length)
            {
                var c = text[position];
                if (c != ' ' && c != '\t' && c != '\n' && c != '\r') return;
                position++;
            }
        }

        private static string ReadString(string text, ref int position)
        {
            position++;
            var builder = new StringBuilder();
            while (true)
            {
                if (position >= text.Length) throw new FormatException("Unterminated string");
                var c = text[position++];
                if (c == '"') return builder.ToString();
                if (c < 0x20) throw new FormatException("Control character in a string");
                if (c != '\\')
                {
                    builder.Append(c);
                    continue;
                }
                if (position >= text.Length) throw new FormatException("Unterminated escape");
                var escape = text[position++];
                switch (escape)
                {
                    case '"': builder.Append('"'); break;
                    case '\\': builder.Append('\\'); break;
                    case '/': builder.Append('/'); break;
                    case 'b': builder.Append('\b'); break;
                    case 'f': builder.Append('\f'); break;
                    case 'n': builder.Append('\n'); break;
                    case 'r': builder.Append('\r'); break;
                    case 't': builder.Append('\t'); break;
                    case 'u':
                        if (position + 4 > text.Length) throw new FormatException("Short \\u escape");
                        int code;
                        if (!int.TryParse(text.Substring(position, 4), NumberStyles.AllowHexSpecifier,
                                CultureInfo.InvariantCulture, out code)) throw new FormatException("Bad \\u escape");
                        builder.Append((char)code);
                        position += 4;
                        break;
                    default: throw new FormatException("Unknown escape");
                }
            }
        }

        private static object ReadNumber(string text, ref int position)
        {
            var start = position;
            if (position < text.Length && text[position] == '-') position++;
            var digitsStart = position;
            while (position < text.Length && text[position] >= '0' && text[position] <= '9') position++;
            if (position == digitsStart) throw new FormatException("Not a JSON value");
            var isIntegral = true;
            if (position < text.Length && text[position] == '.')
            {
                isIntegral = false;
                position++;
                while (position < text.Length && text[position] >= '0' && text[position] <= '9') position++;
            }
            if (position < text.Length && (text[position] == 'e' || text[position] == 'E'))
            {
                isIntegral = false;
                position++;
                if (position < text.Length && (text[position] == '+' || text[position] == '-')) position++;
                while (position < text.Length && text[position] >= '0' && text[position] <= '9') position++;
            }
            var number = text.Substring(start, position - start);
            long integral;
            if (isIntegral && long.TryParse(number, NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture, out integral))
                return integral;
            double real;
            if (!double.TryParse(number, NumberStyles.Float, CultureInfo.InvariantCulture, out real))
                throw new FormatException("Bad number");
            return real;
        }

        private static void WriteValue(StringBuilder builder, object value)
        {
            if (value == null) { builder.Append("null"); return; }
            var text = value as string;
            if (text != null) { WriteString(builder, text); return; }
            if (value is bool) { builder.Append((bool)value ? "true" : "false"); return; }
            if (value is Enum) { WriteString(builder, value.ToString()); return; }
            if (value is double || value is float || value is decimal)
            {
                var real = Convert.ToDouble(value, CultureInfo.InvariantCulture);
                if (double.IsNaN(real) || double.IsInfinity(real)) builder.Append("null");
                else builder.Append(real.ToString("R", CultureInfo.InvariantCulture));
                return;
            }
            if (value is IConvertible && !(value is char))
            {
                builder.Append(Convert.ToInt64(value, CultureInfo.InvariantCulture).ToString(CultureInfo.InvariantCulture));
                return;
            }
            var members = value as IEnumerable<KeyValuePair<string, object>>;
            if (members != null)
            {
                builder.Append('{');
                var isFirst = true;
                foreach (var member in members)
                {
                    if (!isFirst) builder.Append(',');
                    isFirst = false;
                    WriteString(builder, member.Key);
                    builder.Append(':');
                    WriteValue(builder, member.Value);
                }
                builder.Append('}');
                return;
            }
            var items = value as System.Collections.IEnumerable;
            if (items != null)
            {
                builder.Append('[');
                var isFirst = true;
                foreach (var item in items)
                {
                    if (!isFirst) builder.Append(',');
                    isFirst = false;
                    WriteValue(builder, item);
                }
                builder.Append(']');
                return;
            }
            WriteString(builder, value.ToString());
        }

        /// <summary>
        /// Escaped as JavaScript's JSON.stringify escapes (the short forms, other control
        /// characters as lower-case <c>\u00xx</c>, everything else as is), so a text the library
        /// writes is byte for byte the one the other SDKs write.
        /// </summary>
        private static void WriteString(StringBuilder builder, string text)
        {
            builder.Append('"');
            foreach (var c in text)
            {
                switch (c)
                {
                    case '"': builder.Append("\\\""); break;
                    case '\\': builder.Append("\\\\"); break;
                    case '\b': builder.Append("\\b"); break;
                    case '\f': builder.Append("\\f"); break;
                    case '\n': builder.Append("\\n"); break;
                    case '\r': builder.Append("\\r"); break;
                    case '\t': builder.Append("\\t"); break;
                    default:
                        if (c < 0x20) builder.Append("\\u").Append(((int)c).ToString("x4", CultureInfo.InvariantCulture));
                        else builder.Append(c);
                        break;
                }
            }
            builder.Append('"');
        }
    }
}
