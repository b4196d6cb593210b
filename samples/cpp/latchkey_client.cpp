// Latchkey client sample for C++ (console): log in (with a password or a licence key alone),
// register (with a licence key if you sell them), have a link to choose a new password mailed
// to the account's address (or, where the application lets only confirmed addresses log in, a
// new link to confirm it), verify, keep a live session with heartbeats
// and periodic verification, redeem licence keys onto the account, show its entitlements and
// subscriptions, release this machine's seat so the user can log in from another one, and
// check the Ed25519 signature of every answer before trusting it, so a fake server cannot
// unlock the program. Logins send the machine's name, which the owner sees in the user's
// device list. After each login it keeps an offline licence, so that a later start without
// the network still works until the licence's end; it shows the vendor's welcome_message and
// the user's own note (remote variables), and when the vendor has published a newer release
// it offers to download it, checked against its signed SHA-256.
//
// Needs libcurl, libsodium and nlohmann-json (Debian/Ubuntu:
// apt-get install g++ pkg-config libcurl4-openssl-dev libsodium-dev nlohmann-json3-dev).
// Build:
//   g++ -std=c++17 -O2 -Wall -Wextra -Werror latchkey_client.cpp -o latchkey_client $(pkg-config --cflags --libs libcurl libsodium)
// Run:
//   ./latchkey_client
// At the Username prompt: /register creates an account, /key logs in with a licence key,
// /forgot mails a link to choose a new password, /resend a new link to confirm the address.
// Commands once logged in: status, redeem, release, note, logout, help, quit, exit.

// ---- Settings: filled in by Latchkey when you copy this sample from the console ----
static const char* const API_KEY = "YOUR_API_KEY";
static const char* const BASE_URL = "YOUR_LATCHKEY_URL";
static const char* const APP_VERSION = "YOUR_APP_VERSION";
// The application's Ed25519 public key (hex): only answers signed with its private key count.
static const char* const SIGNING_PUBLIC_KEY = "YOUR_SIGNING_PUBLIC_KEY";
// Entitlement codes this program needs, comma-separated (e.g. "PRO,EXPORT_PDF"): verify refuses
// a user who lacks one (ENTITLEMENTS_MISSING). Empty: any user in good standing may use it.
static const char* const REQUIRED_ENTITLEMENTS = "";

// ---- Intervals and limits ----
static const int HEARTBEAT_INTERVAL_SECONDS = 30;
static const int VERIFY_INTERVAL_SECONDS = 300;
static const int MAX_VERIFY_FAILURES = 3;
static const long HTTP_TIMEOUT_SECONDS = 30;
static const long long MAX_CLOCK_SKEW_SECONDS = 300;
// The longest device_name the server accepts, in characters (UTF-16 units).
static const int MAX_DEVICE_NAME_LENGTH = 128;

// ---- Offline licence: how long one checked out after a login lets the program run without the
// network (at most the application's offline days), and how far the clock may go back between
// runs (an NTP correction, a changed time zone) before an offline start is refused ----
static const long long OFFLINE_LICENSE_TTL_SECONDS = 604800;
static const long long CLOCK_TOLERANCE_SECONDS = 300;

#include <curl/curl.h>
#include <sodium.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#ifdef _WIN32
#include <windows.h>
#else
#include <termios.h>
#include <unistd.h>
#endif

namespace latchkey {

using json = nlohmann::json;

const char* const NOT_VERIFIED_TEXT = "The server response could not be verified.";

// ---------------------------------------------------------------------------------------
// Signature check: the trust boundary. Nothing in an answer is read before it passes.
// ---------------------------------------------------------------------------------------

static bool decode_hex(const std::string& hex, unsigned char* out, size_t out_length) {
  if (hex.size() != out_length * 2) return false;
  size_t decoded_length = 0;
  const char* end = nullptr;
  if (sodium_hex2bin(out, out_length, hex.data(), hex.size(), nullptr, &decoded_length, &end) != 0)
    return false;
  return decoded_length == out_length && end == hex.data() + hex.size();
}

static bool parse_unix_seconds(const std::string& text, long long& seconds) {
  if (text.empty() || text.size() > 12) return false;
  for (char c : text)
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
  seconds = std::stoll(text);
  return true;
}

// True only when signature_hex is a valid Ed25519 signature, by the key public_key_hex, of
// the bytes "{timestamp}.{nonce}.{body}" (the body exactly as received), and the timestamp
// is within MAX_CLOCK_SKEW_SECONDS of now (so an old genuine answer cannot be replayed).
bool is_genuine_response(const std::string& public_key_hex, const std::string& timestamp,
                         const std::string& nonce, const std::string& body,
                         const std::string& signature_hex, std::time_t now) {
  if (sodium_init() < 0) return false;
  unsigned char public_key[crypto_sign_PUBLICKEYBYTES];
  unsigned char signature[crypto_sign_BYTES];
  if (!decode_hex(public_key_hex, public_key, sizeof public_key)) return false;
  if (!decode_hex(signature_hex, signature, sizeof signature)) return false;
  long long signed_at = 0;
  if (!parse_unix_seconds(timestamp, signed_at)) return false;
  long long skew = static_cast<long long>(now) - signed_at;
  if (skew > MAX_CLOCK_SKEW_SECONDS || skew < -MAX_CLOCK_SKEW_SECONDS) return false;
  const std::string message = timestamp + "." + nonce + "." + body;
  return crypto_sign_verify_detached(signature,
                                     reinterpret_cast<const unsigned char*>(message.data()),
                                     message.size(), public_key) == 0;
}

// ---------------------------------------------------------------------------------------
// Small helpers
// ---------------------------------------------------------------------------------------

static std::string to_hex(const unsigned char* bytes, size_t length) {
  std::string hex(length * 2 + 1, '\0');
  sodium_bin2hex(&hex[0], hex.size(), bytes, length);
  hex.resize(length * 2);
  return hex;
}

static std::string random_hex(size_t byte_count) {
  std::vector<unsigned char> bytes(byte_count);
  randombytes_buf(bytes.data(), bytes.size());
  return to_hex(bytes.data(), bytes.size());
}

static std::string trim(const std::string& text) {
  const char* space = " \t\r\n";
  const size_t first = text.find_first_not_of(space);
  if (first == std::string::npos) return "";
  return text.substr(first, text.find_last_not_of(space) - first + 1);
}

static std::string lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

static std::string text_field(const json& body, const char* name) {
  if (body.is_object() && body.contains(name) && body[name].is_string())
    return body[name].get<std::string>();
  return "";
}

static std::vector<std::string> split_codes(const std::string& text) {
  std::vector<std::string> codes;
  std::stringstream stream(text);
  std::string code;
  while (std::getline(stream, code, ','))
    if (!trim(code).empty()) codes.push_back(trim(code));
  return codes;
}

static std::string join(const std::vector<std::string>& items, const std::string& separator) {
  std::string text;
  for (const std::string& item : items) text += (text.empty() ? "" : separator) + item;
  return text;
}

// What a user holds, from a login, verify, register or redeem answer.
struct Licensing {
  std::vector<std::string> entitlements;  // sorted codes
  std::vector<std::string> subscriptions;  // "Plan until <ISO date>" or "Plan (lifetime)"
};

static Licensing licensing_of(const json& body) {
  Licensing licensing;
  if (body.is_object() && body.contains("entitlements") && body["entitlements"].is_array())
    for (const json& code : body["entitlements"])
      if (code.is_string()) licensing.entitlements.push_back(code.get<std::string>());
  if (body.is_object() && body.contains("subscriptions") && body["subscriptions"].is_array())
    for (const json& held : body["subscriptions"]) {
      const std::string plan = text_field(held, "plan");
      if (plan.empty()) continue;
      const std::string expires_at = text_field(held, "expires_at");
      licensing.subscriptions.push_back(expires_at.empty() ? plan + " (lifetime)"
                                                           : plan + " until " + expires_at);
    }
  return licensing;
}

static std::string list_or_none(const std::vector<std::string>& items) {
  return items.empty() ? "none" : join(items, ", ");
}

// A session token goes into logs by its first 8 characters only, so no log holds a whole one.
static std::string token_preview(const std::string& token) { return token.substr(0, 8) + "..."; }

// A client-made session token: sess_<random id without dashes>_<unix seconds>.
static std::string new_session_token() {
  return "sess_" + random_hex(16) + "_" + std::to_string(static_cast<long long>(std::time(nullptr)));
}

// ---------------------------------------------------------------------------------------
// Times: the server's ISO 8601 UTC times as unix seconds, and as this machine's local time.
// ---------------------------------------------------------------------------------------

// Days from 1970-01-01 to a civil date (proleptic Gregorian), without the C library's time
// zone: timegm is not portable and mktime is local.
static long long days_from_civil(long long year, unsigned month, unsigned day) {
  year -= month <= 2 ? 1 : 0;
  const long long era = (year >= 0 ? year : year - 399) / 400;
  const unsigned year_of_era = static_cast<unsigned>(year - era * 400);
  const unsigned day_of_year = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1;
  const unsigned day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
  return era * 146097 + static_cast<long long>(day_of_era) - 719468;
}

// "2026-06-08T12:00:00.000Z" (fraction optional, UTC only, as the server writes them).
static bool parse_iso_utc(const std::string& text, long long& unix_seconds) {
  int year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0, consumed = 0;
  if (std::sscanf(text.c_str(), "%4d-%2d-%2dT%2d:%2d:%2d%n", &year, &month, &day, &hour, &minute,
                  &second, &consumed) != 6 || consumed != 19)
    return false;
  size_t rest = 19;
  if (rest < text.size() && text[rest] == '.')
    for (++rest; rest < text.size() && std::isdigit(static_cast<unsigned char>(text[rest]));) ++rest;
  if (rest + 1 != text.size() || text[rest] != 'Z') return false;
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60)
    return false;
  unix_seconds = days_from_civil(year, static_cast<unsigned>(month), static_cast<unsigned>(day)) *
                     86400 +
                 hour * 3600 + minute * 60 + second;
  return true;
}

// A server time as this machine's local time to the minute, rounded up (so the time shown is
// never before the one meant), e.g. "2026-06-08 17:30"; the text as it came when it is not one.
std::string local_time_text(const std::string& iso) {
  long long at = 0;
  if (!parse_iso_utc(iso, at)) return iso;
  const std::time_t minute = static_cast<std::time_t>((at + 59) / 60 * 60);
  std::tm local{};
#ifdef _WIN32
  if (localtime_s(&local, &minute) != 0) return iso;
#else
  if (localtime_r(&minute, &local) == nullptr) return iso;
#endif
  char text[32] = {0};
  return std::strftime(text, sizeof text, "%Y-%m-%d %H:%M", &local) > 0 ? text : iso;
}

// ---------------------------------------------------------------------------------------
// Offline licence check: the program's only trust boundary when the server cannot be reached.
// A licence is "LK1.<payload>.<signature>" (docs/client-api.md, "Offline licences"): the
// Ed25519 signature, by the application's key, over "latchkey-license-v1." and the payload
// segment as it stands. The domain prefix means no signed API answer can pass as a licence.
// ---------------------------------------------------------------------------------------

enum class OfflineVerdict { Accepted, NotSigned, OtherMachine, Expired, ClockMovedBack };

struct OfflineLicense {
  OfflineVerdict verdict = OfflineVerdict::NotSigned;
  long long application_id = 0;
  std::string user_id;
  std::string username;
  std::string valid_until;  // ISO 8601, as signed
  Licensing licensing;
};

static bool decode_base64url(const std::string& text, std::string& bytes) {
  std::vector<unsigned char> buffer(text.size() * 3 / 4 + 3);
  size_t length = 0;
  const char* end = nullptr;
  if (sodium_base642bin(buffer.data(), buffer.size(), text.data(), text.size(), nullptr, &length,
                        &end, sodium_base64_VARIANT_URLSAFE_NO_PADDING) != 0 ||
      end != text.data() + text.size())
    return false;
  bytes.assign(reinterpret_cast<const char*>(buffer.data()), length);
  return true;
}

// Checks a stored licence without the network. The pinned public key stands for this
// application, and application_id (when given: the one the licence checked out online named,
// in an answer signed for that request) must be the licence's. It must be bound to this machine's HWID (an unbound one could be copied
// to any machine), and hold now. The clock is the one thing the user controls offline, so a
// clock earlier than the last time this program ran (or than the licence's issue) beyond
// CLOCK_TOLERANCE_SECONDS is refused: setting the date back must not stretch a licence.
OfflineLicense check_offline_license(const std::string& license, const std::string& public_key_hex,
                                     const std::string& hwid, std::time_t now,
                                     long long last_seen,
                                     std::optional<long long> application_id = std::nullopt) {
  OfflineLicense result;
  const size_t first_dot = license.find('.');
  const size_t second_dot =
      first_dot == std::string::npos ? std::string::npos : license.find('.', first_dot + 1);
  if (second_dot == std::string::npos || license.find('.', second_dot + 1) != std::string::npos)
    return result;
  if (license.substr(0, first_dot) != "LK1") return result;
  const std::string payload_segment = license.substr(first_dot + 1, second_dot - first_dot - 1);
  std::string signature;
  std::string payload;
  unsigned char public_key[crypto_sign_PUBLICKEYBYTES];
  if (sodium_init() < 0 || !decode_hex(public_key_hex, public_key, sizeof public_key) ||
      !decode_base64url(license.substr(second_dot + 1), signature) ||
      signature.size() != crypto_sign_BYTES || !decode_base64url(payload_segment, payload))
    return result;
  const std::string message = "latchkey-license-v1." + payload_segment;
  if (crypto_sign_verify_detached(reinterpret_cast<const unsigned char*>(signature.data()),
                                  reinterpret_cast<const unsigned char*>(message.data()),
                                  message.size(), public_key) != 0)
    return result;

  const json content = json::parse(payload, nullptr, false);
  if (!content.is_object() || !content.contains("application_id") ||
      !content["application_id"].is_number_integer())
    return result;
  result.application_id = content["application_id"].get<long long>();
  if (application_id && result.application_id != *application_id) return result;
  long long valid_until = 0;
  long long issued_at = 0;
  result.valid_until = text_field(content, "valid_until");
  if (!parse_iso_utc(result.valid_until, valid_until) ||
      !parse_iso_utc(text_field(content, "issued_at"), issued_at))
    return result;
  result.user_id = text_field(content, "user_id");
  result.username = text_field(content, "username");
  result.licensing = licensing_of(content);

  const std::string bound_hwid = text_field(content, "hwid");
  if (bound_hwid.empty() || bound_hwid != hwid) {
    result.verdict = OfflineVerdict::OtherMachine;
  } else if (static_cast<long long>(now) > valid_until) {
    result.verdict = OfflineVerdict::Expired;
  } else if (static_cast<long long>(now) + CLOCK_TOLERANCE_SECONDS <
             std::max(last_seen, issued_at)) {
    result.verdict = OfflineVerdict::ClockMovedBack;
  } else {
    result.verdict = OfflineVerdict::Accepted;
  }
  return result;
}

// What the user is told when a licence is refused (title "Offline Licence Refused").
std::string offline_refusal_text(const OfflineLicense& checked) {
  switch (checked.verdict) {
    case OfflineVerdict::OtherMachine: return "This offline licence belongs to another machine.";
    case OfflineVerdict::Expired:
      return "This offline licence expired on " + local_time_text(checked.valid_until) + ".";
    case OfflineVerdict::ClockMovedBack: return "The system clock moved backwards since the last run.";
    case OfflineVerdict::NotSigned:
    case OfflineVerdict::Accepted: break;
  }
  return "This offline licence is not signed by this application.";
}

// ---------------------------------------------------------------------------------------
// Hardware ID: SHA-256 of the machine's identifier (Linux /etc/machine-id, Windows
// MachineGuid), falling back to the machine and user names.
// ---------------------------------------------------------------------------------------

static std::string machine_identifier() {
#ifdef _WIN32
  HKEY key;
  if (RegOpenKeyExA(HKEY_LOCAL_MACHINE, "SOFTWARE\\Microsoft\\Cryptography", 0,
                    KEY_READ | KEY_WOW64_64KEY, &key) == ERROR_SUCCESS) {
    char value[256] = {0};
    DWORD size = sizeof value - 1;
    DWORD type = 0;
    const LONG status = RegQueryValueExA(key, "MachineGuid", nullptr, &type,
                                         reinterpret_cast<LPBYTE>(value), &size);
    RegCloseKey(key);
    if (status == ERROR_SUCCESS && type == REG_SZ && value[0] != '\0') return value;
  }
  const char* machine = std::getenv("COMPUTERNAME");
  const char* user = std::getenv("USERNAME");
#else
  for (const char* path : {"/etc/machine-id", "/var/lib/dbus/machine-id"}) {
    std::ifstream file(path);
    std::string id;
    if (file && std::getline(file, id) && !trim(id).empty()) return trim(id);
  }
  char host[256] = {0};
  const char* machine = gethostname(host, sizeof host - 1) == 0 ? host : nullptr;
  const char* user = std::getenv("USER");
#endif
  return std::string("fallback:") + (machine ? machine : "unknown-machine") + ":" +
         (user ? user : "unknown-user");
}

std::string hardware_id() {
  const std::string id = machine_identifier();
  unsigned char hash[crypto_hash_sha256_BYTES];
  crypto_hash_sha256(hash, reinterpret_cast<const unsigned char*>(id.data()), id.size());
  return to_hex(hash, sizeof hash);
}

// The name this machine shows in the owner's device list (device_name): the host name in
// UTF-8 without control characters, trimmed, and cut to MAX_DEVICE_NAME_LENGTH characters
// (never inside one), so that no machine name can make the server refuse a login. A name that
// is not valid UTF-8 keeps its printable ASCII only. Empty: none is sent.
std::string device_name_of(const std::string& host) {
  std::string printable;
  for (const char c : host) {
    const unsigned char byte = static_cast<unsigned char>(c);
    if (byte >= 0x20 && byte != 0x7f) printable += c;
  }
  try {
    (void)json(printable).dump();  // throws when the bytes are not valid UTF-8
  } catch (const json::exception&) {
    std::string ascii;
    for (const char c : printable)
      if (static_cast<unsigned char>(c) < 0x80) ascii += c;
    printable = ascii;
  }
  printable = trim(printable);
  // Whole characters only; one of four bytes counts twice (two UTF-16 units: the server's
  // measure).
  const size_t limit = static_cast<size_t>(MAX_DEVICE_NAME_LENGTH);
  size_t units = 0;
  for (size_t i = 0; i < printable.size(); ++i) {
    const unsigned char byte = static_cast<unsigned char>(printable[i]);
    if ((byte & 0xC0) == 0x80) continue;  // inside a character
    const size_t width = byte >= 0xF0 ? 2 : 1;
    if (units + width > limit) return trim(printable.substr(0, i));
    units += width;
  }
  return printable;
}

std::string device_name() {
  std::string host;
#ifdef _WIN32
  // The DNS host name (as gethostname answers elsewhere), not the 15-character NetBIOS name.
  wchar_t wide[256] = {0};
  DWORD wide_length = 256;
  if (GetComputerNameExW(ComputerNamePhysicalDnsHostname, wide, &wide_length) &&
      wide_length > 0) {
    const int size = WideCharToMultiByte(CP_UTF8, 0, wide, static_cast<int>(wide_length),
                                         nullptr, 0, nullptr, nullptr);
    if (size > 0) {
      host.resize(static_cast<size_t>(size));
      WideCharToMultiByte(CP_UTF8, 0, wide, static_cast<int>(wide_length), &host[0], size,
                          nullptr, nullptr);
    }
  }
#else
  char buffer[256] = {0};
  if (gethostname(buffer, sizeof buffer - 1) == 0) host = buffer;
#endif
  return device_name_of(host);
}

// ---------------------------------------------------------------------------------------
// Console output: one mutex, so the monitoring thread never interleaves half lines.
// ---------------------------------------------------------------------------------------

class Console {
 public:
  void say(const std::string& text) {
    std::lock_guard<std::mutex> lock(mutex_);
    std::cout << text << std::endl;
  }
  // One line per event for whoever watches the program (never a password, see token_preview).
  void log(const std::string& event) { say("[latchkey] " + event); }
  void prompt(const std::string& text) {
    std::lock_guard<std::mutex> lock(mutex_);
    std::cout << text << std::flush;
  }

 private:
  std::mutex mutex_;
};

// ---------------------------------------------------------------------------------------
// The client API: every request JSON with the API key and a fresh nonce, every answer
// verified, then parsed.
// ---------------------------------------------------------------------------------------

enum class CallStatus { Answered, NetworkError, NotVerified, Unreadable };

struct ApiResult {
  CallStatus status = CallStatus::NetworkError;
  long http_status = 0;
  json body;
  std::string detail;       // network error text
  std::string retry_after;  // seconds, from a 429

  bool is_answered() const { return status == CallStatus::Answered; }
  // No HTTP answer at all (connection refused, DNS, timeout): the case for the offline licence.
  bool is_unreachable() const { return status == CallStatus::NetworkError && http_status == 0; }
  bool is_success() const {
    return is_answered() && body.contains("success") && body["success"].is_boolean() &&
           body["success"].get<bool>();
  }
  std::string code() const { return text_field(body, "code"); }
  std::string message() const { return text_field(body, "message"); }
  // What a user is told when the call produced no trustworthy answer.
  std::string failure_text() const {
    switch (status) {
      case CallStatus::NetworkError: return "Connection error: " + detail;
      case CallStatus::NotVerified: return std::string("Security Warning: ") + NOT_VERIFIED_TEXT;
      case CallStatus::Unreadable: return "Failed to parse response";
      case CallStatus::Answered: break;
    }
    return "";
  }
};

struct HttpExchange {
  std::string body;
  std::map<std::string, std::string> headers;  // names in lower case
  const std::atomic<bool>* cancel = nullptr;
};

static const size_t MAX_BODY_BYTES = 1024 * 1024;

static size_t on_body(char* data, size_t size, size_t count, void* user) {
  auto* exchange = static_cast<HttpExchange*>(user);
  if (exchange->body.size() + size * count > MAX_BODY_BYTES) return 0;
  exchange->body.append(data, size * count);
  return size * count;
}

static size_t on_header(char* data, size_t size, size_t count, void* user) {
  auto* exchange = static_cast<HttpExchange*>(user);
  const std::string line(data, size * count);
  if (line.rfind("HTTP/", 0) == 0) {
    exchange->headers.clear();  // a new status line (after a 100 Continue): start again
  } else {
    const size_t colon = line.find(':');
    if (colon != std::string::npos)
      exchange->headers[lower(trim(line.substr(0, colon)))] = trim(line.substr(colon + 1));
  }
  return size * count;
}

static int on_progress(void* user, curl_off_t, curl_off_t, curl_off_t, curl_off_t) {
  auto* exchange = static_cast<HttpExchange*>(user);
  return exchange->cancel != nullptr && exchange->cancel->load() ? 1 : 0;
}

class LatchkeyClient {
 public:
  LatchkeyClient() : hwid_(hardware_id()), device_name_(device_name()) {}

  const std::string& hwid() const { return hwid_; }

  ApiResult login(const std::string& username, const std::string& password) {
    json payload = {{"username", username},
                    {"password", password},
                    {"api_key", API_KEY},
                    {"version", APP_VERSION},
                    {"hwid", hwid_}};
    if (!device_name_.empty()) payload["device_name"] = device_name_;
    return post("/api/v1/login", payload);
  }
  // A new account; a licence key, when given, is redeemed in the same step. No session.
  ApiResult register_user(const std::string& username, const std::string& password,
                          const std::string& email, const std::string& license_key) {
    json payload = {{"username", username}, {"password", password}, {"hwid", hwid_}};
    if (!email.empty()) payload["email"] = email;
    if (!license_key.empty()) payload["license_key"] = license_key;
    return post("/api/v1/register", payload);
  }
  // A licence key alone logs in: the answer is a login's (user_id, session_token, ...).
  ApiResult login_with_license(const std::string& license_key) {
    json payload = {{"license_key", license_key}, {"hwid", hwid_}, {"version", APP_VERSION}};
    if (!device_name_.empty()) payload["device_name"] = device_name_;
    return post("/api/v1/license/login", payload);
  }
  // Adds a key to an account; the password proves the holder.
  ApiResult redeem_license(const std::string& username, const std::string& password,
                           const std::string& license_key) {
    return post("/api/v1/license/redeem",
                {{"username", username}, {"password", password}, {"license_key", license_key}});
  }
  // Releases this machine (its hwid, as logins send it) from the account so the user can log
  // in from another; the password proves the holder. The server ends this machine's sessions
  // at once. next_reset_at: when the user may release a device again (null: no cooldown).
  ApiResult release_device(const std::string& username, const std::string& password) {
    return post("/api/v1/devices/reset",
                {{"username", username}, {"password", password}, {"hwid", hwid_}});
  }
  // Has a link to choose a new password mailed to the account, named by its e-mail address
  // when the text holds an '@' (every address has one, few usernames do), else by its
  // username. The answer is the same whether or not such an account exists, so it tells no one
  // who has an account here.
  ApiResult forgot_password(const std::string& username_or_email) {
    const std::string name = trim(username_or_email);
    const bool is_email = name.find('@') != std::string::npos;
    return post("/api/v1/password/forgot", {{is_email ? "email" : "username", name}});
  }
  // Has a new link to confirm the account's e-mail address mailed to it, where the application
  // lets only confirmed addresses log in (login answers EMAIL_NOT_VERIFIED until the link is
  // followed); the password proves the holder. The answer is the same whether or not the
  // account exists or its address is confirmed already.
  ApiResult resend_verification(const std::string& username, const std::string& password) {
    return post("/api/v1/email/verify/resend", {{"username", username}, {"password", password}});
  }
  // Good standing now, and every entitlement in REQUIRED_ENTITLEMENTS held.
  ApiResult verify(const std::string& user_id, const std::atomic<bool>* cancel = nullptr) {
    json payload = {{"user_id", user_id}};
    const std::vector<std::string> required = split_codes(REQUIRED_ENTITLEMENTS);
    if (!required.empty()) payload["entitlements"] = required;
    return post("/api/v1/verify", payload, cancel);
  }
  ApiResult start_session(const std::string& user_id, const std::string& token) {
    return post("/api/v1/session/track", {{"action", "start"},
                                          {"user_id", user_id},
                                          {"session_token", token},
                                          {"hwid", hwid_}});
  }
  ApiResult heartbeat(const std::string& token, const std::atomic<bool>* cancel) {
    return post("/api/v1/session/track", {{"action", "heartbeat"}, {"session_token", token}},
                cancel);
  }
  ApiResult end_session(const std::string& token) {
    return post("/api/v1/session/track", {{"action", "end"}, {"session_token", token}});
  }
  // An offline licence for this machine, for a live session (answers license, valid_until).
  ApiResult check_out_license(const std::string& token) {
    return post("/api/v1/license/checkout",
                {{"session_token", token}, {"ttl_seconds", OFFLINE_LICENSE_TTL_SECONDS}});
  }
  // An application variable the vendor sets in the console (answers value); the session is
  // needed for the variables the vendor made require one.
  ApiResult get_variable(const std::string& name, const std::string& token) {
    return post("/api/v1/var", {{"name", name}, {"session_token", token}});
  }
  // One of the session's own user's variables (answers value and read_only).
  ApiResult get_user_variable(const std::string& token, const std::string& name) {
    return post("/api/v1/user-var", {{"session_token", token}, {"name", name}});
  }
  ApiResult set_user_variable(const std::string& token, const std::string& name,
                              const std::string& value) {
    return post("/api/v1/user-var/set",
                {{"session_token", token}, {"name", name}, {"value", value}});
  }
  // A short-lived download URL of one of the application's files, with its size and SHA-256
  // in the signed answer. A release needs no session (its user cannot log in to start one).
  ApiResult get_file(const std::string& file_id, const std::string& token) {
    json payload = {{"file_id", file_id}};
    if (!token.empty()) payload["session_token"] = token;
    return post("/api/v1/file", payload);
  }

 private:
  ApiResult post(const std::string& path, const json& payload,
                 const std::atomic<bool>* cancel = nullptr) {
    ApiResult result;
    CURL* curl = curl_easy_init();
    if (curl == nullptr) {
      result.detail = "could not start libcurl";
      return result;
    }
    std::string base = BASE_URL;
    while (!base.empty() && base.back() == '/') base.pop_back();
    const std::string url = base + path;
    const std::string request_body = payload.dump();
    const std::string nonce = random_hex(16);
    HttpExchange exchange;
    exchange.cancel = cancel;
    char error_text[CURL_ERROR_SIZE] = {0};

    curl_slist* headers = nullptr;
    headers = curl_slist_append(headers, "Content-Type: application/json");
    headers = curl_slist_append(headers, "Accept: application/json");
    headers = curl_slist_append(headers, ("X-API-Key: " + std::string(API_KEY)).c_str());
    headers = curl_slist_append(headers, ("X-Request-Nonce: " + nonce).c_str());
    headers = curl_slist_append(headers, "Expect:");

    curl_easy_setopt(curl, CURLOPT_URL, url.c_str());
    curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
    curl_easy_setopt(curl, CURLOPT_POSTFIELDS, request_body.c_str());
    curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE, static_cast<long>(request_body.size()));
    curl_easy_setopt(curl, CURLOPT_TIMEOUT, HTTP_TIMEOUT_SECONDS);
    curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);  // curl is used from two threads
    curl_easy_setopt(curl, CURLOPT_USERAGENT, "latchkey-cpp-sample/1.0");
    curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, error_text);
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, on_body);
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, &exchange);
    curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, on_header);
    curl_easy_setopt(curl, CURLOPT_HEADERDATA, &exchange);
    curl_easy_setopt(curl, CURLOPT_XFERINFOFUNCTION, on_progress);
    curl_easy_setopt(curl, CURLOPT_XFERINFODATA, &exchange);
    curl_easy_setopt(curl, CURLOPT_NOPROGRESS, 0L);

    const CURLcode outcome = curl_easy_perform(curl);
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &result.http_status);
    curl_slist_free_all(headers);
    curl_easy_cleanup(curl);

    if (outcome != CURLE_OK) {
      result.detail = error_text[0] != '\0' ? error_text : curl_easy_strerror(outcome);
      return result;
    }
    // Any status, success or refusal: nothing of the body is read before this check.
    if (!is_genuine_response(SIGNING_PUBLIC_KEY, exchange.headers["x-signature-timestamp"], nonce,
                             exchange.body, exchange.headers["x-signature-ed25519"],
                             std::time(nullptr))) {
      result.status = CallStatus::NotVerified;
      return result;
    }
    result.body = json::parse(exchange.body, nullptr, false);
    if (result.body.is_discarded() || !result.body.is_object()) {
      result.body = json();
      result.status = CallStatus::Unreadable;
      return result;
    }
    if (result.http_status >= 500) {  // a server fault is not an answer: like a network error
      result.detail = "server error (HTTP " + std::to_string(result.http_status) + ")";
      result.status = CallStatus::NetworkError;
      return result;
    }
    result.retry_after = exchange.headers["retry-after"];
    result.status = CallStatus::Answered;
    return result;
  }

  std::string hwid_;
  std::string device_name_;
};

// ---------------------------------------------------------------------------------------
// Update download: the bytes are not signed, their SHA-256 is (in the answers of login and
// file), so they are hashed while they are written and kept only when the hash matches.
// ---------------------------------------------------------------------------------------

// Where this program lives: an update is saved beside it.
static std::filesystem::path program_directory() {
  std::error_code error;
#ifdef _WIN32
  wchar_t path[MAX_PATH] = {0};
  if (GetModuleFileNameW(nullptr, path, MAX_PATH) > 0)
    return std::filesystem::path(path).parent_path();
#else
  const std::filesystem::path path = std::filesystem::read_symlink("/proc/self/exe", error);
  if (!error) return path.parent_path();
#endif
  return std::filesystem::current_path(error);
}

struct DownloadTarget {
  std::ofstream file;
  crypto_hash_sha256_state hash;
  unsigned long long size = 0;
  unsigned long long expected_size = 0;
};

static size_t on_download(char* data, size_t size, size_t count, void* user) {
  auto* target = static_cast<DownloadTarget*>(user);
  const size_t length = size * count;
  target->size += length;
  if (target->size > target->expected_size) return 0;  // longer than signed: stop here
  target->file.write(data, static_cast<std::streamsize>(length));
  crypto_hash_sha256_update(&target->hash, reinterpret_cast<const unsigned char*>(data), length);
  return target->file ? length : 0;
}

enum class DownloadOutcome { Saved, Mismatch, Failed };

// GETs url into a temporary file beside destination, then renames it to destination only if
// its bytes are expected_size long with the SHA-256 expected_sha256; otherwise deletes it.
static DownloadOutcome download_verified(const std::string& url, unsigned long long expected_size,
                                         const std::string& expected_sha256,
                                         const std::filesystem::path& destination,
                                         std::string& detail) {
  const std::filesystem::path temporary = destination.string() + ".part";
  DownloadTarget target;
  target.expected_size = expected_size;
  target.file.open(temporary, std::ios::binary | std::ios::trunc);
  if (!target.file) {
    detail = "cannot write " + temporary.string();
    return DownloadOutcome::Failed;
  }
  crypto_hash_sha256_init(&target.hash);
  CURL* curl = curl_easy_init();
  long http_status = 0;
  CURLcode outcome = CURLE_FAILED_INIT;
  if (curl != nullptr) {
    curl_easy_setopt(curl, CURLOPT_URL, url.c_str());
    curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT, HTTP_TIMEOUT_SECONDS);
    // No limit on the whole transfer (a large file on a slow line takes long), but a transfer
    // that stalls for HTTP_TIMEOUT_SECONDS is given up.
    curl_easy_setopt(curl, CURLOPT_LOW_SPEED_LIMIT, 1L);
    curl_easy_setopt(curl, CURLOPT_LOW_SPEED_TIME, HTTP_TIMEOUT_SECONDS);
    curl_easy_setopt(curl, CURLOPT_USERAGENT, "latchkey-cpp-sample/1.0");
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, on_download);
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, &target);
    outcome = curl_easy_perform(curl);
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &http_status);
    curl_easy_cleanup(curl);
  }
  target.file.close();
  unsigned char hash[crypto_hash_sha256_BYTES];
  crypto_hash_sha256_final(&target.hash, hash);
  std::error_code error;
  const bool is_complete = outcome == CURLE_OK && http_status == 200;
  if (!is_complete && target.size <= expected_size) {
    std::filesystem::remove(temporary, error);
    detail = outcome != CURLE_OK ? curl_easy_strerror(outcome)
                                 : "the server answered HTTP " + std::to_string(http_status);
    return DownloadOutcome::Failed;
  }
  if (target.size != expected_size || to_hex(hash, sizeof hash) != expected_sha256) {
    std::filesystem::remove(temporary, error);
    return DownloadOutcome::Mismatch;
  }
  std::filesystem::rename(temporary, destination, error);
  if (error) {
    std::filesystem::remove(temporary, error);
    detail = "cannot save " + destination.string();
    return DownloadOutcome::Failed;
  }
  return DownloadOutcome::Saved;
}

// A version as part of a file name: letters, digits, '.', '-' and '_' only.
static std::string file_name_part(const std::string& text) {
  std::string safe;
  for (const char c : text)
    safe += std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-' || c == '_' ? c : '_';
  return safe;
}

// ---------------------------------------------------------------------------------------
// Persistence: the user_id of the last login, in ~/.latchkey/<first 12 chars of key>.json
// ---------------------------------------------------------------------------------------

struct SavedSession {
  std::string user_id;
  std::string username;
};

// ~/.latchkey/<first 12 characters of the API key><suffix>
static std::filesystem::path state_path(const std::string& suffix) {
#ifdef _WIN32
  const char* home = std::getenv("USERPROFILE");
#else
  const char* home = std::getenv("HOME");
#endif
  std::string name = std::string(API_KEY).substr(0, 12);
  for (char& c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '-') c = '_';
  return std::filesystem::path(home ? home : ".") / ".latchkey" / (name + suffix);
}

static std::filesystem::path saved_session_path() { return state_path(".json"); }

// Writes a small file readable by its owner only.
static void write_private_file(const std::filesystem::path& path, const std::string& text) {
  std::error_code error;
  std::filesystem::create_directories(path.parent_path(), error);
  std::ofstream file(path, std::ios::trunc);
  file << text << "\n";
  file.close();
  std::filesystem::permissions(
      path, std::filesystem::perms::owner_read | std::filesystem::perms::owner_write,
      std::filesystem::perm_options::replace, error);
}

static std::optional<SavedSession> load_saved_session() {
  std::ifstream file(saved_session_path());
  if (!file) return std::nullopt;
  const json saved = json::parse(file, nullptr, false);
  const std::string user_id = text_field(saved, "user_id");
  if (user_id.empty()) return std::nullopt;
  return SavedSession{user_id, text_field(saved, "username")};
}

static void save_session(const SavedSession& session) {
  write_private_file(saved_session_path(),
                     json{{"user_id", session.user_id}, {"username", session.username}}.dump());
}

// ---------------------------------------------------------------------------------------
// The offline licence of the last login and the last time this program saw the clock, in
// ~/.latchkey/<first 12 chars of key>.offline.json:
// {"license": "LK1....", "last_seen": <unix s>, "application_id": <the licence's>}
// ---------------------------------------------------------------------------------------

struct OfflineState {
  std::string license;
  long long last_seen = 0;
  long long application_id = 0;
};

static std::mutex offline_state_mutex;  // the monitoring thread writes it too

static std::optional<OfflineState> read_offline_state() {
  std::ifstream file(state_path(".offline.json"));
  if (!file) return std::nullopt;
  const json saved = json::parse(file, nullptr, false);
  OfflineState state;
  state.license = text_field(saved, "license");
  if (state.license.empty()) return std::nullopt;
  if (saved.contains("last_seen") && saved["last_seen"].is_number_integer())
    state.last_seen = saved["last_seen"].get<long long>();
  if (saved.contains("application_id") && saved["application_id"].is_number_integer())
    state.application_id = saved["application_id"].get<long long>();
  return state;
}

static void write_offline_state(const OfflineState& state) {
  write_private_file(state_path(".offline.json"), json{{"license", state.license},
                                                      {"last_seen", state.last_seen},
                                                      {"application_id", state.application_id}}
                                                     .dump());
}

static std::optional<OfflineState> load_offline_state() {
  std::lock_guard<std::mutex> lock(offline_state_mutex);
  return read_offline_state();
}

// A fresh licence; last_seen never goes down (it is what the clock check compares with).
static void save_offline_license(const std::string& license, long long application_id) {
  std::lock_guard<std::mutex> lock(offline_state_mutex);
  const std::optional<OfflineState> previous = read_offline_state();
  const long long now = static_cast<long long>(std::time(nullptr));
  write_offline_state(
      {license, std::max(now, previous ? previous->last_seen : 0), application_id});
}

// Records that the program ran now (each start and heartbeat), never lowering last_seen.
static void touch_offline_last_seen() {
  std::lock_guard<std::mutex> lock(offline_state_mutex);
  const std::optional<OfflineState> state = read_offline_state();
  if (!state) return;
  const long long now = static_cast<long long>(std::time(nullptr));
  if (now > state->last_seen) write_offline_state({state->license, now, state->application_id});
}

// Forgetting the saved session forgets its licence too: it was that user's.
static void clear_saved_session() {
  std::error_code error;
  std::filesystem::remove(saved_session_path(), error);
  std::lock_guard<std::mutex> lock(offline_state_mutex);
  std::filesystem::remove(state_path(".offline.json"), error);
}

// ---------------------------------------------------------------------------------------
// Session monitoring: a heartbeat every HEARTBEAT_INTERVAL_SECONDS and a verify every
// VERIFY_INTERVAL_SECONDS on a background thread; MAX_VERIFY_FAILURES in a row force a
// logout. Network errors are only logged.
// ---------------------------------------------------------------------------------------

class SessionMonitor {
 public:
  SessionMonitor(LatchkeyClient& client, Console& console) : client_(client), console_(console) {}
  ~SessionMonitor() { stop(); }

  void start(const std::string& user_id, const std::string& token,
             std::function<void()> on_forced_logout) {
    stop();
    stop_requested_ = false;
    cancel_ = false;
    failures_ = 0;
    worker_ = std::thread([this, user_id, token, on_forced_logout] {
      run(user_id, token, on_forced_logout);
    });
  }

  // Stops the timers and waits for the thread (an HTTP call in flight is aborted).
  void stop() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stop_requested_ = true;
    }
    cancel_ = true;
    wake_.notify_all();
    if (worker_.joinable() && worker_.get_id() != std::this_thread::get_id()) worker_.join();
  }

  int verify_failures() const { return failures_; }

 private:
  using Clock = std::chrono::steady_clock;

  void run(const std::string& user_id, const std::string& token,
           const std::function<void()>& on_forced_logout) {
    auto next_heartbeat = Clock::now() + std::chrono::seconds(HEARTBEAT_INTERVAL_SECONDS);
    auto next_verify = Clock::now() + std::chrono::seconds(VERIFY_INTERVAL_SECONDS);
    while (true) {
      {
        std::unique_lock<std::mutex> lock(mutex_);
        if (wake_.wait_until(lock, std::min(next_heartbeat, next_verify),
                             [this] { return stop_requested_; }))
          return;
      }
      const auto now = Clock::now();
      if (now >= next_heartbeat) {
        next_heartbeat = now + std::chrono::seconds(HEARTBEAT_INTERVAL_SECONDS);
        send_heartbeat(token);
      }
      if (now >= next_verify) {
        next_verify = now + std::chrono::seconds(VERIFY_INTERVAL_SECONDS);
        if (!check_still_verified(user_id)) {
          if (cancel_) return;  // stopping: not a forced logout
          console_.log("forced logout");
          const ApiResult ended = client_.end_session(token);
          console_.log(ended.is_success() ? "session ended"
                                          : "Session end error: " + describe(ended));
          on_forced_logout();
          return;
        }
      }
    }
  }

  void send_heartbeat(const std::string& token) {
    touch_offline_last_seen();
    const ApiResult result = client_.heartbeat(token, &cancel_);
    if (result.is_success())
      console_.log("heartbeat ok");
    else if (!cancel_)
      console_.log("Heartbeat error: " + describe(result));
  }

  // False when MAX_VERIFY_FAILURES consecutive verifies failed. An answer that is not
  // genuine counts as a failure (it is never a success); a network error does not count.
  bool check_still_verified(const std::string& user_id) {
    const ApiResult result = client_.verify(user_id, &cancel_);
    if (cancel_) return true;
    if (result.is_success()) {
      failures_ = 0;
      console_.log("verify ok");
      return true;
    }
    if (result.status == CallStatus::NetworkError) {
      console_.log("Verification error: " + describe(result));
      return true;
    }
    failures_ += 1;
    console_.log("verify failed (" + std::to_string(failures_.load()) + "/" +
                 std::to_string(MAX_VERIFY_FAILURES) + "): " + describe(result));
    return failures_ < MAX_VERIFY_FAILURES;
  }

  static std::string describe(const ApiResult& result) {
    if (!result.is_answered()) return result.failure_text();
    return result.code() + " " + result.message();
  }

  LatchkeyClient& client_;
  Console& console_;
  std::thread worker_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stop_requested_ = false;
  std::atomic<bool> cancel_{false};
  std::atomic<int> failures_{0};
};

// ---------------------------------------------------------------------------------------
// The console program: login screen (Username/Password prompts, or /register, /key, /forgot
// and /resend),
// then the main screen (a "> " command prompt). The monitoring thread may return it to the
// login screen.
// ---------------------------------------------------------------------------------------

class ConsoleApp {
 public:
  ConsoleApp() : monitor_(client_, console_) {}

  int run() {
    console_.say("Latchkey client sample (C++), version " + std::string(APP_VERSION));
    touch_offline_last_seen();
    if (std::string(SIGNING_PUBLIC_KEY).rfind("YOUR_", 0) == 0)
      console_.say("This sample is not configured: copy it from the Latchkey console.");
    resume_saved_session();
    if (current_screen() == Screen::Username)
      console_.say(
          "Log in below. At the Username prompt, type /register to create an account, /key to "
          "log in with a licence key, /forgot if you forgot your password, or /resend for a new "
          "link to confirm your e-mail address.");
    show_prompt();

    std::string line;
    while (true) {
      if (!read_line(line, is_password_screen(current_screen()))) break;  // end of input: quit
      int exit_code = 0;
      if (handle_line(line, exit_code)) {
        monitor_.stop();
        return exit_code;
      }
    }
    leave();
    return 0;
  }

 private:
  enum class Screen {
    Username,
    Password,
    LicenseKey,
    ForgotPassword,
    ResendUsername,
    ResendPassword,
    RegisterUsername,
    RegisterPassword,
    RegisterEmail,
    RegisterKey,
    Main,
    RedeemKey,
    RedeemPassword,
    ReleaseUsername,
    ReleasePassword,
    NoteValue,
    UpdateConfirm,
  };

  struct Session {
    std::string user_id;
    std::string username;
    std::string token;
    Licensing licensing;
  };

  // What a VERSION_MISMATCH answer offered: the current release, its size and SHA-256.
  struct Update {
    std::string version;
    std::string file_id;
    unsigned long long size = 0;
    std::string sha256;
  };

  // What the prompts of a registration, a redemption or a release collected so far.
  struct Pending {
    std::string username;
    std::string password;
    std::string email;
    std::string license_key;
  };

  static bool is_password_screen(Screen screen) {
    return screen == Screen::Password || screen == Screen::RegisterPassword ||
           screen == Screen::RedeemPassword || screen == Screen::ReleasePassword ||
           screen == Screen::ResendPassword;
  }

  Screen current_screen() {
    std::lock_guard<std::mutex> lock(mutex_);
    return screen_;
  }

  void go_to(Screen screen) {
    std::lock_guard<std::mutex> lock(mutex_);
    screen_ = screen;
  }

  void show_prompt() {
    switch (current_screen()) {
      case Screen::Username:
      case Screen::ResendUsername:
      case Screen::ReleaseUsername: console_.prompt("Username: "); break;
      case Screen::Password:
      case Screen::ResendPassword:
      case Screen::RegisterPassword:
      case Screen::RedeemPassword:
      case Screen::ReleasePassword: console_.prompt("Password: "); break;
      case Screen::NoteValue: console_.prompt("New note: "); break;
      case Screen::UpdateConfirm:
        console_.prompt("Version " + update_.version + " is available. Download it? (y/n) ");
        break;
      case Screen::LicenseKey:
      case Screen::RedeemKey: console_.prompt("Licence key: "); break;
      case Screen::RegisterUsername: console_.prompt("New username: "); break;
      case Screen::RegisterEmail: console_.prompt("E-mail (optional): "); break;
      case Screen::RegisterKey: console_.prompt("Licence key (optional): "); break;
      case Screen::ForgotPassword: console_.prompt("Username or e-mail: "); break;
      case Screen::Main: console_.prompt("> "); break;
    }
  }

  // Returns true when the program should end, with exit_code set.
  bool handle_line(std::string line, int& exit_code) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    switch (current_screen()) {
      case Screen::Username:
        if (trim(line) == "/register") {
          go_to(Screen::RegisterUsername);
        } else if (trim(line) == "/key") {
          go_to(Screen::LicenseKey);
        } else if (trim(line) == "/forgot") {
          go_to(Screen::ForgotPassword);
        } else if (trim(line) == "/resend") {
          go_to(Screen::ResendUsername);
        } else {
          pending_ = Pending{};
          pending_.username = trim(line);
          go_to(Screen::Password);
        }
        break;
      case Screen::Password: {
        const std::string username = pending_.username;
        pending_ = Pending{};
        go_to(Screen::Username);
        if (username.empty() || line.empty()) {
          console_.say("Please provide both username and password");
          break;
        }
        if (!log_in(username, line, exit_code)) return true;
        break;
      }
      case Screen::LicenseKey:
        go_to(Screen::Username);
        if (trim(line).empty()) {
          console_.say("Please provide a licence key");
          break;
        }
        console_.say("Logging in...");
        if (!complete_login(client_.login_with_license(trim(line)), "", exit_code)) return true;
        break;
      case Screen::ForgotPassword:
        go_to(Screen::Username);
        request_password_reset(line);
        break;
      case Screen::ResendUsername:
        pending_ = Pending{};
        pending_.username = trim(line);
        go_to(Screen::ResendPassword);
        break;
      case Screen::ResendPassword: {
        const std::string username = pending_.username;
        pending_ = Pending{};
        go_to(Screen::Username);
        request_verification_mail(username, line);
        break;
      }
      case Screen::RegisterUsername:
        pending_ = Pending{};
        pending_.username = trim(line);
        go_to(Screen::RegisterPassword);
        break;
      case Screen::RegisterPassword:
        pending_.password = line;
        go_to(Screen::RegisterEmail);
        break;
      case Screen::RegisterEmail:
        pending_.email = trim(line);
        go_to(Screen::RegisterKey);
        break;
      case Screen::RegisterKey: {
        Pending registration = pending_;
        registration.license_key = trim(line);
        pending_ = Pending{};
        go_to(Screen::Username);
        if (!register_and_log_in(registration, exit_code)) return true;
        break;
      }
      case Screen::Main:
        if (run_command(trim(line))) {
          exit_code = 0;
          return true;
        }
        break;
      case Screen::RedeemKey:
        pending_ = Pending{};
        pending_.license_key = trim(line);
        go_to(Screen::RedeemPassword);
        break;
      case Screen::RedeemPassword: {
        const std::string license_key = pending_.license_key;
        pending_ = Pending{};
        redeem(license_key, line);
        break;
      }
      case Screen::ReleaseUsername:
        pending_ = Pending{};
        pending_.username = trim(line);
        go_to(Screen::ReleasePassword);
        break;
      case Screen::ReleasePassword: {
        const std::string username = pending_.username;
        pending_ = Pending{};
        release_device(username, line);
        break;
      }
      case Screen::NoteValue:
        save_note(line);
        break;
      case Screen::UpdateConfirm: {
        const std::string answer = lower(trim(line));
        if (answer == "y" || answer == "yes") download_update(update_);
        exit_code = 1;  // this version cannot be used either way
        return true;
      }
    }
    show_prompt();
    return false;
  }

  // "Title: message", the title chosen by the code; false when the program must exit.
  bool report_refusal(const ApiResult& result, const std::string& fallback_title) {
    const std::string code = result.code();
    std::string text = refusal_title(code, fallback_title) + ": " + result.message();
    if (result.body.contains("missing_entitlements") &&
        result.body["missing_entitlements"].is_array()) {
      std::vector<std::string> missing;
      for (const json& item : result.body["missing_entitlements"])
        if (item.is_string()) missing.push_back(item.get<std::string>());
      text += " (missing: " + join(missing, ", ") + ")";
    }
    if (code == "RATE_LIMITED" && !result.retry_after.empty())
      text += " (try again in " + result.retry_after + " seconds)";
    console_.say(text);
    // The user can do something about an unconfirmed address: say what.
    if (code == "EMAIL_NOT_VERIFIED")
      console_.say("Type /resend at the Username prompt to be mailed a new link.");
    return code != "VERSION_MISMATCH" && code != "BLACKLISTED";
  }

  // Returns false when the program must exit (update required, access blocked).
  bool log_in(const std::string& username, const std::string& password, int& exit_code) {
    console_.say("Logging in...");
    return complete_login(client_.login(username, password), username, exit_code);
  }

  // A login answer (password or licence key): refused, or verified and on to the main
  // screen. Returns false when the program must exit.
  bool complete_login(const ApiResult& login, const std::string& typed_username,
                      int& exit_code) {
    if (!login.is_answered()) {
      report_untrusted(login, "login");
      return true;
    }
    if (!login.is_success()) {
      console_.log("login failed (" + login.code() + ")");
      if (!report_refusal(login, "Login Failed")) {
        if (offer_update(login.body)) return true;  // the program exits after the answer
        exit_code = 1;
        return false;
      }
      return true;
    }
    console_.log("login ok");
    console_.say("Login Successful: " + login.message());

    const std::string user_id = text_field(login.body, "user_id");
    std::string username = text_field(login.body, "username");
    if (username.empty()) username = typed_username;
    std::string token = text_field(login.body, "session_token");
    if (token.empty()) token = new_session_token();

    const ApiResult verified = client_.verify(user_id);
    if (!verified.is_answered()) {
      report_untrusted(verified, "verify");
      return true;
    }
    if (!verified.is_success()) {
      console_.log("verify failed after login (" + verified.code() + ")");
      if (verified.code() == "ENTITLEMENTS_MISSING" || verified.code() == "EMAIL_NOT_VERIFIED")
        report_refusal(verified, "Security Warning");
      else
        console_.say(
            "Security Warning: Session verification failed. Please try logging in again.");
      return true;
    }
    console_.log("verify ok");
    save_session({user_id, username});
    enter_main_screen({user_id, username, token, licensing_of(verified.body)});
    return true;
  }

  // Registers, then logs in with the same username and password. False: exit.
  bool register_and_log_in(const Pending& registration, int& exit_code) {
    if (registration.username.empty() || registration.password.empty()) {
      console_.say("Please provide both username and password");
      return true;
    }
    console_.say("Registering...");
    const ApiResult registered = client_.register_user(
        registration.username, registration.password, registration.email,
        registration.license_key);
    if (!registered.is_answered()) {
      report_untrusted(registered, "register");
      return true;
    }
    if (!registered.is_success()) {
      console_.log("register failed (" + registered.code() + ")");
      if (!report_refusal(registered, "Registration Failed")) {
        exit_code = 1;
        return false;
      }
      return true;
    }
    console_.log("register ok");
    console_.say("Registration Successful: " + registered.message());
    return log_in(registration.username, registration.password, exit_code);
  }

  // Asks for a link to choose a new password; the login prompt follows whatever the answer, which
  // reads the same whether or not the account exists.
  void request_password_reset(const std::string& username_or_email) {
    if (trim(username_or_email).empty()) {
      console_.say("Please provide a username or an e-mail address");
      return;
    }
    const ApiResult requested = client_.forgot_password(username_or_email);
    if (!requested.is_answered()) {
      report_untrusted(requested, "forgot password");
      return;
    }
    if (!requested.is_success()) {
      console_.log("password reset refused (" + requested.code() + ")");
      report_refusal(requested, "Password Reset Failed");
      return;
    }
    console_.log("password reset requested");
    console_.say("Check Your E-mail: " + requested.message());
  }

  // Asks for a new link to confirm the account's address; the login prompt follows whatever the
  // answer, which reads the same whatever the account.
  void request_verification_mail(const std::string& username, const std::string& password) {
    if (username.empty() || password.empty()) {
      console_.say("Please provide both username and password");
      return;
    }
    const ApiResult requested = client_.resend_verification(username, password);
    if (!requested.is_answered()) {
      report_untrusted(requested, "resend verification");
      return;
    }
    if (!requested.is_success()) {
      console_.log("verification e-mail refused (" + requested.code() + ")");
      report_refusal(requested, "Resend Failed");
      return;
    }
    console_.log("verification e-mail requested");
    console_.say("Check Your E-mail: " + requested.message());
  }

  // Adds a licence key to the account that is logged in; its password proves the holder.
  void redeem(const std::string& license_key, const std::string& password) {
    std::string username;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      // A forced logout while the prompts were open has left the main screen already.
      if (screen_ != Screen::RedeemPassword) return;
      screen_ = Screen::Main;
      username = session_.username;
    }
    if (license_key.empty() || password.empty()) {
      console_.say("Please provide a licence key and your password");
      return;
    }
    const ApiResult redeemed = client_.redeem_license(username, password, license_key);
    if (!redeemed.is_answered()) {
      report_untrusted(redeemed, "redeem");
      return;
    }
    if (!redeemed.is_success()) {
      console_.log("redeem failed (" + redeemed.code() + ")");
      report_refusal(redeemed, "Redeem Failed");
      return;
    }
    console_.log("redeem ok");
    console_.say("Licence Key Redeemed: " + redeemed.message());
    const Licensing licensing = licensing_of(redeemed.body);
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (screen_ == Screen::Main) session_.licensing = licensing;
    }
    say_licensing(licensing, "  ");
  }

  // Releases this machine from the account so its user can log in from another one. On
  // success the server has ended this machine's session: back to the login prompt without an
  // end call (it would be refused), and the saved session is forgotten.
  void release_device(const std::string& username, const std::string& password) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      // A forced logout while the prompts were open has left the main screen already.
      if (screen_ != Screen::ReleasePassword) return;
      screen_ = Screen::Main;
    }
    if (password.empty()) {
      console_.say("Release cancelled.");
      return;
    }
    if (username.empty()) {
      console_.say("Please provide both username and password");
      return;
    }
    const ApiResult released = client_.release_device(username, password);
    if (!released.is_answered()) {
      report_untrusted(released, "release");
      return;
    }
    const std::string next_release_at = text_field(released.body, "next_reset_at");
    if (!released.is_success()) {
      console_.log("release failed (" + released.code() + ")");
      report_refusal(released, "Release Failed");
      if (released.code() == "RESET_COOLDOWN" && !next_release_at.empty())
        console_.say("You can release a device again at " + next_release_at + ".");
      return;
    }
    console_.log("release ok");
    console_.say("Device Released: " + released.message());
    if (!next_release_at.empty())
      console_.say("You can release a device again at " + next_release_at + ".");
    monitor_.stop();
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (screen_ != Screen::Main) return;  // the monitor logged out meanwhile
      session_ = Session{};
      screen_ = Screen::Username;
    }
    clear_saved_session();
    console_.log("logged out (device released)");
    console_.say(
        "This device is released and its session has ended: log in again here or on another "
        "machine.");
  }

  void say_licensing(const Licensing& licensing, const std::string& indent) {
    console_.say(indent + "Entitlements: " + list_or_none(licensing.entitlements));
    console_.say(indent + "Subscriptions: " + list_or_none(licensing.subscriptions));
  }

  // A saved user_id is verified on start; if that fails it is cleared.
  void resume_saved_session() {
    const std::optional<SavedSession> saved = load_saved_session();
    if (!saved) return;
    console_.log("saved session found");
    const ApiResult verified = client_.verify(saved->user_id);
    if (verified.is_success()) {
      console_.say("Saved session verified.");
      enter_main_screen({saved->user_id, saved->username, new_session_token(),
                         licensing_of(verified.body)});
      return;
    }
    if (verified.is_answered()) {
      console_.log("saved session refused (" + verified.code() + ")");
      clear_saved_session();
    } else if (verified.is_unreachable()) {
      console_.log("server unreachable (" + verified.detail + ")");
      start_offline();
    } else {
      report_untrusted(verified, "verify");
    }
  }

  // The server cannot be reached: the offline licence stored at the last login, checked here
  // with the pinned key alone, may let the user in until its valid_until. No session, so no
  // heartbeats: the server would not answer them.
  void start_offline() {
    const std::optional<OfflineState> stored = load_offline_state();
    if (!stored) {
      console_.log("no offline licence");
      console_.say(
          "Server Unreachable: Cannot reach the server, and there is no offline licence on this "
          "machine.");
      return;
    }
    const OfflineLicense checked =
        check_offline_license(stored->license, SIGNING_PUBLIC_KEY, client_.hwid(),
                              std::time(nullptr), stored->last_seen, stored->application_id);
    if (checked.verdict != OfflineVerdict::Accepted) {
      console_.log("offline licence refused");
      console_.say("Offline Licence Refused: " + offline_refusal_text(checked));
      return;
    }
    console_.log("offline licence accepted");
    {
      std::lock_guard<std::mutex> lock(mutex_);
      session_ = {checked.user_id, checked.username, "", checked.licensing};
      screen_ = Screen::Main;
    }
    console_.say("Working offline until " + local_time_text(checked.valid_until));
    console_.say("Welcome, " + checked.username + "! Type 'help' for commands.");
    say_licensing(checked.licensing, "");
  }

  // An offline licence for the next start without the network. Failing here must not stop
  // the user, who is online: it is logged, and the previous licence (if any) stays.
  void check_out_offline_license(const std::string& token) {
    const ApiResult checkout = client_.check_out_license(token);
    const std::string license = text_field(checkout.body, "license");
    if (!checkout.is_success() || license.empty()) {
      console_.log("offline licence checkout failed (" +
                   (checkout.is_answered() ? checkout.code() + " " + checkout.message()
                                           : checkout.failure_text()) +
                   ")");
      return;
    }
    // Checked now as a start without the network will check it: only a licence that will work
    // here is kept, and the application it names (in an answer signed for this request) is
    // the one a stored licence must name.
    const OfflineLicense checked = check_offline_license(license, SIGNING_PUBLIC_KEY,
                                                         client_.hwid(), std::time(nullptr), 0);
    if (checked.verdict != OfflineVerdict::Accepted) {
      console_.log("offline licence not kept (" + offline_refusal_text(checked) + ")");
      return;
    }
    save_offline_license(license, checked.application_id);
    console_.log("offline licence saved (valid until " + text_field(checkout.body, "valid_until") +
                 ")");
  }

  // A VERSION_MISMATCH answer may carry the current release: the user is asked whether to
  // download it. False when there is none to offer.
  bool offer_update(const json& body) {
    if (!body.contains("update") || !body["update"].is_object()) return false;
    const json& offered = body["update"];
    Update update{text_field(offered, "version"), text_field(offered, "file_id"), 0,
                  text_field(offered, "sha256")};
    if (!offered.contains("size") || !offered["size"].is_number_unsigned() ||
        update.version.empty() || update.file_id.empty() || update.sha256.size() != 64)
      return false;
    update.size = offered["size"].get<unsigned long long>();
    update_ = update;
    go_to(Screen::UpdateConfirm);
    return true;
  }

  // Downloads the offered release next to the program, checked against the signed SHA-256
  // and size: a proxy or a broken disk could change the bytes, not the signed hash.
  void download_update(const Update& update) {
    console_.say("Downloading version " + update.version + "...");
    const ApiResult file = client_.get_file(update.file_id, "");
    if (!file.is_answered()) {
      report_untrusted(file, "file");
      return;
    }
    if (!file.is_success()) {
      console_.log("download refused (" + file.code() + ")");
      report_refusal(file, "Download Failed");
      return;
    }
    const std::filesystem::path destination =
        program_directory() / ("update-" + file_name_part(update.version) + ".bin");
    std::string detail;
    // The file's answer must describe the same bytes as the login's: both are signed.
    const bool is_same_release = text_field(file.body, "sha256") == update.sha256 &&
                                 file.body.contains("size") && file.body["size"] == update.size;
    const DownloadOutcome outcome =
        is_same_release ? download_verified(text_field(file.body, "url"), update.size,
                                            update.sha256, destination, detail)
                        : DownloadOutcome::Mismatch;
    if (outcome == DownloadOutcome::Saved) {
      console_.log("update saved");
      console_.say("Update saved to " + destination.string());
    } else if (outcome == DownloadOutcome::Mismatch) {
      console_.log("update refused (SHA-256 mismatch)");
      console_.say("Update Refused: The download does not match its signed SHA-256.");
    } else {
      console_.log("download failed (" + detail + ")");
      console_.say("Download Failed: " + detail);
    }
  }

  // The vendor's message to everyone, and this user's own note: read with the session.
  void show_remote_values(const std::string& token) {
    const ApiResult message = client_.get_variable("welcome_message", token);
    if (message.is_success())
      console_.say("Message: " + text_field(message.body, "value"));
    else if (message.code() != "VARIABLE_NOT_FOUND")
      console_.log("welcome message not read (" +
                   (message.is_answered() ? message.code() : message.failure_text()) + ")");
    const ApiResult note = client_.get_user_variable(token, "note");
    if (note.is_success())
      console_.say("Note: " + text_field(note.body, "value"));
    else if (note.code() != "VARIABLE_NOT_FOUND")
      console_.log("note not read (" + (note.is_answered() ? note.code() : note.failure_text()) +
                   ")");
  }

  // Saves the user's note on the server (their own user variable "note").
  void save_note(const std::string& value) {
    std::string token;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      // A forced logout while the prompt was open has left the main screen already.
      if (screen_ != Screen::NoteValue) return;
      screen_ = Screen::Main;
      token = session_.token;
    }
    if (token.empty()) {
      console_.say("Notes are kept on the server: not available while working offline.");
      return;
    }
    const ApiResult saved = client_.set_user_variable(token, "note", value);
    if (!saved.is_answered()) {
      report_untrusted(saved, "note");
      return;
    }
    if (saved.code() == "VARIABLE_READ_ONLY") {
      console_.log("note refused (VARIABLE_READ_ONLY)");
      console_.say("Note Is Read-Only: " + saved.message());
      return;
    }
    if (!saved.is_success()) {
      console_.log("note not saved (" + saved.code() + ")");
      report_refusal(saved, "Note Not Saved");
      return;
    }
    console_.log("note saved");
    console_.say("Note saved.");
  }

  // One session start, then monitoring; a refused start returns to the login screen.
  void enter_main_screen(const Session& session) {
    const ApiResult started = client_.start_session(session.user_id, session.token);
    if (!started.is_success()) {
      if (started.is_answered()) {
        console_.log("session start refused (" + started.code() + ")");
        console_.say("Session start error: " + started.message());
      } else {
        report_untrusted(started, "session start");
      }
      clear_saved_session();
      return;
    }
    console_.log("session started (" + token_preview(session.token) + ")");
    {
      std::lock_guard<std::mutex> lock(mutex_);
      session_ = session;
      screen_ = Screen::Main;
    }
    const std::string who = session.username.empty() ? session.user_id : session.username;
    console_.say("Welcome, " + who + "! Type 'help' for commands.");
    say_licensing(session.licensing, "");
    check_out_offline_license(session.token);
    show_remote_values(session.token);
    monitor_.start(session.user_id, session.token, [this] { forced_logout(); });
  }

  // Runs on the monitoring thread, after its session end call.
  void forced_logout() {
    clear_saved_session();
    std::lock_guard<std::mutex> lock(mutex_);
    session_ = Session{};
    screen_ = Screen::Username;
    console_.say("Session Expired: Your session has expired. Please login again.");
    console_.prompt("Username: ");
  }

  // Returns true for quit and exit.
  bool run_command(const std::string& command) {
    if (command.empty()) return false;
    if (command == "help") {
      console_.say("Commands:");
      console_.say("  status  show the logged-in user, the session and the entitlements");
      console_.say("  redeem  add a licence key to this account (asks for the key and password)");
      console_.say("  release release this device (log in again from another machine)");
      console_.say("  note    save a note of yours on the server");
      console_.say("  logout  end the session and return to the login prompt");
      console_.say("  help    show this list");
      console_.say("  quit    end the session and close the program (also: exit)");
    } else if (command == "status") {
      Session session;
      {
        std::lock_guard<std::mutex> lock(mutex_);
        session = session_;
      }
      console_.say("Status: logged in as " +
                   (session.username.empty() ? std::string("(saved session)") : session.username));
      console_.say("  User ID: " + session.user_id);
      if (session.token.empty()) {
        console_.say("  Session: none (working offline)");
        say_licensing(session.licensing, "  ");
        return false;
      }
      console_.say("  Session: " + token_preview(session.token));
      console_.say("  Verify failures: " + std::to_string(monitor_.verify_failures()) + "/" +
                   std::to_string(MAX_VERIFY_FAILURES));
      console_.say("  Heartbeat every " + std::to_string(HEARTBEAT_INTERVAL_SECONDS) +
                   " s, verify every " + std::to_string(VERIFY_INTERVAL_SECONDS) + " s");
      say_licensing(session.licensing, "  ");
    } else if (command == "redeem") {
      std::lock_guard<std::mutex> lock(mutex_);
      if (screen_ == Screen::Main) screen_ = Screen::RedeemKey;
    } else if (command == "note") {
      std::lock_guard<std::mutex> lock(mutex_);
      if (screen_ == Screen::Main) screen_ = Screen::NoteValue;
    } else if (command == "release") {
      std::lock_guard<std::mutex> lock(mutex_);
      if (screen_ == Screen::Main) {
        console_.say(
            "Releasing this device frees its seat for another machine and ends this session "
            "here (an empty password cancels).");
        pending_ = Pending{};
        pending_.username = session_.username;
        screen_ = session_.username.empty() ? Screen::ReleaseUsername : Screen::ReleasePassword;
      }
    } else if (command == "logout") {
      if (end_session()) {
        clear_saved_session();
        console_.log("logged out");
        console_.say("You have been logged out.");
      }
    } else if (command == "quit" || command == "exit") {
      leave();
      return true;
    } else {
      console_.say("Unknown command: " + command + ". Type 'help' for commands.");
    }
    return false;
  }

  // Stops monitoring and ends the session; false when the monitor had already logged out.
  bool end_session() {
    monitor_.stop();
    Session session;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (screen_ != Screen::Main && screen_ != Screen::RedeemKey &&
          screen_ != Screen::RedeemPassword && screen_ != Screen::ReleaseUsername &&
          screen_ != Screen::ReleasePassword && screen_ != Screen::NoteValue)
        return false;
      session = session_;
      session_ = Session{};
      screen_ = Screen::Username;
    }
    if (session.token.empty()) return true;  // working offline: no session to end
    const ApiResult ended = client_.end_session(session.token);
    if (ended.is_success())
      console_.log("session ended");
    else
      console_.log("Session end error: " +
                   (ended.is_answered() ? ended.code() + " " + ended.message()
                                        : ended.failure_text()));
    return true;
  }

  // Closing the program stops monitoring and ends the session; the saved user_id stays
  // for the next start.
  void leave() {
    end_session();
    console_.say("Goodbye.");
  }

  void report_untrusted(const ApiResult& result, const std::string& call) {
    if (result.status == CallStatus::NotVerified) console_.log("response not verified (" + call + ")");
    console_.say(result.failure_text());
  }

  // The title shown for a refusal, by its stable code (never by its text, which the vendor
  // may rewrite); codes without a title of their own get fallback_title.
  static std::string refusal_title(const std::string& code, const std::string& fallback_title) {
    static const std::map<std::string, std::string> titles = {
        {"VERSION_MISMATCH", "Update Required"},
        {"HWID_MISMATCH", "Hardware Mismatch"},
        {"ACCOUNT_EXPIRED", "Account Expired"},
        {"ACCOUNT_DISABLED", "Account Disabled"},
        {"BLACKLISTED", "Access Blocked"},
        {"NO_ACTIVE_SUBSCRIPTION", "Subscription Required"},
        {"LICENSE_REQUIRED", "Licence Key Required"},
        {"LICENSE_INVALID", "Invalid Licence Key"},
        {"LICENSE_USED", "Licence Key Used"},
        {"LICENSE_BANNED", "Licence Key Banned"},
        {"LICENSE_EXPIRED", "Licence Key Lapsed"},
        {"ENTITLEMENTS_MISSING", "Feature Not Included"},
        {"RESET_NOT_ALLOWED", "Reset Not Allowed"},
        {"RESET_COOLDOWN", "Reset Not Yet Available"},
        {"DEVICE_NOT_FOUND", "Device Not Found"},
        {"MAIL_UNAVAILABLE", "E-mail Unavailable"},
        {"EMAIL_NOT_VERIFIED", "E-mail Not Verified"},
    };
    const auto found = titles.find(code);
    return found == titles.end() ? fallback_title : found->second;
  }

  static bool read_line(std::string& line, bool is_hidden) {
#ifdef _WIN32
    HANDLE input = GetStdHandle(STD_INPUT_HANDLE);
    DWORD mode = 0;
    const bool can_hide = is_hidden && GetConsoleMode(input, &mode);
    if (can_hide) SetConsoleMode(input, mode & ~static_cast<DWORD>(ENABLE_ECHO_INPUT));
    const bool has_line = static_cast<bool>(std::getline(std::cin, line));
    if (can_hide) {
      SetConsoleMode(input, mode);
      std::cout << std::endl;
    }
#else
    termios saved{};
    const bool can_hide = is_hidden && isatty(STDIN_FILENO) && tcgetattr(STDIN_FILENO, &saved) == 0;
    if (can_hide) {
      termios quiet = saved;
      quiet.c_lflag &= ~static_cast<tcflag_t>(ECHO);
      tcsetattr(STDIN_FILENO, TCSANOW, &quiet);
    }
    const bool has_line = static_cast<bool>(std::getline(std::cin, line));
    if (can_hide) {
      tcsetattr(STDIN_FILENO, TCSANOW, &saved);
      std::cout << std::endl;
    }
#endif
    return has_line;
  }

  Console console_;
  LatchkeyClient client_;
  SessionMonitor monitor_;
  std::mutex mutex_;  // guards screen_ and session_ (the monitoring thread may log out)
  Screen screen_ = Screen::Username;
  Session session_;
  Pending pending_;  // read and written by the input thread only
  Update update_;    // the release offered by a VERSION_MISMATCH answer
};

}  // namespace latchkey

#ifndef LATCHKEY_NO_MAIN
int main() {
  std::cout << std::unitbuf;  // every line reaches a pipe at once
  if (sodium_init() < 0 || curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
    std::cout << "Could not initialise libsodium or libcurl" << std::endl;
    return 1;
  }
  int exit_code = 0;
  {
    latchkey::ConsoleApp app;
    exit_code = app.run();
  }
  curl_global_cleanup();
  return exit_code;
}
#endif
