// The C++ SDK's side of the conformance run (sdks/test/cpp-conformance.test.ts): one
// long-lived process that performs what the TypeScript runner asks through the INSTALLED
// latchkey library, one JSON request per line on stdin, one JSON answer per line on stdout.
// The runner keeps the scenarios, the owner's actions, the hostile proxy and every
// expectation; this file only translates the protocol's camelCase names into the library's,
// calls it and reports what it answered or threw.

#include <latchkey/latchkey.hpp>

#include <nlohmann/json.hpp>

#include <curl/curl.h>
#include <dlfcn.h>

#include <chrono>
#include <cstdio>
#include <iostream>
#include <map>
#include <memory>
#include <mutex>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include <latchkey.h>

namespace {

using Json = nlohmann::json;

std::optional<latchkey::TimePoint> time_of(const Json& input, const char* name) {
  const auto found = input.find(name);
  if (found == input.end() || found->is_null()) return std::nullopt;
  const auto time = latchkey::parse_utc_time(found->get<std::string>());
  if (!time) throw std::invalid_argument(std::string(name) + " is not an ISO time");
  return time;
}

std::optional<std::string> text_of(const Json& input, const char* name) {
  const auto found = input.find(name);
  if (found == input.end() || found->is_null()) return std::nullopt;
  return found->get<std::string>();
}

std::vector<std::string> texts_of(const Json& input, const char* name) {
  const auto found = input.find(name);
  if (found == input.end() || found->is_null()) return {};
  return found->get<std::vector<std::string>>();
}

Json plain(const latchkey::Result& result) { return Json::parse(result.to_json()); }

Json plain(const latchkey::OfflineLicenseCheck& check) {
  return Json::parse(latchkey::to_json(check));
}

double milliseconds_since(std::chrono::steady_clock::time_point started) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started)
      .count();
}

size_t append_to_string(char* data, size_t size, size_t count, void* user) {
  static_cast<std::string*>(user)->append(data, size * count);
  return size * count;
}

// The file the library was loaded from: the runner checks it is the installed one.
std::string library_file() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&latchkey_version), &info) == 0 || info.dli_fname == nullptr)
    return "";
  return info.dli_fname;
}

class Driver {
 public:
  Json handle(const std::string& op, const Json& request) {
    if (op == "info") return info();
    if (op == "signatureVector") return signature_vector(request);
    if (op == "offlineVector") return offline_vector(request);
    if (op == "machineIdVector")
      return latchkey::Client::hash_machine_id(request.at("rawMachineId"),
                                               request.at("publicKey"));
    if (op == "activationRequestVector") return activation_request_vector(request);
    if (op == "thisMachine") return this_machine(request);
    if (op == "construct") return construct(request.at("options"), text_of(request, "client"));
    if (op == "call")
      return call(request.at("call"), request.value("input", Json::object()),
                  text_of(request, "client"));
    if (op == "timeCalls")
      return time_calls(request.at("call"), request.value("input", Json::object()),
                        request.at("count"));
    if (op == "timeRawCalls")
      return time_raw_calls(request.at("url"), request.at("apiKey"), request.at("body"),
                            request.at("count"));
    if (op == "heartbeatState") return heartbeat_state();
    if (op == "dispose") {
      others_.clear();
      client_.reset();
      return nullptr;
    }
    throw std::invalid_argument("unknown op " + op);
  }

 private:
  static Json info() {
    return {
        {"version", LATCHKEY_VERSION_STRING},
        {"cVersion", latchkey_version()},
        {"libraryFile", library_file()},
        {"resultCodes", latchkey::result_codes()},
        {"offlineLicenseCodes", latchkey::offline_license_codes()},
        {"signatureErrorReasons", latchkey::signature_error_reasons()},
        {"transportErrorReasons", latchkey::transport_error_reasons()},
    };
  }

  static Json signature_vector(const Json& request) {
    const auto reason = latchkey::check_answer_signature(
        request.at("publicKey"), text_of(request, "timestamp"), text_of(request, "signature"),
        request.at("nonce"), request.at("body"), request.at("now").get<long long>());
    return reason ? Json(latchkey::to_string(*reason)) : Json(nullptr);
  }

  static Json offline_vector(const Json& request) {
    latchkey::OfflineLicenseTerms terms;
    if (request.contains("applicationId"))
      terms.application_id = request.at("applicationId").get<long long>();
    terms.now = time_of(request, "now");
    terms.last_seen_at = time_of(request, "lastSeenAt");
    return plain(latchkey::verify_offline_license(request.at("license"), request.at("publicKey"),
                                                  request.at("hwid"), terms));
  }

  static Json activation_request_vector(const Json& request) {
    latchkey::ActivationRequestOptions options;
    options.license_key = text_of(request, "licenseKey");
    options.username = text_of(request, "username");
    options.device_name = text_of(request, "deviceName");
    options.encrypt = request.value("encrypt", false);
    options.nonce = text_of(request, "nonce");
    options.now = time_of(request, "now");
    try {
      return {{"text", latchkey::create_activation_request(request.at("publicKey"),
                                                           request.at("hwid"), options)}};
    } catch (const std::invalid_argument& error) {
      return {{"refused", error.what()}};
    }
  }

  static Json this_machine(const Json& request) {
    const std::string public_key = request.at("publicKey");
    const latchkey::Client client(request.at("baseUrl"), "lk_live_unused", public_key, "1.0.0");
    const std::string raw = latchkey::Client::raw_machine_id();
    return {{"machineId", client.machine_id()},
            {"hashedRaw", latchkey::Client::hash_machine_id(raw, public_key)},
            {"raw", raw},
            {"hwid", client.hwid()}};
  }

  // With a name, one of the scenario's other clients (other computers); else the scenario's
  // own, anew.
  Json construct(const Json& options, const std::optional<std::string>& name) {
    latchkey::ClientOptions settings;
    settings.timeout = std::chrono::milliseconds(options.at("timeoutMs").get<long long>());
    settings.proxy = text_of(options, "proxy").value_or("");
    settings.hwid = text_of(options, "hwid");
    auto created = std::make_unique<latchkey::Client>(options.at("baseUrl"), options.at("apiKey"),
                                                      options.at("publicKey"),
                                                      options.at("version"), settings);
    if (name) {
      auto& other = others_[*name];
      other = std::move(created);
      return {{"hwid", other->hwid()}};
    }
    others_.clear();
    client_.reset();
    {
      std::lock_guard<std::mutex> lock(mutex_);
      revocations_ = Json::array();
      errors_ = Json::array();
    }
    client_ = std::move(created);
    return {{"hwid", client_->hwid()}};
  }

  Json call(const std::string& name, const Json& input,
            const std::optional<std::string>& client_name) {
    latchkey::Client& caller = client_name ? *others_.at(*client_name) : *client_;
    const auto started = std::chrono::steady_clock::now();
    Json outcome;
    try {
      outcome["value"] = invoke(caller, name, input);
    } catch (const latchkey::SignatureError& error) {
      outcome["error"] = {
          {"type", "SignatureError"}, {"reason", to_string(error.reason())}, {"message", error.what()}};
    } catch (const latchkey::TransportError& error) {
      outcome["error"] = {
          {"type", "TransportError"}, {"reason", to_string(error.reason())}, {"message", error.what()}};
    }
    outcome["elapsedMs"] = std::chrono::duration<double, std::milli>(
                               std::chrono::steady_clock::now() - started)
                               .count();
    return outcome;
  }

  Json invoke(latchkey::Client& client, const std::string& name, const Json& input) {
    if (name == "register")
      return plain(client.register_user(input.at("username"), input.at("password"),
                                        text_of(input, "email"), text_of(input, "licenseKey")));
    if (name == "login")
      return plain(client.login(input.at("username"), input.at("password"),
                                texts_of(input, "requiredEntitlements")));
    if (name == "licenseLogin")
      return plain(client.license_login(input.at("licenseKey"),
                                        texts_of(input, "requiredEntitlements")));
    if (name == "startTrial")
      return plain(client.start_trial(text_of(input, "hwid"), text_of(input, "username"),
                                      texts_of(input, "requiredEntitlements")));
    if (name == "resumeSession")
      return plain(client.resume_session(input.at("token"), input.at("userId")));
    if (name == "redeem")
      return plain(client.redeem(input.at("username"), input.at("password"),
                                 input.at("licenseKey")));
    if (name == "verify") {
      std::optional<std::vector<std::string>> entitlements;
      if (input.contains("entitlements"))
        entitlements = input.at("entitlements").get<std::vector<std::string>>();
      return plain(client.verify(text_of(input, "userId"), entitlements));
    }
    if (name == "heartbeat") return plain(client.heartbeat());
    if (name == "endSession") {
      const auto ended = client.end_session();
      return ended ? plain(*ended) : Json(nullptr);
    }
    if (name == "getVariable") return plain(client.get_variable(input.at("name")));
    if (name == "getUserVariable") return plain(client.get_user_variable(input.at("name")));
    if (name == "setUserVariable")
      return plain(client.set_user_variable(input.at("name"), input.at("value")));
    if (name == "useMeter")
      return plain(client.use_meter(input.at("name"), input.value("amount", 1LL),
                                    text_of(input, "idempotencyKey")));
    if (name == "resetDevices")
      return plain(client.reset_devices(input.at("username"), input.at("password"),
                                        input.value("all", false)));
    if (name == "forgotPassword")
      return plain(client.forgot_password(text_of(input, "username"), text_of(input, "email")));
    if (name == "resendVerification")
      return plain(client.resend_verification(input.at("username"), input.at("password")));
    if (name == "checkout") {
      std::optional<long long> ttl;
      if (input.contains("ttlSeconds")) ttl = input.at("ttlSeconds").get<long long>();
      return plain(client.checkout(ttl, input.value("encrypt", false)));
    }
    if (name == "borrowSeat")
      return plain(client.borrow_seat(input.at("days").get<long long>(),
                                      input.value("encrypt", false)));
    if (name == "returnSeat") return plain(client.return_seat());
    if (name == "download")
      return plain(client.download(input.at("fileId"), input.at("destination"),
                                   text_of(input, "sha256")));
    if (name == "checkForUpdate") {
      const auto offer = client.check_for_update(latchkey::Result::from_json(input.at("answer").dump()));
      if (!offer) return nullptr;
      return {{"version", offer->version},
              {"file_id", offer->file_id},
              {"size", offer->size},
              {"sha256", offer->sha256}};
    }
    if (name == "verifyOfflineLicense") {
      latchkey::OfflineLicenseTerms terms;
      if (input.contains("applicationId"))
        terms.application_id = input.at("applicationId").get<long long>();
      terms.now = time_of(input, "now");
      terms.last_seen_at = time_of(input, "lastSeenAt");
      const auto hwid = text_of(input, "hwid");
      return plain(hwid ? client.verify_offline_license(input.at("license"), *hwid, terms)
                        : client.verify_offline_license(input.at("license"), terms));
    }
    if (name == "createActivationRequest") {
      latchkey::ActivationRequestOptions options;
      options.license_key = text_of(input, "licenseKey");
      options.username = text_of(input, "username");
      options.encrypt = input.value("encrypt", false);
      const auto hwid = text_of(input, "hwid");
      return hwid ? client.create_activation_request(*hwid, options)
                  : client.create_activation_request(options);
    }
    if (name == "startHeartbeat") {
      latchkey::HeartbeatOptions options;
      options.interval = std::chrono::milliseconds(input.value("intervalMs", 30000LL));
      options.on_revoked = [this](const latchkey::Result& answer) {
        std::lock_guard<std::mutex> lock(mutex_);
        revocations_.push_back(plain(answer));
      };
      options.on_error = [this](const std::exception& error) {
        std::lock_guard<std::mutex> lock(mutex_);
        errors_.push_back(error.what());
      };
      client.start_heartbeat(options);
      return nullptr;
    }
    if (name == "stopHeartbeat") {
      client.stop_heartbeat();
      return nullptr;
    }
    throw std::invalid_argument("unknown call " + name);
  }

  // The SDK overhead benchmark (bench/sdk-overhead.mjs): `count` calls one after another,
  // through the SDK, then as a plain HTTP request the way a program without the SDK would send
  // it (libcurl on a kept-alive connection, a fresh nonce, the answer read and parsed, its
  // signature not checked).
  Json time_calls(const std::string& name, const Json& input, long long count) {
    const auto started = std::chrono::steady_clock::now();
    Json value;
    for (long long index = 0; index < count; ++index) value = invoke(*client_, name, input);
    return {{"elapsedMs", milliseconds_since(started)}, {"value", value}};
  }

  Json time_raw_calls(const std::string& url, const std::string& api_key, const Json& body,
                      long long count) {
    const std::string payload = body.dump();
    const auto started = std::chrono::steady_clock::now();
    Json answer;
    if (!raw_handle_) raw_handle_.reset(curl_easy_init());
    if (!raw_handle_) throw std::runtime_error("libcurl could not start");
    for (long long index = 0; index < count; ++index) {
      // One easy handle for every call, its options set afresh each time, so its connection is
      // kept alive between them: the SDK's client keeps its connections the same way (a handle
      // of its pool, reset after each exchange), and the point is what the SDK adds to the same
      // exchange, not what a new connection per call would cost.
      CURL* handle = raw_handle_.get();
      curl_easy_reset(handle);
      curl_slist* list = nullptr;
      const std::string key_header = "X-API-Key: " + api_key;
      const std::string nonce_header = "X-Request-Nonce: " + random_nonce();
      for (const char* header :
           {"Content-Type: application/json", key_header.c_str(), nonce_header.c_str()}) {
        curl_slist* appended = curl_slist_append(list, header);
        if (appended == nullptr) {
          curl_slist_free_all(list);
          throw std::bad_alloc();
        }
        list = appended;
      }
      const std::unique_ptr<curl_slist, decltype(&curl_slist_free_all)> headers(
          list, &curl_slist_free_all);
      std::string received;
      curl_easy_setopt(handle, CURLOPT_URL, url.c_str());
      curl_easy_setopt(handle, CURLOPT_POST, 1L);
      curl_easy_setopt(handle, CURLOPT_POSTFIELDS, payload.c_str());
      curl_easy_setopt(handle, CURLOPT_POSTFIELDSIZE_LARGE,
                       static_cast<curl_off_t>(payload.size()));
      curl_easy_setopt(handle, CURLOPT_HTTPHEADER, headers.get());
      // Directly, as the SDK goes when no proxy is chosen: both take the same path.
      curl_easy_setopt(handle, CURLOPT_PROXY, "");
      curl_easy_setopt(handle, CURLOPT_TIMEOUT_MS, 30000L);
      curl_easy_setopt(handle, CURLOPT_NOSIGNAL, 1L);
      curl_easy_setopt(handle, CURLOPT_WRITEFUNCTION, append_to_string);
      curl_easy_setopt(handle, CURLOPT_WRITEDATA, &received);
      const CURLcode code = curl_easy_perform(handle);
      if (code != CURLE_OK) throw std::runtime_error(curl_easy_strerror(code));
      // Whatever the status: a plain program reads the answer's JSON either way.
      answer = Json::parse(received);
    }
    return {{"elapsedMs", milliseconds_since(started)}, {"value", answer}};
  }

  // 16 unpredictable bytes in hex (std::random_device), as the SDK's nonce is.
  std::string random_nonce() {
    char text[33];
    std::snprintf(text, sizeof text, "%08x%08x%08x%08x", random_(), random_(), random_(),
                  random_());
    return text;
  }

  Json heartbeat_state() {
    std::lock_guard<std::mutex> lock(mutex_);
    return {{"revocations", revocations_}, {"errors", errors_}};
  }

  std::unique_ptr<latchkey::Client> client_;
  std::map<std::string, std::unique_ptr<latchkey::Client>> others_;
  std::unique_ptr<CURL, decltype(&curl_easy_cleanup)> raw_handle_{nullptr, &curl_easy_cleanup};
  std::mutex mutex_;  // the heartbeat thread reports into these
  Json revocations_ = Json::array();
  Json errors_ = Json::array();
  std::random_device random_;
};

}  // namespace

int main() {
  // Before any thread starts (curl_global_init is not thread-safe before libcurl 7.84); the
  // library's own initialisation then only counts one more user.
  if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) return 1;
  Driver driver;
  std::string line;
  while (std::getline(std::cin, line)) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    const Json request = Json::parse(line);
    Json answer = {{"id", request.at("id")}};
    try {
      answer["result"] = driver.handle(request.at("op"), request);
    } catch (const std::exception& error) {
      // A failure of the driver or an exception the SDK should not throw: the runner fails
      // the step with it.
      answer["failure"] = std::string(typeid(error).name()) + ": " + error.what();
    }
    std::cout << answer.dump(-1, ' ', false, Json::error_handler_t::replace) << '\n' << std::flush;
  }
  return 0;
}
