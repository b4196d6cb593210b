// Latchkey client sample for C++ (console), built on the Latchkey C++ SDK (`latchkey`), which
// does everything that talks to the server: every request, the Ed25519 signature check of
// every answer (so a fake server cannot unlock the program), the offline licence check, the
// machine id and the checked download. This file is the program around it: log in (with a
// password or a licence key alone), start this machine's trial where the application offers one
// (one trial per machine: a later start, whatever name it gives, logs in the same trial account
// until it ends), register (with a licence key if you sell them), have a link to choose a new
// password mailed to the account's address (or, where the application lets only confirmed
// addresses log in, a new link to confirm it), verify, keep a live session with
// heartbeats and periodic verification, redeem licence keys onto the account, show its
// entitlements, subscriptions and updates period and what is left of each usage meter of its plans
// (so many exports a month, say), count one use of a metered feature, release this machine's seat
// so the user can log in from another one, and, for a plan of floating seats (so many computers at
// once, any computers; each login takes a seat), borrow this computer's seat for some days (its
// offline licence, kept like the one below, lets the program run offline until the borrow ends) or
// give it back sooner for another computer. Logins send the machine's name, which the owner sees in
// the user's device list. After each login it keeps an offline licence, so that a later start
// without the network still works until the licence's end; it shows the vendor's welcome_message
// and the user's own note (remote variables), and when the vendor has published a newer release it
// offers to download it, kept only when it matches its signed SHA-256 (for a version released after
// the user's updates period ended, it offers the release their licence includes the same way).
//
// Add the SDK from your Latchkey server, as its Integration page shows (Debian/Ubuntu first:
// apt-get install cmake g++ pkg-config libcurl4-openssl-dev libsodium-dev nlohmann-json3-dev):
//   curl -fL "YOUR_LATCHKEY_URL"/sdk/latchkey-cpp-0.1.0.tar.gz | tar -xz
//   cmake -S latchkey-0.1.0 -B latchkey-build && cmake --build latchkey-build
//   sudo cmake --install latchkey-build
// (then `sudo ldconfig` on Linux, so programs find liblatchkey in /usr/local/lib).
// Build (after `cmake --install latchkey-build --prefix <dir>` instead: PKG_CONFIG_PATH=
// <dir>/lib/pkgconfig, and -Wl,-rpath,<dir>/lib so the program finds liblatchkey there):
//   g++ -std=c++17 -O2 -Wall -Wextra -Werror latchkey_client.cpp -o latchkey_client $(pkg-config --cflags --libs latchkey nlohmann_json)
// Run:
//   ./latchkey_client
// At the Username prompt: /register creates an account, /key logs in with a licence key,
// /trial starts this machine's trial (or logs in the one it has), /forgot mails a link to
// choose a new password, /resend a new link to confirm the address.
// Commands once logged in: status, redeem, release, note, use, borrow <days>, return, logout,
// help, quit, exit.

// ---- Settings: filled in by Latchkey when you copy this sample from the console ----
static const char* const API_KEY = "YOUR_API_KEY";
static const char* const BASE_URL = "YOUR_LATCHKEY_URL";
static const char* const APP_VERSION = "YOUR_APP_VERSION";
// The application's Ed25519 public key (hex): only answers signed with its private key count.
static const char* const SIGNING_PUBLIC_KEY = "YOUR_SIGNING_PUBLIC_KEY";
// Entitlement codes this program needs, comma-separated (e.g. "PRO,EXPORT_PDF"): a user who
// lacks one is refused at login (ENTITLEMENTS_MISSING). Empty: any user in good standing.
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
// The longest a floating seat may be borrowed, in days (the user's plan may allow fewer).
static const long long MAX_BORROW_DAYS = 365;

#include <latchkey/latchkey.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <mutex>
#include <optional>
#include <random>
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

namespace {

using json = nlohmann::json;
using latchkey::Result;
using latchkey::ResultCode;

const char* const NOT_VERIFIED_TEXT = "The server response could not be verified.";

std::string trim(const std::string& text) {
  const char* space = " \t\r\n";
  const size_t first = text.find_first_not_of(space);
  if (first == std::string::npos) return "";
  return text.substr(first, text.find_last_not_of(space) - first + 1);
}

std::string lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

std::string join(const std::vector<std::string>& items, const std::string& separator) {
  std::string text;
  for (const std::string& item : items) text += (text.empty() ? "" : separator) + item;
  return text;
}

std::vector<std::string> required_entitlements() {
  std::vector<std::string> codes;
  std::stringstream stream(REQUIRED_ENTITLEMENTS);
  for (std::string code; std::getline(stream, code, ',');)
    if (!trim(code).empty()) codes.push_back(trim(code));
  return codes;
}

std::string text_field(const json& body, const char* name) {
  return body.is_object() && body.contains(name) && body[name].is_string()
             ? body[name].get<std::string>()
             : "";
}

// What a user holds, from a login, verify, register or redeem answer, or an offline licence.
struct Licensing {
  std::vector<std::string> entitlements;   // sorted codes
  std::vector<std::string> subscriptions;  // "Plan until <ISO date>" or "Plan (lifetime)"
  // The end of the updates window (ISO 8601): releases published later are refused. Empty: no
  // window (null, or an offline licence older than the field), every release.
  std::string updates_until;
  // Where the usage meters of the user's plans stand (none: no plan has one). From an offline
  // licence, as they stood when it was issued: use offline is not counted.
  std::vector<latchkey::Meter> meters;
};

Licensing licensing_of(const std::vector<std::string>& entitlements, const json& subscriptions,
                       const std::string& updates_until,
                       const std::vector<latchkey::Meter>& meters) {
  Licensing licensing{entitlements, {}, updates_until, meters};
  if (subscriptions.is_array())
    for (const json& held : subscriptions) {
      const std::string plan = text_field(held, "plan");
      const std::string expires_at = text_field(held, "expires_at");
      if (!plan.empty())
        licensing.subscriptions.push_back(expires_at.empty() ? plan + " (lifetime)"
                                                             : plan + " until " + expires_at);
    }
  return licensing;
}

Licensing licensing_of(const Result& answer) {
  return licensing_of(answer.texts("entitlements"),
                      json::parse(answer.field_json("subscriptions"), nullptr, false),
                      answer.text("updates_until").value_or(""), answer.meters());
}

std::string list_or_none(const std::vector<std::string>& items) {
  return items.empty() ? "none" : join(items, ", ");
}

// A fresh idempotency key for one increment of a meter: 128 random bits in hex.
std::string random_key() {
  std::random_device device;
  std::string key;
  while (key.size() < 32) {
    char hex[9] = {0};
    std::snprintf(hex, sizeof hex, "%08x", static_cast<unsigned>(device()));
    key += hex;
  }
  return key;
}

// A session token goes into logs by its first 8 characters only, so no log holds a whole one.
std::string token_preview(const std::string& token) { return token.substr(0, 8) + "..."; }

// A server time as this machine's local time to the minute, rounded up (so the time shown is
// never before the one meant), e.g. "2026-06-08 17:30"; the text as it came when it is not one.
std::string local_time_text(const std::string& iso) {
  const std::optional<latchkey::TimePoint> at = latchkey::parse_utc_time(iso);
  if (!at) return iso;
  const long long seconds =
      std::chrono::duration_cast<std::chrono::seconds>(at->time_since_epoch()).count();
  const std::time_t minute = static_cast<std::time_t>((seconds + 59) / 60 * 60);
  std::tm local{};
#ifdef _WIN32
  if (localtime_s(&local, &minute) != 0) return iso;
#else
  if (localtime_r(&minute, &local) == nullptr) return iso;
#endif
  char text[32] = {0};
  return std::strftime(text, sizeof text, "%Y-%m-%d %H:%M", &local) > 0 ? text : iso;
}

// A usage meter as the user reads it: what is left of the period's allowance and when it starts
// again (in local time; a meter without periods never does), and, for a meter that counts use
// beyond its allowance rather than refusing it, how far beyond.
std::string meter_text(const latchkey::Meter& meter) {
  std::string text = meter.name + ": " + std::to_string(meter.remaining) + " of " +
                     std::to_string(meter.allowance) + " left";
  if (meter.overage > 0) text += ", " + std::to_string(meter.overage) + " over";
  return text + (meter.resets_at ? ", resets " + local_time_text(*meter.resets_at) : ", no reset");
}

// The name this machine shows in the owner's device list (device_name): the host name in UTF-8
// without control characters, trimmed, and cut to MAX_DEVICE_NAME_LENGTH characters (never
// inside one), so that no machine name can make the server refuse a login. A name that is not
// valid UTF-8 keeps its printable ASCII only. Empty: none is sent.
std::string device_name() {
  std::string host;
#ifdef _WIN32
  char buffer[256] = {0};
  DWORD size = sizeof buffer - 1;
  if (GetComputerNameExA(ComputerNamePhysicalDnsHostname, buffer, &size)) host = buffer;
#else
  char buffer[256] = {0};
  if (gethostname(buffer, sizeof buffer - 1) == 0) host = buffer;
#endif
  std::string printable;
  for (const char c : host)
    if (static_cast<unsigned char>(c) >= 0x20 && c != 0x7f) printable += c;
  try {
    (void)json(printable).dump();  // throws when the bytes are not valid UTF-8
  } catch (const json::exception&) {
    std::string ascii;
    for (const char c : printable)
      if (static_cast<unsigned char>(c) < 0x80) ascii += c;
    printable = ascii;
  }
  printable = trim(printable);
  // Whole characters only; one of four bytes counts twice (two UTF-16 units: the server's measure).
  size_t units = 0;
  for (size_t i = 0; i < printable.size(); ++i) {
    const unsigned char byte = static_cast<unsigned char>(printable[i]);
    if ((byte & 0xC0) == 0x80) continue;  // inside a character
    units += byte >= 0xF0 ? 2 : 1;
    if (units > static_cast<size_t>(MAX_DEVICE_NAME_LENGTH)) return trim(printable.substr(0, i));
  }
  return printable;
}

// Where this program lives: an update is saved beside it.
std::filesystem::path program_directory() {
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

// ---------------------------------------------------------------------------------------
// What the program keeps between runs, in ~/.latchkey/<first 12 characters of the API key>:
// .json, the session of the last login {"user_id", "username", "session_token"}; and
// .offline.json, its offline licence and the last time this program saw the clock
// {"license": "LK1....", "last_seen": <unix s>, "application_id": <the licence's>}.
// ---------------------------------------------------------------------------------------

std::filesystem::path state_path(const std::string& suffix) {
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

json read_state(const std::string& suffix) {
  std::ifstream file(state_path(suffix));
  const json saved = file ? json::parse(file, nullptr, false) : json();
  return saved.is_object() ? saved : json::object();
}

// A small file readable by its owner only: the session token is a bearer secret.
void write_state(const std::string& suffix, const json& state) {
  const std::filesystem::path path = state_path(suffix);
  std::error_code error;
  std::filesystem::create_directories(path.parent_path(), error);
  std::ofstream(path, std::ios::trunc) << state.dump() << "\n";
  std::filesystem::permissions(
      path, std::filesystem::perms::owner_read | std::filesystem::perms::owner_write,
      std::filesystem::perm_options::replace, error);
}

std::mutex offline_state_mutex;  // the monitoring thread writes it too

// Records that the program ran now (each start and heartbeat), or stores a fresh licence; the
// stored last_seen never goes down: it is what a clock set back is measured against.
void update_offline_state(const std::optional<std::pair<std::string, long long>>& license = {}) {
  std::lock_guard<std::mutex> lock(offline_state_mutex);
  json state = read_state(".offline.json");
  if (!license && text_field(state, "license").empty()) return;
  const long long now = static_cast<long long>(std::time(nullptr));
  const json last_seen = state.value("last_seen", json(0));
  state["last_seen"] =
      std::max(now, last_seen.is_number_integer() ? last_seen.get<long long>() : 0);
  if (license) {
    state["license"] = license->first;
    state["application_id"] = license->second;
  }
  write_state(".offline.json", state);
}

// A borrowed seat given back: its licence cannot be recalled, so the program discards it.
void discard_offline_license() {
  std::error_code error;
  std::lock_guard<std::mutex> lock(offline_state_mutex);
  std::filesystem::remove(state_path(".offline.json"), error);
}

// Forgetting the saved session forgets its licence too: it was that user's.
void clear_saved_session() {
  std::error_code error;
  std::filesystem::remove(state_path(".json"), error);
  std::lock_guard<std::mutex> lock(offline_state_mutex);
  std::filesystem::remove(state_path(".offline.json"), error);
}

// Console output: one mutex, so the monitoring thread never interleaves half lines.
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

// What the user is told when a call produced no answer to believe; the SDK's errors are the
// only two ways a call fails without an outcome.
std::string failure_text(const std::exception& error) {
  if (dynamic_cast<const latchkey::SignatureError*>(&error))
    return std::string("Security Warning: ") + NOT_VERIFIED_TEXT;
  const auto* transport = dynamic_cast<const latchkey::TransportError*>(&error);
  if (transport && transport->reason() == latchkey::TransportErrorReason::Malformed)
    return "Failed to parse response";
  return std::string("Connection error: ") + error.what();
}

// No HTTP answer at all (refused, DNS, timeout): the one case for the offline licence.
bool is_unreachable(const latchkey::TransportError& error) {
  return error.reason() == latchkey::TransportErrorReason::Unreachable ||
         error.reason() == latchkey::TransportErrorReason::Timeout;
}

// Ends the client's session, if it has one; the outcome is only logged (it is over here).
void end_client_session(latchkey::Client& client, Console& console) {
  try {
    const std::optional<Result> ended = client.end_session();
    if (ended && ended->success())
      console.log("session ended");
    else if (ended)
      console.log("Session end error: " + ended->code_text() + " " + ended->message());
  } catch (const std::exception& error) {
    console.log("Session end error: " + failure_text(error));
  }
}

// ---------------------------------------------------------------------------------------
// Session monitoring: a heartbeat every HEARTBEAT_INTERVAL_SECONDS and a verify every
// VERIFY_INTERVAL_SECONDS on a thread of its own; MAX_VERIFY_FAILURES in a row force a logout.
// The SDK's own loop (start_heartbeat) tells only of a session's end, and this program also
// shows each accepted heartbeat and moves the offline licence's last_seen with it, so it
// schedules the SDK's heartbeat and verify calls itself. Network errors are only logged.
// ---------------------------------------------------------------------------------------

class SessionMonitor {
 public:
  SessionMonitor(latchkey::Client& client, Console& console) : client_(client), console_(console) {}
  ~SessionMonitor() { stop(); }

  // on_verified takes each accepted verify (what the user holds now); on_forced_logout runs
  // after MAX_VERIFY_FAILURES refusals in a row.
  void start(const std::string& user_id, std::function<void(const Result&)> on_verified,
             std::function<void()> on_forced_logout) {
    stop();
    stop_requested_ = false;
    failures_ = 0;
    on_verified_ = std::move(on_verified);
    worker_ = std::thread([this, user_id, on_forced_logout] { run(user_id, on_forced_logout); });
  }

  // Stops the timers and waits for the thread (a call in flight finishes first).
  void stop() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stop_requested_ = true;
    }
    wake_.notify_all();
    if (worker_.joinable() && worker_.get_id() != std::this_thread::get_id()) worker_.join();
  }

  int verify_failures() const { return failures_; }

 private:
  using Clock = std::chrono::steady_clock;

  bool is_stopping() {
    std::lock_guard<std::mutex> lock(mutex_);
    return stop_requested_;
  }

  void run(const std::string& user_id, const std::function<void()>& on_forced_logout) {
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
        send_heartbeat();
      }
      if (now >= next_verify) {
        next_verify = now + std::chrono::seconds(VERIFY_INTERVAL_SECONDS);
        if (!check_still_verified(user_id) && !is_stopping()) {
          console_.log("forced logout");
          end_client_session(client_, console_);
          on_forced_logout();
          return;
        }
      }
    }
  }

  void send_heartbeat() {
    update_offline_state();
    // The SDK forgets a session the server ended: the verifies decide what follows.
    if (!client_.session()) return;
    try {
      const Result beat = client_.heartbeat();
      if (beat.success())
        console_.log("heartbeat ok");
      else if (!is_stopping())
        console_.log("Heartbeat error: " + beat.code_text() + " " + beat.message());
    } catch (const std::exception& error) {
      if (!is_stopping()) console_.log("Heartbeat error: " + failure_text(error));
    }
  }

  // False when MAX_VERIFY_FAILURES consecutive verifies failed. An answer that is not genuine
  // counts as a failure (it is never a success); a network error does not count.
  bool check_still_verified(const std::string& user_id) {
    std::string reason;
    try {
      const Result verified = client_.verify(user_id, required_entitlements());
      if (verified.success()) {
        failures_ = 0;
        console_.log("verify ok");
        if (!is_stopping()) on_verified_(verified);
        return true;
      }
      reason = verified.code_text() + " " + verified.message();
    } catch (const latchkey::TransportError& error) {
      if (error.reason() != latchkey::TransportErrorReason::Malformed) {
        console_.log("Verification error: " + failure_text(error));
        return true;
      }
      reason = failure_text(error);
    } catch (const latchkey::SignatureError& error) {
      reason = failure_text(error);
    }
    if (is_stopping()) return true;
    failures_ += 1;
    console_.log("verify failed (" + std::to_string(failures_.load()) + "/" +
                 std::to_string(MAX_VERIFY_FAILURES) + "): " + reason);
    return failures_ < MAX_VERIFY_FAILURES;
  }

  latchkey::Client& client_;
  Console& console_;
  std::function<void(const Result&)> on_verified_;
  std::thread worker_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stop_requested_ = false;
  std::atomic<int> failures_{0};
};

// ---------------------------------------------------------------------------------------
// The console program: login screen (Username/Password prompts, or /register, /key, /trial,
// /forgot and /resend), then the main screen (a "> " command prompt). The monitoring thread may
// return it to the login screen.
// ---------------------------------------------------------------------------------------

latchkey::ClientOptions client_options() {
  latchkey::ClientOptions options;
  options.timeout = std::chrono::seconds(HTTP_TIMEOUT_SECONDS);
  options.max_clock_skew = std::chrono::seconds(MAX_CLOCK_SKEW_SECONDS);
  options.device_name = device_name();
  return options;  // the HWID: the SDK's machine id, hashed with SIGNING_PUBLIC_KEY
}

class ConsoleApp {
 public:
  ConsoleApp()
      : client_(BASE_URL, API_KEY, SIGNING_PUBLIC_KEY, APP_VERSION, client_options()),
        monitor_(client_, console_) {}

  int run() {
    console_.say("Latchkey client sample (C++), version " + std::string(APP_VERSION));
    update_offline_state();
    resume_saved_session();
    if (!is_main())
      console_.say(
          "Log in below. At the Username prompt, type /register to create an account, /key to "
          "log in with a licence key, /trial to start a trial on this machine, /forgot if you "
          "forgot your password, or /resend for a new link to confirm your e-mail address.");
    show_prompt();
    for (std::string line; read_line(line, is_secret_asked());) {
      if (!handle_line(line)) {
        monitor_.stop();
        return exit_code_;
      }
      show_prompt();
    }
    leave();  // end of input: as quit
    return 0;
  }

 private:
  struct Session {
    std::string user_id;
    std::string username;
    bool is_online = false;  // false: working offline on the licence, without a session
    Licensing licensing;
    std::string borrowed_until;  // while this computer's floating seat is borrowed (ISO 8601)
  };

  // An increment of a metered feature that got no answer: the next `use` of the same session
  // and meter sends it again with its idempotency key.
  struct UnansweredUse {
    std::string token;
    std::string name;
    std::string key;
  };

  // A few prompts in a row (a registration, a redemption...), then submit with the answers;
  // submit answers false when the program must end (with exit_code_).
  enum class Field { Text, Secret, Raw };  // Text is trimmed; a Secret is not echoed
  struct Form {
    std::vector<std::pair<std::string, Field>> fields;
    std::function<bool(const std::vector<std::string>&)> submit;
    bool is_on_main_screen = false;  // a forced logout closes it
  };

  bool is_main() {
    std::lock_guard<std::mutex> lock(mutex_);
    return is_main_;
  }

  void ask(Form form) {
    std::lock_guard<std::mutex> lock(mutex_);
    form_ = std::move(form);
    answers_.clear();
  }

  bool is_secret_asked() {
    std::lock_guard<std::mutex> lock(mutex_);
    return form_ && form_->fields[answers_.size()].second == Field::Secret;
  }

  void show_prompt() {
    std::lock_guard<std::mutex> lock(mutex_);
    console_.prompt(form_ ? form_->fields[answers_.size()].first : is_main_ ? "> " : "Username: ");
  }

  // One line typed at whatever prompt is open; false when the program must end.
  bool handle_line(std::string line) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    std::optional<Form> completed;
    std::vector<std::string> answers;
    bool is_command = false;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      is_command = !form_ && is_main_;
      if (form_) {
        const bool is_trimmed = form_->fields[answers_.size()].second == Field::Text;
        answers_.push_back(is_trimmed ? trim(line) : line);
        if (answers_.size() < form_->fields.size()) return true;
        completed.swap(form_);
        answers.swap(answers_);
      }
    }
    if (is_command) return run_command(trim(line));
    if (!completed) return start_login_form(trim(line)), true;
    // A forced logout since the form opened on the main screen has closed that screen.
    return completed->is_on_main_screen && !is_main() ? true : completed->submit(answers);
  }

  // The Username prompt: a username (the password follows), or one of the slash commands.
  void start_login_form(const std::string& text) {
    const std::pair<std::string, Field> password{"Password: ", Field::Secret};
    if (text == "/register")
      return ask({{{"New username: ", Field::Text}, password, {"E-mail (optional): ", Field::Text},
                   {"Licence key (optional): ", Field::Text}},
                  [this](const auto& in) {
                    return register_and_log_in(in[0], in[1], in[2], in[3]);
                  }});
    if (text == "/key")
      return ask({{{"Licence key: ", Field::Text}}, [this](const auto& in) {
                    if (in[0].empty()) return console_.say("Please provide a licence key"), true;
                    console_.say("Logging in...");
                    return complete_login(
                        [&] { return client_.license_login(in[0], required_entitlements()); }, "");
                  }});
    // This machine's trial (the SDK sends its machine id, as with every login): the name is the
    // new trial account's, and none lets the server choose one. A machine that has had its trial
    // gets that same account back, whatever name is given.
    if (text == "/trial")
      return ask({{{"Trial username (optional): ", Field::Text}}, [this](const auto& in) {
                    console_.say("Starting the trial...");
                    const std::optional<std::string> username =
                        in[0].empty() ? std::nullopt : std::optional<std::string>(in[0]);
                    return complete_login(
                        [&] {
                          return client_.start_trial(std::nullopt, username,
                                                     required_entitlements());
                        },
                        in[0], true);
                  }});
    if (text == "/forgot")
      return ask({{{"Username or e-mail: ", Field::Text}},
                  [this](const auto& in) { return request_password_reset(in[0]), true; }});
    if (text == "/resend")
      return ask({{{"Username: ", Field::Text}, password}, [this](const auto& in) {
                    return request_verification_mail(in[0], in[1]), true;
                  }});
    ask({{password}, [this, text](const auto& in) {
           if (text.empty() || in[0].empty())
             return console_.say("Please provide both username and password"), true;
           console_.say("Logging in...");
           return complete_login(
               [&] { return client_.login(text, in[0], required_entitlements()); }, text);
         }});
  }

  // Runs an SDK call; nullopt once the failure (no answer to believe) is told to the user.
  template <typename Call>
  std::optional<Result> attempt(const std::string& what, Call call) {
    try {
      return call();
    } catch (const latchkey::SignatureError&) {
      console_.log("response not verified (" + what + ")");
      console_.say(std::string("Security Warning: ") + NOT_VERIFIED_TEXT);
    } catch (const latchkey::TransportError& error) {
      console_.say(failure_text(error));
    }
    return std::nullopt;
  }

  // "Title: message", the title chosen by the code; false when the program must exit.
  bool report_refusal(const Result& result, const std::string& fallback_title) {
    std::string text = refusal_title(result.code_text(), fallback_title) + ": " + result.message();
    if (result.has("missing_entitlements"))
      text += " (missing: " + join(result.texts("missing_entitlements"), ", ") + ")";
    if (result.retry_after_seconds())
      text += " (try again in " + std::to_string(*result.retry_after_seconds()) + " seconds)";
    // A meter used up says when it starts again, so the user knows how long to wait.
    if (result.code() == ResultCode::METER_EXHAUSTED)
      text += result.has("resets_at")
                  ? " (resets " + local_time_text(result.text("resets_at").value_or("")) + ")"
                  : " (no reset)";
    // A machine's trial is over for good: say since when.
    if (result.code() == ResultCode::TRIAL_EXPIRED && result.has("expires_at"))
      text += " (ended " + local_time_text(result.text("expires_at").value_or("")) + ")";
    // Every seat is taken on other computers: say when the first of their leases lapses (one may
    // free sooner, when its computer signs out).
    if (result.code() == ResultCode::NO_SEAT_AVAILABLE && result.has("next_free_at"))
      text += " (next seat free by " + local_time_text(result.text("next_free_at").value_or("")) +
              ")";
    console_.say(text);
    // The user can do something about an unconfirmed address: say what.
    if (result.code() == ResultCode::EMAIL_NOT_VERIFIED)
      console_.say("Type /resend at the Username prompt to be mailed a new link.");
    return result.code() != ResultCode::VERSION_MISMATCH &&
           result.code() != ResultCode::UPDATES_EXPIRED && result.code() != ResultCode::BLACKLISTED;
  }

  // A login (password or licence key) or a trial's start: the SDK opens the session when the
  // server accepts it, once the user holds REQUIRED_ENTITLEMENTS. Then verified, and on to the
  // main screen; a trial says when it ends. Returns false when the program must exit.
  template <typename Login>
  bool complete_login(Login login_call, const std::string& typed_username, bool is_trial = false) {
    const std::string what = is_trial ? "trial" : "login";
    const std::optional<Result> login = attempt(what, login_call);
    if (!login) return true;
    if (!login->success()) {
      console_.log(what + " failed (" + login->code_text() + ")");
      if (report_refusal(*login, is_trial ? "Trial Failed" : "Login Failed")) return true;
      exit_code_ = 1;  // this version cannot be used: the program exits, after an update offer
      const std::optional<latchkey::UpdateOffer> update = client_.check_for_update(*login);
      if (update) {
        // Past the updates window the release offered is not newer than this program but the
        // newest the user's licence includes: it is offered as such.
        const std::string question =
            login->code() == ResultCode::UPDATES_EXPIRED
                ? "Your licence includes version " + update->version + ". Download it? (y/n) "
                : "Version " + update->version + " is available. Download it? (y/n) ";
        ask({{{question, Field::Text}},
             [this, update](const auto& in) {
               if (lower(in[0]) == "y" || lower(in[0]) == "yes") download_update(*update);
               return false;
             }});
      }
      return update.has_value();
    }
    console_.log(what + " ok");
    if (is_trial) {
      const std::optional<std::string> ends = login->text("expires_at");
      console_.say("Trial Active: " + login->message() +
                   (ends ? " (trial ends " + local_time_text(*ends) + ")" : ""));
    } else {
      console_.say("Login Successful: " + login->message());
    }
    const std::string user_id = login->text("user_id").value_or("");
    const std::string username = login->text("username").value_or(typed_username);
    // The verify answer names what the user holds now (entitlements, subscriptions).
    const std::optional<Result> verified =
        attempt("verify", [&] { return client_.verify(user_id, required_entitlements()); });
    if (verified && !verified->success()) {
      console_.log("verify failed after login (" + verified->code_text() + ")");
      if (verified->code() == ResultCode::ENTITLEMENTS_MISSING ||
          verified->code() == ResultCode::EMAIL_NOT_VERIFIED)
        report_refusal(*verified, "Security Warning");
      else
        console_.say(
            "Security Warning: Session verification failed. Please try logging in again.");
    }
    if (!verified || !verified->success()) {
      end_client_session(client_, console_);  // the one the login opened
      return true;
    }
    console_.log("verify ok");
    write_state(".json", {{"user_id", user_id},
                          {"username", username},
                          {"session_token", client_.session()->token}});
    enter_main_screen({user_id, username, true, licensing_of(*verified), ""});
    return true;
  }

  // Registers, then logs in with the same username and password. False: exit.
  bool register_and_log_in(const std::string& username, const std::string& password,
                           const std::string& email, const std::string& license_key) {
    if (username.empty() || password.empty()) {
      console_.say("Please provide both username and password");
      return true;
    }
    console_.say("Registering...");
    const auto optional = [](const std::string& text) {
      return text.empty() ? std::nullopt : std::optional<std::string>(text);
    };
    const std::optional<Result> registered = attempt("register", [&] {
      return client_.register_user(username, password, optional(email), optional(license_key));
    });
    if (!registered) return true;
    if (!registered->success()) {
      console_.log("register failed (" + registered->code_text() + ")");
      if (report_refusal(*registered, "Registration Failed")) return true;
      exit_code_ = 1;
      return false;
    }
    console_.log("register ok");
    console_.say("Registration Successful: " + registered->message());
    console_.say("Logging in...");
    return complete_login(
        [&] { return client_.login(username, password, required_entitlements()); }, username);
  }

  // Tells the answer of a call that only mails (a reset link, a confirmation link), which
  // reads the same whether or not the account exists; the login prompt follows either way.
  void report_mail_request(const std::optional<Result>& requested, const std::string& what,
                           const std::string& fallback_title) {
    if (!requested) return;
    if (!requested->success()) {
      console_.log(what + " refused (" + requested->code_text() + ")");
      report_refusal(*requested, fallback_title);
      return;
    }
    console_.log(what + " requested");
    console_.say("Check Your E-mail: " + requested->message());
  }

  // The account is named by its e-mail address when the text holds an '@' (every address has
  // one, few usernames do), else by its username.
  void request_password_reset(const std::string& username_or_email) {
    if (username_or_email.empty()) {
      console_.say("Please provide a username or an e-mail address");
      return;
    }
    const bool is_email = username_or_email.find('@') != std::string::npos;
    report_mail_request(attempt("forgot password",
                                [&] {
                                  return is_email
                                             ? client_.forgot_password(std::nullopt,
                                                                       username_or_email)
                                             : client_.forgot_password(username_or_email);
                                }),
                        "password reset", "Password Reset Failed");
  }

  void request_verification_mail(const std::string& username, const std::string& password) {
    if (username.empty() || password.empty()) {
      console_.say("Please provide both username and password");
      return;
    }
    report_mail_request(attempt("resend verification",
                                [&] { return client_.resend_verification(username, password); }),
                        "verification e-mail", "Resend Failed");
  }

  // Adds a licence key to the account that is logged in; its password proves the holder.
  void redeem(const std::string& license_key, const std::string& password) {
    if (license_key.empty() || password.empty()) {
      console_.say("Please provide a licence key and your password");
      return;
    }
    const std::optional<Result> redeemed = attempt(
        "redeem", [&] { return client_.redeem(session_copy().username, password, license_key); });
    if (!redeemed) return;
    if (!redeemed->success()) {
      console_.log("redeem failed (" + redeemed->code_text() + ")");
      report_refusal(*redeemed, "Redeem Failed");
      return;
    }
    console_.log("redeem ok");
    console_.say("Licence Key Redeemed: " + redeemed->message());
    const Licensing licensing = licensing_of(*redeemed);
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (is_main_) session_.licensing = licensing;
    }
    say_licensing(licensing, "  ");
  }

  // Releases this machine from the account so its user can log in from another one. On
  // success the server has ended this machine's session (the SDK forgets it too): back to the
  // login prompt without an end call, and the saved session is forgotten.
  void release_device(const std::string& username, const std::string& password) {
    if (password.empty()) {
      console_.say("Release cancelled.");
      return;
    }
    if (username.empty()) {
      console_.say("Please provide both username and password");
      return;
    }
    const std::optional<Result> released =
        attempt("release", [&] { return client_.reset_devices(username, password); });
    if (!released) return;
    const std::string next_release_at = released->text("next_reset_at").value_or("");
    const std::string next_release =
        next_release_at.empty() ? "" : "You can release a device again at " + next_release_at + ".";
    if (!released->success()) {
      console_.log("release failed (" + released->code_text() + ")");
      report_refusal(*released, "Release Failed");
      if (released->code() == ResultCode::RESET_COOLDOWN && !next_release.empty())
        console_.say(next_release);
      return;
    }
    console_.log("release ok");
    console_.say("Device Released: " + released->message());
    if (!next_release.empty()) console_.say(next_release);
    monitor_.stop();
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (!is_main_) return;  // the monitor logged out meanwhile
      session_ = Session{};
      is_main_ = false;
    }
    clear_saved_session();
    console_.log("logged out (device released)");
    console_.say(
        "This device is released and its session has ended: log in again here or on another "
        "machine.");
  }

  Session session_copy() {
    std::lock_guard<std::mutex> lock(mutex_);
    return session_;
  }

  void say_licensing(const Licensing& licensing, const std::string& indent) {
    console_.say(indent + "Entitlements: " + list_or_none(licensing.entitlements));
    console_.say(indent + "Subscriptions: " + list_or_none(licensing.subscriptions));
    console_.say(indent + (licensing.updates_until.empty()
                               ? "Updates: every release"
                               : "Updates until: " + licensing.updates_until));
    for (const latchkey::Meter& meter : licensing.meters)
      console_.say(indent + "Usage: " + meter_text(meter));
  }

  // An accepted periodic verify (on the monitoring thread): the owner may have granted or taken
  // back a plan since, and the meters have moved with every use, so what it names holds now.
  void take_verified(const Result& verified) {
    const Licensing licensing = licensing_of(verified);
    std::lock_guard<std::mutex> lock(mutex_);
    if (is_main_ && session_.is_online) session_.licensing = licensing;
  }

  // Counts one use of a metered feature against the first usage meter the user holds (a
  // program names its own: "exports" before an export, say), then shows what is left. Each
  // increment sends a random idempotency key of its own; one that got no answer is sent again,
  // by the next `use`, with the same key, so the server counts it once even when only its
  // answer was lost. A refusal is titled by its code: the meter is used up, or no longer in the
  // user's plans.
  void use_metered_feature() {
    const Session session = session_copy();
    const std::optional<latchkey::Session> live = client_.session();
    if (!session.is_online || !live) {
      console_.say("Usage is counted on the server: not available while working offline.");
      return;
    }
    if (session.licensing.meters.empty()) {
      console_.say("Your plans have no usage meters.");
      return;
    }
    const std::string name = session.licensing.meters.front().name;
    if (!unanswered_use_ || unanswered_use_->token != live->token ||
        unanswered_use_->name != name)
      unanswered_use_ = UnansweredUse{live->token, name, random_key()};
    const std::string key = unanswered_use_->key;
    const std::optional<Result> used =
        attempt("meter use", [&] { return client_.use_meter(name, 1, key); });
    if (!used) return;
    unanswered_use_.reset();
    // Counted or used up, the answer says where the meter stands now; a meter no plan of the
    // user has any more is not shown any more.
    latchkey::Meter standing{name,
                             used->integer("allowance").value_or(0),
                             used->integer("used").value_or(0),
                             used->integer("remaining").value_or(0),
                             used->integer("overage").value_or(0),
                             used->text("resets_at")};
    {
      std::lock_guard<std::mutex> lock(mutex_);
      std::vector<latchkey::Meter>& meters = session_.licensing.meters;
      for (auto meter = meters.begin(); meter != meters.end(); ++meter) {
        if (meter->name != name) continue;
        if (used->has("remaining"))
          *meter = standing;
        else if (used->code() == ResultCode::METER_NOT_FOUND)
          meters.erase(meter);
        break;
      }
    }
    if (!used->success()) {
      console_.log(name + " use refused (" + used->code_text() + ")");
      report_refusal(*used, "Usage Not Counted");
      return;
    }
    console_.log(name + " use counted" +
                 (used->boolean("replayed").value_or(false) ? " (sent again: counted once)" : ""));
    console_.say("Usage Counted: " + meter_text(standing));
  }

  // The session saved at the last login: its user is verified again, then the SDK takes the
  // session back (one heartbeat) if the server still holds it. A refused user is forgotten;
  // a server out of reach lets the offline licence stand in.
  void resume_saved_session() {
    const json saved = read_state(".json");
    const std::string user_id = text_field(saved, "user_id");
    if (user_id.empty()) return;
    console_.log("saved session found");
    std::optional<Result> verified;
    try {
      verified = client_.verify(user_id, required_entitlements());
    } catch (const latchkey::TransportError& error) {
      if (!is_unreachable(error)) return console_.say(failure_text(error));
      console_.log(std::string("server unreachable (") + error.what() + ")");
      return start_offline();
    } catch (const latchkey::SignatureError& error) {
      console_.log("response not verified (verify)");
      return console_.say(failure_text(error));
    }
    if (!verified->success()) {
      console_.log("saved session refused (" + verified->code_text() + ")");
      return clear_saved_session();
    }
    console_.say("Saved session verified.");
    const std::optional<Result> resumed = attempt("session start", [&] {
      return client_.resume_session(text_field(saved, "session_token"), user_id);
    });
    if (!resumed) return;
    if (!resumed->success()) {
      console_.log("session start refused (" + resumed->code_text() + ")");
      console_.say("Session start error: " + resumed->message());
      return clear_saved_session();
    }
    enter_main_screen(
        {user_id, text_field(saved, "username"), true, licensing_of(*verified), ""}, "resumed");
  }

  // The server cannot be reached: the offline licence stored at the last login, checked by the
  // SDK with the pinned key and this machine's id alone, may let the user in until its
  // valid_until. No session, so no heartbeats: the server would not answer them.
  void start_offline() {
    json stored;
    {
      std::lock_guard<std::mutex> lock(offline_state_mutex);
      stored = read_state(".offline.json");
    }
    if (text_field(stored, "license").empty()) {
      console_.log("no offline licence");
      console_.say(
          "Server Unreachable: Cannot reach the server, and there is no offline licence on this "
          "machine.");
      return;
    }
    latchkey::OfflineLicenseTerms terms;
    terms.clock_tolerance = std::chrono::seconds(CLOCK_TOLERANCE_SECONDS);
    const json application_id = stored.value("application_id", json());
    const json last_seen = stored.value("last_seen", json());
    if (application_id.is_number_integer()) terms.application_id = application_id.get<long long>();
    if (last_seen.is_number_integer())
      terms.last_seen_at = latchkey::TimePoint(std::chrono::seconds(last_seen.get<long long>()));
    const latchkey::OfflineLicenseCheck checked =
        client_.verify_offline_license(text_field(stored, "license"), terms);
    if (!checked.success) {
      console_.log(std::string("offline licence refused (") + latchkey::to_string(checked.code) +
                   ")");
      console_.say("Offline Licence Refused: " + offline_refusal_text(checked));
      return;
    }
    console_.log("offline licence accepted");
    const latchkey::OfflineLicenseContent& content = *checked.content;
    const json payload = json::parse(content.json, nullptr, false);
    const Licensing licensing =
        licensing_of(content.entitlements, payload.value("subscriptions", json()),
                     content.updates_until.value_or(""), content.meters);
    {
      std::lock_guard<std::mutex> lock(mutex_);
      session_ = {content.user_id, content.username, false, licensing, ""};
      is_main_ = true;
    }
    console_.say("Working offline until " + local_time_text(content.valid_until));
    console_.say("Welcome, " + content.username + "! Type 'help' for commands.");
    say_licensing(licensing, "");
  }

  // What the user is told when a licence is refused (title "Offline Licence Refused").
  static std::string offline_refusal_text(const latchkey::OfflineLicenseCheck& checked) {
    switch (checked.code) {
      case latchkey::OfflineLicenseCode::OTHER_MACHINE:
        return "This offline licence belongs to another machine.";
      case latchkey::OfflineLicenseCode::EXPIRED:
        return "This offline licence expired on " + local_time_text(checked.content->valid_until) +
               ".";
      case latchkey::OfflineLicenseCode::CLOCK_MOVED_BACK:
        return "The system clock moved backwards since the last run.";
      default: return "This offline licence is not signed by this application.";
    }
  }

  // An offline licence for the next start without the network. Failing here must not stop
  // the user, who is online: it is logged, and the previous licence (if any) stays.
  void check_out_offline_license() {
    std::optional<Result> checkout;
    try {
      checkout = client_.checkout(OFFLINE_LICENSE_TTL_SECONDS);
    } catch (const std::exception& error) {
      return console_.log("offline licence checkout failed (" + failure_text(error) + ")");
    }
    const std::string license = checkout->text("license").value_or("");
    if (!checkout->success() || license.empty())
      return console_.log("offline licence checkout failed (" + checkout->code_text() + " " +
                          checkout->message() + ")");
    store_issued_license(license);
  }

  // Keeps an offline licence the server has just issued (a checkout's, or a borrowed seat's),
  // checked now as a start without the network will check it: only a licence that will work
  // here is kept, and the application it names (in an answer signed for this request) is the one
  // a stored licence must name. Its valid_until, or nullopt once the refusal is logged.
  std::optional<std::string> store_issued_license(const std::string& license) {
    const latchkey::OfflineLicenseCheck checked = client_.verify_offline_license(license);
    if (!checked.success) {
      console_.log("offline licence not kept (" + offline_refusal_text(checked) + ")");
      return std::nullopt;
    }
    update_offline_state(std::make_pair(license, checked.content->application_id.value_or(0)));
    console_.log("offline licence saved (valid until " + checked.content->valid_until + ")");
    return checked.content->valid_until;
  }

  // Borrows this computer's floating seat for `days` ("borrow 3": a trip without the network):
  // the seat stays taken until the borrow ends, even once the session has ended, and the offline
  // licence the server answers, kept where a checked-out one is, lets the program run offline
  // until then. The plan says how many days it allows (none: Borrowing Not Allowed).
  void borrow_seat(const std::string& days_text) {
    if (!session_copy().is_online || !client_.session()) {
      console_.say("A seat is borrowed from the server: not available while working offline.");
      return;
    }
    const bool is_number = !days_text.empty() && days_text.size() <= 3 &&
                           std::all_of(days_text.begin(), days_text.end(),
                                       [](unsigned char c) { return std::isdigit(c) != 0; });
    const long long days = is_number ? std::stoll(days_text) : 0;
    if (days < 1 || days > MAX_BORROW_DAYS) {
      console_.say("Usage: borrow <days> (a whole number of days, 1 to " +
                   std::to_string(MAX_BORROW_DAYS) + ")");
      return;
    }
    const std::optional<Result> borrowed =
        attempt("borrow", [&] { return client_.borrow_seat(days); });
    if (!borrowed) return;
    if (!borrowed->success()) {
      console_.log("seat borrow refused (" + borrowed->code_text() + ")");
      report_refusal(*borrowed, "Borrow Failed");
      return;
    }
    console_.log("seat borrowed for " + std::to_string(days) + " days");
    const std::string until =
        store_issued_license(borrowed->text("license").value_or(""))
            .value_or(borrowed->text("valid_until").value_or(""));
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (is_main_) session_.borrowed_until = until;
    }
    console_.say("Seat Borrowed: " + borrowed->message() + " (borrowed until " +
                 local_time_text(until) + ")");
  }

  // Gives the borrowed seat back before the borrow ends, so another computer may take it; the
  // session goes on, on an ordinary seat again. The licence the borrow issued cannot be
  // recalled: the program discards it (the next login checks out another).
  void return_seat() {
    if (!session_copy().is_online || !client_.session()) {
      console_.say("A seat is returned to the server: not available while working offline.");
      return;
    }
    const std::optional<Result> returned = attempt("return", [&] { return client_.return_seat(); });
    if (!returned) return;
    if (!returned->success()) {
      console_.log("seat return refused (" + returned->code_text() + ")");
      report_refusal(*returned, "Return Failed");
      return;
    }
    console_.log("seat returned");
    {
      std::lock_guard<std::mutex> lock(mutex_);
      session_.borrowed_until.clear();
    }
    discard_offline_license();
    console_.log("borrowed licence discarded");
    console_.say("Seat Returned: " + returned->message());
  }

  // Downloads the offered release next to the program. The SDK keeps the file only when its
  // size and SHA-256 are the ones the login's answer signed: a proxy or a broken disk could
  // change the bytes, not the signed hash.
  void download_update(const latchkey::UpdateOffer& update) {
    console_.say("Downloading version " + update.version + "...");
    std::string version;
    for (const char c : update.version)
      version += std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-' ? c : '_';
    const std::filesystem::path destination = program_directory() / ("update-" + version + ".bin");
    try {
      const Result file = client_.download(update.file_id, destination.string(), update.sha256);
      if (!file.success()) {
        console_.log("download refused (" + file.code_text() + ")");
        report_refusal(file, "Download Failed");
        return;
      }
      console_.log("update saved");
      console_.say("Update saved to " + destination.string());
    } catch (const latchkey::SignatureError& error) {
      if (error.reason() != latchkey::SignatureErrorReason::Digest) {
        console_.log("response not verified (file)");
        return console_.say(failure_text(error));
      }
      console_.log("update refused (SHA-256 mismatch)");
      console_.say("Update Refused: The download does not match its signed SHA-256.");
    } catch (const latchkey::TransportError& error) {
      console_.log(std::string("download failed (") + error.what() + ")");
      console_.say(std::string("Download Failed: ") + error.what());
    }
  }

  // The vendor's message to everyone, and this user's own note: read with the session.
  void show_remote_values() {
    const auto show = [this](const std::string& label, const char* shown_as, const auto& read) {
      try {
        const Result value = read();
        if (value.success())
          console_.say(shown_as + value.text("value").value_or(""));
        else if (value.code() != ResultCode::VARIABLE_NOT_FOUND)
          console_.log(label + " not read (" + value.code_text() + ")");
      } catch (const std::exception& error) {
        console_.log(label + " not read (" + failure_text(error) + ")");
      }
    };
    show("welcome message", "Message: ",
         [this] { return client_.get_variable("welcome_message"); });
    show("note", "Note: ", [this] { return client_.get_user_variable("note"); });
  }

  // Saves the user's note on the server (their own user variable "note").
  void save_note(const std::string& value) {
    if (!session_copy().is_online || !client_.session()) {
      console_.say("Notes are kept on the server: not available while working offline.");
      return;
    }
    const std::optional<Result> saved =
        attempt("note", [&] { return client_.set_user_variable("note", value); });
    if (!saved) return;
    if (saved->code() == ResultCode::VARIABLE_READ_ONLY) {
      console_.log("note refused (VARIABLE_READ_ONLY)");
      console_.say("Note Is Read-Only: " + saved->message());
    } else if (!saved->success()) {
      console_.log("note not saved (" + saved->code_text() + ")");
      report_refusal(*saved, "Note Not Saved");
    } else {
      console_.log("note saved");
      console_.say("Note saved.");
    }
  }

  // The session the SDK opened (or took back): the main screen, an offline licence, the remote
  // values, then monitoring.
  void enter_main_screen(const Session& session, const std::string& how = "started") {
    console_.log("session " + how + " (" + token_preview(client_.session()->token) + ")");
    {
      std::lock_guard<std::mutex> lock(mutex_);
      session_ = session;
      is_main_ = true;
    }
    const std::string who = session.username.empty() ? session.user_id : session.username;
    console_.say("Welcome, " + who + "! Type 'help' for commands.");
    say_licensing(session.licensing, "");
    check_out_offline_license();
    show_remote_values();
    monitor_.start(
        session.user_id, [this](const Result& verified) { take_verified(verified); },
        [this] { forced_logout(); });
  }

  // Runs on the monitoring thread, after its session end call.
  void forced_logout() {
    clear_saved_session();
    std::lock_guard<std::mutex> lock(mutex_);
    session_ = Session{};
    is_main_ = false;
    form_.reset();
    console_.say("Session Expired: Your session has expired. Please login again.");
    console_.prompt("Username: ");
  }

  // One command at the "> " prompt; false for quit and exit.
  bool run_command(const std::string& command) {
    if (command.empty()) return true;
    if (command == "help") {
      for (const char* line :
           {"Commands:", "  status  show the logged-in user, the session and the entitlements",
            "  redeem  add a licence key to this account (asks for the key and password)",
            "  release release this device (log in again from another machine)",
            "  note    save a note of yours on the server",
            "  use     use a metered feature: counts one use against your first usage meter",
            "  borrow  borrow this computer's seat to work offline: borrow <days> (borrow 3: three "
            "days)",
            "  return  give a borrowed seat back early, for another computer",
            "  logout  end the session and return to the login prompt", "  help    show this list",
            "  quit    close the program; the next start resumes the session (also: exit)"})
        console_.say(line);
    } else if (command == "status") {
      const Session session = session_copy();
      const std::optional<latchkey::Session> live = client_.session();
      console_.say("Status: logged in as " +
                   (session.username.empty() ? std::string("(saved session)") : session.username));
      console_.say("  User ID: " + session.user_id);
      if (!session.is_online) {
        console_.say("  Session: none (working offline)");
      } else {
        console_.say("  Session: " + (live ? token_preview(live->token) : std::string("ended")));
        console_.say("  Verify failures: " + std::to_string(monitor_.verify_failures()) + "/" +
                     std::to_string(MAX_VERIFY_FAILURES));
        console_.say("  Heartbeat every " + std::to_string(HEARTBEAT_INTERVAL_SECONDS) +
                     " s, verify every " + std::to_string(VERIFY_INTERVAL_SECONDS) + " s");
      }
      say_licensing(session.licensing, "  ");
      if (!session.borrowed_until.empty())
        console_.say("  Seat borrowed until " + local_time_text(session.borrowed_until));
    } else if (command == "redeem") {
      ask({{{"Licence key: ", Field::Text}, {"Password: ", Field::Secret}},
           [this](const auto& in) { return redeem(in[0], in[1]), true; }, true});
    } else if (command == "note") {
      ask({{{"New note: ", Field::Raw}}, [this](const auto& in) { return save_note(in[0]), true; },
           true});
    } else if (command == "release") {
      console_.say(
          "Releasing this device frees its seat for another machine and ends this session here "
          "(an empty password cancels).");
      // A session resumed from an older save may not know its username: then it is asked.
      const std::string username = session_copy().username;
      Form form{{{"Password: ", Field::Secret}}, [this, username](const auto& in) {
                  return release_device(in.size() == 2 ? in[0] : username, in.back()), true;
                }, true};
      if (username.empty()) form.fields.insert(form.fields.begin(), {"Username: ", Field::Text});
      ask(std::move(form));
    } else if (command == "use") {
      use_metered_feature();
    } else if (command == "borrow" || command.rfind("borrow ", 0) == 0) {
      borrow_seat(trim(command.substr(6)));
    } else if (command == "return") {
      return_seat();
    } else if (command == "logout") {
      if (end_session()) {
        clear_saved_session();
        console_.log("logged out");
        console_.say("You have been logged out.");
      }
    } else if (command == "quit" || command == "exit") {
      leave();
      exit_code_ = 0;
      return false;
    } else {
      console_.say("Unknown command: " + command + ". Type 'help' for commands.");
    }
    return true;
  }

  // Stops monitoring and ends the session; false when the monitor had already logged out.
  bool end_session() {
    monitor_.stop();
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (!is_main_) return false;
      session_ = Session{};
      is_main_ = false;
      form_.reset();
    }
    end_client_session(client_, console_);  // nothing to end when working offline
    return true;
  }

  // Closing the program stops monitoring but leaves the session open: it is saved with its
  // token, and the next start resumes it without the password. `logout` is what ends it.
  void leave() {
    monitor_.stop();
    {
      std::lock_guard<std::mutex> lock(mutex_);
      session_ = Session{};
      is_main_ = false;
      form_.reset();
    }
    console_.say("Goodbye.");
  }

  // The title shown for a refusal, by its stable code (never by its text, which the vendor
  // may rewrite); codes without a title of their own get fallback_title.
  static std::string refusal_title(const std::string& code, const std::string& fallback_title) {
    static const std::map<std::string, std::string> titles = {
        {"VERSION_MISMATCH", "Update Required"},
        {"UPDATES_EXPIRED", "Updates Ended"},
        {"METER_EXHAUSTED", "Usage Limit Reached"},
        {"METER_NOT_FOUND", "Feature Not Included"},
        {"NO_SEAT_AVAILABLE", "All Seats In Use"},
        {"BORROW_NOT_ALLOWED", "Borrowing Not Allowed"},
        {"TRIAL_UNAVAILABLE", "Trial Unavailable"},
        {"TRIAL_EXPIRED", "Trial Ended"},
        {"TRIAL_USED", "Trial Already Used"},
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

  // A line from standard input; a password is not echoed when the input is a terminal.
  static bool read_line(std::string& line, bool is_hidden) {
#ifdef _WIN32
    HANDLE input = GetStdHandle(STD_INPUT_HANDLE);
    DWORD mode = 0;
    const bool can_hide = is_hidden && GetConsoleMode(input, &mode);
    if (can_hide) SetConsoleMode(input, mode & ~static_cast<DWORD>(ENABLE_ECHO_INPUT));
    const bool has_line = static_cast<bool>(std::getline(std::cin, line));
    if (can_hide) SetConsoleMode(input, mode);
#else
    termios saved{};
    const bool can_hide = is_hidden && isatty(STDIN_FILENO) && tcgetattr(STDIN_FILENO, &saved) == 0;
    if (can_hide) {
      termios quiet = saved;
      quiet.c_lflag &= ~static_cast<tcflag_t>(ECHO);
      tcsetattr(STDIN_FILENO, TCSANOW, &quiet);
    }
    const bool has_line = static_cast<bool>(std::getline(std::cin, line));
    if (can_hide) tcsetattr(STDIN_FILENO, TCSANOW, &saved);
#endif
    if (can_hide) std::cout << std::endl;
    return has_line;
  }

  Console console_;
  latchkey::Client client_;
  SessionMonitor monitor_;
  // Guards what the monitoring thread may change when it logs out: the screen and the session.
  std::mutex mutex_;
  bool is_main_ = false;  // the "> " prompt (else the login screen)
  std::optional<Form> form_;
  std::vector<std::string> answers_;  // to form_'s prompts so far
  Session session_;
  std::optional<UnansweredUse> unanswered_use_;  // only the input thread reads or writes it
  int exit_code_ = 0;
};

}  // namespace

int main() {
  std::cout << std::unitbuf;  // every line reaches a pipe at once
  try {
    ConsoleApp app;
    return app.run();
  } catch (const std::invalid_argument& error) {
    // The client refuses settings that cannot be right, such as the placeholders unfilled.
    std::cout << "This sample is not configured: copy it from the Latchkey console ("
              << error.what() << ")." << std::endl;
    return 1;
  }
}
