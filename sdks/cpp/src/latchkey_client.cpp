#include <latchkey/answer_signature.hpp>
#include <latchkey/client.hpp>

#include "download_file.hpp"
#include "encoding.hpp"
#include "http_transport.hpp"
#include "machine_id.hpp"
#include "result_fields.hpp"

#include <algorithm>
#include <cctype>
#include <condition_variable>
#include <ctime>
#include <mutex>
#include <thread>

namespace latchkey {

namespace {

constexpr const char* api_prefix = "/api/v1";
constexpr std::size_t max_answer_bytes = 4 * 1024 * 1024;
constexpr long long first_retry_delay_ms = 250;
constexpr std::chrono::minutes min_download_timeout{10};

// Heartbeat answers that mean the session is over; any other refusal (a rate limit) is not a
// revocation and the loop goes on.
bool is_session_ending(const std::optional<ResultCode>& code) {
  return code == ResultCode::SESSION_INVALID || code == ResultCode::ACCOUNT_DISABLED ||
         code == ResultCode::ACCOUNT_EXPIRED || code == ResultCode::APP_DISABLED ||
         code == ResultCode::NO_ACTIVE_SUBSCRIPTION || code == ResultCode::EMAIL_NOT_VERIFIED ||
         code == ResultCode::USER_NOT_FOUND;
}

const char* refusal_message(SignatureErrorReason reason) {
  switch (reason) {
    case SignatureErrorReason::Unsigned: return "The answer is not signed";
    case SignatureErrorReason::Signature:
      return "The answer's signature does not hold for this application's key and this request";
    case SignatureErrorReason::Nonce:
      return "The answer is signed for a request without this request's nonce";
    case SignatureErrorReason::Stale: return "The answer was signed too far from this machine's clock";
    case SignatureErrorReason::Digest: return "The download does not match its signed SHA-256";
  }
  return "The answer is not genuine";
}

std::optional<int> retry_after_of(const std::map<std::string, std::string>& headers) {
  const auto found = headers.find("retry-after");
  if (found == headers.end() || found->second.empty() || found->second.size() > 6)
    return std::nullopt;
  for (const char c : found->second)
    if (c < '0' || c > '9') return std::nullopt;
  return std::stoi(found->second);
}

std::optional<std::string> header_of(const std::map<std::string, std::string>& headers,
                                     const char* name) {
  const auto found = headers.find(name);
  if (found == headers.end()) return std::nullopt;
  return found->second;
}

bool is_header_safe(const std::string& text) {
  return std::none_of(text.begin(), text.end(), [](char c) {
    const auto byte = static_cast<unsigned char>(c);
    return byte < 0x20 || byte == 0x7f;
  });
}

bool is_sha256_hex(const std::string& text) {
  return text.size() == 64 && std::all_of(text.begin(), text.end(), [](char c) {
           return std::isxdigit(static_cast<unsigned char>(c)) != 0;
         });
}

// The origin of an http(s) URL ("https://host:port"), or "" when it is none.
std::string origin_of(const std::string& url) {
  const std::size_t scheme_end = url.find("://");
  if (scheme_end == std::string::npos) return "";
  const std::string scheme = detail::lower(url.substr(0, scheme_end));
  if (scheme != "http" && scheme != "https") return "";
  const std::size_t host_end = url.find_first_of("/?#", scheme_end + 3);
  const std::string origin = url.substr(0, host_end);
  return origin.size() > scheme_end + 3 ? origin : "";
}

// A URL of an answer (a download's, usually "/api/v1/downloads/…") against the base URL.
std::string resolve_url(const std::string& base_url, const std::string& url) {
  if (!origin_of(url).empty()) return url;
  if (!url.empty() && url[0] == '/') return origin_of(base_url) + url;
  return base_url + "/" + url;
}

std::string json_text(const detail::Json& payload) {
  try {
    return payload.dump();
  } catch (const detail::Json::type_error&) {
    throw std::invalid_argument("every text sent must be valid UTF-8");
  }
}

// A random (version 4) UUID, as an increment's idempotency key when the program gives none.
std::string random_uuid() {
  std::string hex = detail::random_hex(16);
  hex[12] = '4';
  hex[16] = "89ab"[std::stoi(hex.substr(16, 1), nullptr, 16) & 3];
  return hex.substr(0, 8) + "-" + hex.substr(8, 4) + "-" + hex.substr(12, 4) + "-" +
         hex.substr(16, 4) + "-" + hex.substr(20);
}

// Text as one segment of a URL's path: every byte but the unreserved ones percent-encoded.
std::string path_segment(const std::string& text) {
  static const char digits[] = "0123456789ABCDEF";
  std::string segment;
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (std::isalnum(byte) != 0 || c == '-' || c == '_' || c == '.' || c == '~') {
      segment += c;
    } else {
      segment += '%';
      segment += digits[byte >> 4];
      segment += digits[byte & 15];
    }
  }
  return segment;
}

template <typename Callback, typename Argument>
void report_safely(const Callback& callback, const Argument& argument) {
  // The program's own failure: nothing this library can do with it, and the loop must outlive it.
  try {
    if (callback) callback(argument);
  } catch (...) {
  }
}

}  // namespace

namespace detail {

struct HeartbeatLoop {
  HeartbeatOptions options;
  std::mutex mutex;
  std::condition_variable wake;
  bool is_stopped = false;
  std::atomic<bool> is_abandoned{false};  // stops an exchange or a retry's wait in flight
  std::thread thread;
};

}  // namespace detail

using detail::HeartbeatLoop;

struct Client::State {
  std::string base_url;
  std::string api_key;
  std::string public_key;  // lower-case hex
  std::string version;
  ClientOptions options;
  std::string hwid;
  // The connections this client keeps open, for its callers' threads and its heartbeat's alike
  // (the pool is thread-safe; mutable: sending on it changes nothing a caller sees).
  mutable detail::ConnectionPool connections;

  std::mutex mutex;  // guards session, borrowed_seat_token and heartbeat_loop
  std::shared_ptr<const Session> session;
  // The token of the session whose seat this client last borrowed: the seat stays borrowed
  // after that session ends (which forgets the session), and return_seat gives it back.
  std::optional<std::string> borrowed_seat_token;
  std::shared_ptr<HeartbeatLoop> heartbeat_loop;
};

namespace {

using State = Client::State;

// Stops a loop taken out of the client. No callback follows unless it is the loop's own
// thread stopping itself (a revocation reports once, after this).
void stop_loop(const std::shared_ptr<HeartbeatLoop>& loop) {
  {
    std::lock_guard<std::mutex> lock(loop->mutex);
    loop->is_stopped = true;
  }
  loop->is_abandoned = true;
  loop->wake.notify_all();
  if (loop->thread.get_id() == std::this_thread::get_id())
    loop->thread.detach();  // it ends by itself once its beat returns
  else if (loop->thread.joinable())
    loop->thread.join();
}

std::shared_ptr<HeartbeatLoop> take_loop(State& state) {
  std::shared_ptr<HeartbeatLoop> loop;
  loop.swap(state.heartbeat_loop);
  return loop;
}

void forget_session(State& state) {
  std::shared_ptr<HeartbeatLoop> loop;
  {
    std::lock_guard<std::mutex> lock(state.mutex);
    state.session.reset();
    loop = take_loop(state);
  }
  if (loop) stop_loop(loop);
}

std::shared_ptr<const Session> require_session(State& state, const char* call) {
  std::lock_guard<std::mutex> lock(state.mutex);
  if (!state.session) throw std::logic_error(std::string(call) + " needs a session: log in first");
  return state.session;
}

std::shared_ptr<const Session> current_session(State& state) {
  std::lock_guard<std::mutex> lock(state.mutex);
  return state.session;
}

// Waits before trying again; an abandoned loop stops waiting at once.
void pause(long long milliseconds, const std::atomic<bool>* abandoned) {
  const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(milliseconds);
  while (std::chrono::steady_clock::now() < until) {
    if (abandoned != nullptr && abandoned->load())
      throw TransportError(TransportErrorReason::Unreachable, "The exchange was abandoned");
    std::this_thread::sleep_for(std::min<std::chrono::steady_clock::duration>(
        std::chrono::milliseconds(20), until - std::chrono::steady_clock::now()));
  }
}

// One request and its checked answer; a call that is not safe to repeat is never sent twice,
// not even by libcurl itself (see perform_request).
Result exchange(const State& state, const std::string& path, const detail::Json& payload,
                bool is_safe, const std::atomic<bool>* abandoned) {
  const std::string nonce = detail::random_hex(16);
  detail::HttpRequest request;
  request.url = state.base_url + api_prefix + path;
  request.headers = {"Content-Type: application/json", "Accept: application/json",
                     "X-API-Key: " + state.api_key, "X-Request-Nonce: " + nonce,
                     // No 100-continue round trip: the body is small and always wanted.
                     "Expect:"};
  request.body = json_text(payload);
  request.timeout = state.options.timeout;
  request.proxy = state.options.proxy;
  request.cancel = abandoned;
  request.is_repeatable = is_safe;
  const detail::HttpResponse response =
      detail::send_request(state.connections, request, max_answer_bytes);
  const std::optional<int> retry_after = retry_after_of(response.headers);
  // A server fault is no outcome, signed or not (a proxy's error page is not): the caller
  // learns the server failed, and a safe call tries again.
  if (response.status >= 500)
    throw TransportError(TransportErrorReason::ServerError,
                         "The server failed (HTTP " + std::to_string(response.status) + ")",
                         response.status, retry_after);
  const std::optional<SignatureErrorReason> refusal = check_answer_signature(
      state.public_key, header_of(response.headers, "x-signature-timestamp"),
      header_of(response.headers, "x-signature-ed25519"), nonce, response.body, std::nullopt,
      static_cast<long long>(state.options.max_clock_skew.count()));
  if (refusal) throw SignatureError(*refusal, refusal_message(*refusal));
  detail::Json data = detail::Json::parse(response.body, nullptr, false);
  if (data.is_discarded())
    throw TransportError(TransportErrorReason::Malformed, "The answer is not JSON",
                         response.status);
  if (!data.is_object() || !data.contains("code") || !data["code"].is_string())
    throw TransportError(TransportErrorReason::Malformed, "The answer has no code",
                         response.status);
  const bool is_success = data.contains("success") && data["success"].is_boolean() &&
                          data["success"].get<bool>() && data["code"] == "OK";
  data["success"] = is_success;
  if (!data.contains("message") || !data["message"].is_string()) data["message"] = "";
  if (data["code"] == "RATE_LIMITED" && retry_after) data["retry_after_seconds"] = *retry_after;
  // The server leaves the meters out for a user without any: where the answer carries the
  // user's licensing (its entitlements), a program reads an empty list instead of nothing.
  if (data.contains("entitlements") && data["entitlements"].is_array() && !data.contains("meters"))
    data["meters"] = detail::Json::array();
  return detail::result_of(std::move(data));
}

// One call, tried again only when is_safe (its repetition changes nothing; a meter's increment
// counts once per idempotency key, which its retries keep): after a failure without an answer
// or a server fault (backing off, or as Retry-After says), and after a 429 whose Retry-After
// is within max_retry_delay. A login, a trial's start, a registration, a key's redemption, a
// device release or a call that sends a mail is never sent twice: its 429 is its answer.
Result call(const State& state, const std::string& path, bool is_safe,
            const detail::Json& payload, const std::atomic<bool>* abandoned = nullptr) {
  const long long max_delay_ms = static_cast<long long>(state.options.max_retry_delay.count());
  for (int attempt = 0;; ++attempt) {
    const bool is_last_try = !is_safe || attempt >= state.options.retries;
    std::optional<Result> answer;
    try {
      answer = exchange(state, path, payload, is_safe, abandoned);
    } catch (const TransportError& error) {
      if (is_last_try || error.reason() == TransportErrorReason::Malformed) throw;
      const long long delay_ms = error.retry_after_seconds()
                                     ? *error.retry_after_seconds() * 1000LL
                                     : first_retry_delay_ms << attempt;
      if (delay_ms > max_delay_ms) throw;
      pause(delay_ms, abandoned);
      continue;
    }
    const std::optional<int> wait = answer->retry_after_seconds();
    if (answer->code() != ResultCode::RATE_LIMITED || is_last_try || !wait ||
        *wait * 1000LL > max_delay_ms)
      return *answer;
    pause(*wait * 1000LL, abandoned);
  }
}

Result with_field(const Result& result, const char* name, detail::Json value) {
  detail::Json fields = result.fields().fields;
  fields[name] = std::move(value);
  return detail::result_of(std::move(fields));
}

// A login the user's entitlements refused: the login's answer with the verify's refusal over
// it (success, code, message, missing_entitlements...), and no token, since no session opened.
Result refused_login(const Result& login, const Result& verify) {
  detail::Json fields = login.fields().fields;
  const detail::Json& refusal = verify.fields().fields;
  for (auto field = refusal.begin(); field != refusal.end(); ++field)
    fields[field.key()] = field.value();
  fields.erase("session_token");
  return detail::result_of(std::move(fields));
}

// After a successful login: the required entitlements checked (verify), then session/track
// start with the login's token, from the machine (hwid, the client's when empty) the login
// named.
Result open_session(State& state, const Result& login,
                    const std::vector<std::string>& required_entitlements,
                    const std::string& hwid = "") {
  const std::optional<std::string> user_id = login.text("user_id");
  if (!login.success() || !user_id) return login;
  forget_session(state);
  if (!required_entitlements.empty()) {
    const Result verify = call(state, "/verify", true,
                               {{"user_id", *user_id}, {"entitlements", required_entitlements}});
    if (!verify.success()) return refused_login(login, verify);
  }
  std::string token = login.text("session_token").value_or("");
  if (token.empty())
    token = "sess_" + detail::random_hex(16) + "_" +
            std::to_string(static_cast<long long>(std::time(nullptr)));
  const Result start = call(state, "/session/track", true,
                            {{"action", "start"},
                             {"user_id", *user_id},
                             {"session_token", token},
                             {"hwid", hwid.empty() ? state.hwid : hwid}});
  if (!start.success()) return start;
  {
    std::lock_guard<std::mutex> lock(state.mutex);
    state.session = std::make_shared<const Session>(Session{token, *user_id});
  }
  return with_field(login, "session_token", token);
}

Result heartbeat_of(State& state, const std::atomic<bool>* abandoned) {
  const std::shared_ptr<const Session> session = require_session(state, "heartbeat");
  const Result answer = call(state, "/session/track", true,
                             {{"action", "heartbeat"}, {"session_token", session->token}},
                             abandoned);
  if (answer.success() || !is_session_ending(answer.code())) return answer;
  std::shared_ptr<HeartbeatLoop> loop;
  {
    std::lock_guard<std::mutex> lock(state.mutex);
    if (state.session != session) return answer;  // a newer login's session stays
    state.session.reset();
    loop = take_loop(state);
  }
  if (loop) {
    stop_loop(loop);
    report_safely(loop->options.on_revoked, answer);
  }
  return answer;
}

void run_heartbeat(std::shared_ptr<State> state, std::shared_ptr<HeartbeatLoop> loop) {
  std::unique_lock<std::mutex> lock(loop->mutex);
  while (!loop->wake.wait_for(lock, loop->options.interval, [&] { return loop->is_stopped; })) {
    lock.unlock();
    try {
      // A revocation stops this loop and reaches on_revoked from heartbeat_of itself.
      heartbeat_of(*state, &loop->is_abandoned);
    } catch (const std::exception& error) {
      if (!loop->is_abandoned) report_safely(loop->options.on_error, error);
    } catch (...) {
    }
    lock.lock();
  }
}

}  // namespace

Client::Client(std::string base_url, std::string api_key, std::string public_key,
               std::string version, ClientOptions options)
    : state_(std::make_shared<State>()) {
  if (origin_of(base_url).empty())
    throw std::invalid_argument("base_url must be an http: or https: URL");
  while (!base_url.empty() && base_url.back() == '/') base_url.pop_back();
  if (api_key.empty() || !is_header_safe(api_key))
    throw std::invalid_argument("api_key is required (one line of text)");
  detail::public_key_from_hex(public_key);
  if (!options.proxy.empty() && detail::lower(options.proxy).rfind("http://", 0) != 0)
    throw std::invalid_argument(
        "proxy must be an http: URL (https targets go through a CONNECT tunnel)");
  if (options.timeout.count() <= 0) throw std::invalid_argument("timeout must be positive");
  detail::ensure_sodium();
  state_->base_url = std::move(base_url);
  state_->api_key = std::move(api_key);
  state_->public_key = detail::lower(public_key);
  state_->version = std::move(version);
  state_->hwid = options.hwid ? *options.hwid
                              : detail::hash_machine_id(detail::read_raw_machine_id(),
                                                        state_->public_key);
  state_->options = std::move(options);
}

Client::~Client() { stop_heartbeat(); }

Result Client::register_user(const std::string& username, const std::string& password,
                             const std::optional<std::string>& email,
                             const std::optional<std::string>& license_key) {
  detail::Json payload = {{"username", username}, {"password", password}, {"hwid", state_->hwid}};
  if (email && !email->empty()) payload["email"] = *email;
  if (license_key && !license_key->empty()) payload["license_key"] = *license_key;
  return call(*state_, "/register", false, payload);
}

Result Client::login(const std::string& username, const std::string& password) {
  return login(username, password, {});
}

Result Client::login(const std::string& username, const std::string& password,
                     const std::vector<std::string>& required_entitlements) {
  detail::Json payload = {{"username", username},
                          {"password", password},
                          {"version", state_->version},
                          {"hwid", state_->hwid}};
  if (!state_->options.device_name.empty()) payload["device_name"] = state_->options.device_name;
  return open_session(*state_, call(*state_, "/login", false, payload), required_entitlements);
}

Result Client::license_login(const std::string& license_key) {
  return license_login(license_key, {});
}

Result Client::license_login(const std::string& license_key,
                             const std::vector<std::string>& required_entitlements) {
  detail::Json payload = {
      {"license_key", license_key}, {"version", state_->version}, {"hwid", state_->hwid}};
  if (!state_->options.device_name.empty()) payload["device_name"] = state_->options.device_name;
  return open_session(*state_, call(*state_, "/license/login", false, payload),
                      required_entitlements);
}

Result Client::start_trial(const std::optional<std::string>& hwid,
                           const std::optional<std::string>& username,
                           const std::vector<std::string>& required_entitlements) {
  const std::string machine = hwid ? *hwid : state_->hwid;
  detail::Json payload = {{"hwid", machine}, {"version", state_->version}};
  if (username && !username->empty()) payload["username"] = *username;
  if (!state_->options.device_name.empty()) payload["device_name"] = state_->options.device_name;
  return open_session(*state_, call(*state_, "/trial", false, payload), required_entitlements,
                      machine);
}

Result Client::resume_session(const std::string& token, const std::string& user_id) {
  forget_session(*state_);
  const Result answer =
      call(*state_, "/session/track", true, {{"action", "heartbeat"}, {"session_token", token}});
  if (answer.success()) {
    std::lock_guard<std::mutex> lock(state_->mutex);
    state_->session = std::make_shared<const Session>(Session{token, user_id});
  }
  return answer;
}

Result Client::redeem(const std::string& username, const std::string& password,
                      const std::string& license_key) {
  return call(*state_, "/license/redeem", false,
              {{"username", username}, {"password", password}, {"license_key", license_key}});
}

Result Client::verify(const std::optional<std::string>& user_id,
                      const std::optional<std::vector<std::string>>& entitlements) {
  detail::Json payload = {
      {"user_id", user_id ? *user_id : require_session(*state_, "verify")->user_id}};
  if (entitlements) payload["entitlements"] = *entitlements;
  return call(*state_, "/verify", true, payload);
}

Result Client::heartbeat() { return heartbeat_of(*state_, nullptr); }

std::optional<Result> Client::end_session() {
  std::shared_ptr<const Session> session = current_session(*state_);
  forget_session(*state_);
  if (!session) return std::nullopt;
  return call(*state_, "/session/track", true,
              {{"action", "end"}, {"session_token", session->token}});
}

Result Client::get_variable(const std::string& name) {
  detail::Json payload = {{"name", name}};
  if (const auto session = current_session(*state_)) payload["session_token"] = session->token;
  return call(*state_, "/var", true, payload);
}

Result Client::get_user_variable(const std::string& name) {
  const auto session = require_session(*state_, "get_user_variable");
  return call(*state_, "/user-var", true, {{"session_token", session->token}, {"name", name}});
}

Result Client::set_user_variable(const std::string& name, const std::string& value) {
  const auto session = require_session(*state_, "set_user_variable");
  return call(*state_, "/user-var/set", true,
              {{"session_token", session->token}, {"name", name}, {"value", value}});
}

Result Client::use_meter(const std::string& name, long long amount,
                         const std::optional<std::string>& idempotency_key) {
  const auto session = require_session(*state_, "use_meter");
  // The name is one segment of the path, whatever it holds.
  return call(*state_, "/meters/" + path_segment(name) + "/use", true,
              {{"session_token", session->token},
               {"amount", amount},
               {"idempotency_key", idempotency_key ? *idempotency_key : random_uuid()}});
}

Result Client::reset_devices(const std::string& username, const std::string& password,
                             bool all_devices) {
  detail::Json payload = {{"username", username}, {"password", password}};
  if (all_devices)
    payload["all"] = true;
  else
    payload["hwid"] = state_->hwid;
  const Result answer = call(*state_, "/devices/reset", false, payload);
  if (answer.success()) forget_session(*state_);
  return answer;
}

Result Client::forgot_password(const std::optional<std::string>& username,
                              const std::optional<std::string>& email) {
  if (username.has_value() == email.has_value())
    throw std::invalid_argument("forgot_password: give either username or email");
  detail::Json payload = detail::Json::object();
  if (username)
    payload["username"] = *username;
  else
    payload["email"] = *email;
  return call(*state_, "/password/forgot", false, payload);
}

Result Client::resend_verification(const std::string& username, const std::string& password) {
  return call(*state_, "/email/verify/resend", false,
              {{"username", username}, {"password", password}});
}

Result Client::checkout(std::optional<long long> ttl_seconds, bool encrypt) {
  detail::Json payload = {{"session_token", require_session(*state_, "checkout")->token}};
  if (ttl_seconds) payload["ttl_seconds"] = *ttl_seconds;
  if (encrypt) payload["encrypt"] = true;
  return call(*state_, "/license/checkout", true, payload);
}

Result Client::borrow_seat(long long days, bool encrypt) {
  const std::string token = require_session(*state_, "borrow_seat")->token;
  detail::Json payload = {{"session_token", token}, {"days", days}};
  if (encrypt) payload["encrypt"] = true;
  Result answer = call(*state_, "/session/borrow", true, payload);
  if (answer.success()) {
    std::lock_guard<std::mutex> lock(state_->mutex);
    state_->borrowed_seat_token = token;
  }
  return answer;
}

Result Client::return_seat() {
  std::optional<std::string> token;
  {
    std::lock_guard<std::mutex> lock(state_->mutex);
    token = state_->borrowed_seat_token;
    if (!token && state_->session) token = state_->session->token;
  }
  if (!token)
    throw std::logic_error(
        "return_seat needs a session (or a seat this client borrowed): log in first");
  Result answer = call(*state_, "/session/return", true, {{"session_token", *token}});
  // Given back, or never borrowed under that token: either way nothing is left to return.
  if (answer.success() || answer.code() == ResultCode::SESSION_INVALID) {
    std::lock_guard<std::mutex> lock(state_->mutex);
    if (state_->borrowed_seat_token == token) state_->borrowed_seat_token.reset();
  }
  return answer;
}

Result Client::download(const std::string& file_id, const std::string& destination,
                        const std::optional<std::string>& sha256) {
  detail::Json payload = {{"file_id", file_id}};
  if (const auto session = current_session(*state_)) payload["session_token"] = session->token;
  const Result answer = call(*state_, "/file", true, payload);
  if (!answer.success()) return answer;
  const detail::Json& fields = answer.fields().fields;
  const auto url = fields.find("url");
  const auto size = fields.find("size");
  const auto digest = fields.find("sha256");
  if (url == fields.end() || !url->is_string() || size == fields.end() ||
      !size->is_number_unsigned() || digest == fields.end() || !digest->is_string())
    throw TransportError(TransportErrorReason::Malformed,
                         "The file answer has no URL, size or SHA-256");
  if (sha256 && detail::lower(*sha256) != detail::lower(digest->get<std::string>()))
    throw SignatureError(SignatureErrorReason::Digest,
                         "The file is not the one the update offer signed");
  detail::HttpRequest request;
  request.url = resolve_url(state_->base_url, url->get<std::string>());
  request.is_post = false;
  request.timeout = std::max<std::chrono::milliseconds>(state_->options.timeout,
                                                        min_download_timeout);
  request.proxy = state_->options.proxy;
  detail::download_file(state_->connections, request, destination,
                        size->get<unsigned long long>(), digest->get<std::string>());
  return with_field(answer, "path", destination);
}

std::optional<UpdateOffer> Client::check_for_update(const Result& answer) const {
  const std::optional<ResultCode> code = answer.code();
  if (code != ResultCode::VERSION_MISMATCH && code != ResultCode::UPDATES_EXPIRED)
    return std::nullopt;
  const detail::Json& fields = answer.fields().fields;
  const auto update = fields.find("update");
  if (update == fields.end() || !update->is_object()) return std::nullopt;
  const auto version = update->find("version");
  const auto file_id = update->find("file_id");
  const auto size = update->find("size");
  const auto sha256 = update->find("sha256");
  const bool is_offer = version != update->end() && version->is_string() &&
                        file_id != update->end() && file_id->is_string() &&
                        size != update->end() && size->is_number_unsigned() &&
                        sha256 != update->end() && sha256->is_string() &&
                        is_sha256_hex(sha256->get<std::string>());
  if (!is_offer) return std::nullopt;
  return UpdateOffer{version->get<std::string>(), file_id->get<std::string>(),
                     size->get<unsigned long long>(), sha256->get<std::string>()};
}

OfflineLicenseCheck Client::verify_offline_license(const std::string& license,
                                                   const OfflineLicenseTerms& terms) const {
  return latchkey::verify_offline_license(license, state_->public_key, state_->hwid, terms);
}

OfflineLicenseCheck Client::verify_offline_license(const std::string& license,
                                                   const std::string& hwid,
                                                   const OfflineLicenseTerms& terms) const {
  return latchkey::verify_offline_license(license, state_->public_key, hwid, terms);
}

std::string Client::create_activation_request(const ActivationRequestOptions& options) const {
  return create_activation_request(state_->hwid, options);
}

std::string Client::create_activation_request(const std::string& hwid,
                                              const ActivationRequestOptions& options) const {
  ActivationRequestOptions named = options;
  if (!named.device_name && !state_->options.device_name.empty())
    named.device_name = state_->options.device_name;
  return latchkey::create_activation_request(state_->public_key, hwid, named);
}

void Client::start_heartbeat(HeartbeatOptions options) {
  require_session(*state_, "start_heartbeat");
  if (options.interval.count() <= 0) throw std::invalid_argument("interval must be positive");
  auto loop = std::make_shared<HeartbeatLoop>();
  loop->options = std::move(options);
  {
    // The new thread waits on this lock first, so it cannot see its std::thread unassigned.
    std::lock_guard<std::mutex> loop_lock(loop->mutex);
    loop->thread = std::thread(run_heartbeat, state_, loop);
  }
  std::shared_ptr<HeartbeatLoop> replaced;
  {
    std::lock_guard<std::mutex> lock(state_->mutex);
    replaced = take_loop(*state_);
    state_->heartbeat_loop = loop;
  }
  if (replaced) stop_loop(replaced);
}

void Client::stop_heartbeat() {
  std::shared_ptr<HeartbeatLoop> loop;
  {
    std::lock_guard<std::mutex> lock(state_->mutex);
    loop = take_loop(*state_);
  }
  if (loop) stop_loop(loop);
}

std::string Client::machine_id() const {
  return detail::hash_machine_id(detail::read_raw_machine_id(), state_->public_key);
}

std::string Client::hash_machine_id(const std::string& raw_machine_id,
                                    const std::string& public_key_hex) {
  return detail::hash_machine_id(raw_machine_id, public_key_hex);
}

std::string Client::raw_machine_id() { return detail::read_raw_machine_id(); }

const std::string& Client::hwid() const { return state_->hwid; }

std::optional<Session> Client::session() const {
  const auto session = current_session(*state_);
  if (!session) return std::nullopt;
  return *session;
}

}  // namespace latchkey
