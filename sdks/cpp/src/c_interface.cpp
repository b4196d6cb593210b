// The C interface (latchkey.h): the C++ client behind an opaque handle, JSON text in and out,
// and nothing thrown across the boundary.

#include <latchkey.h>
#include <latchkey/client.hpp>
#include <latchkey/version.hpp>

#include "result_fields.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

struct latchkey_client {
  std::unique_ptr<latchkey::Client> client;
};

namespace {

using latchkey::detail::Json;

// A string the caller releases with latchkey_free; NULL only when memory ran out.
char* copy_out(const std::string& text) {
  auto* copy = static_cast<char*>(std::malloc(text.size() + 1));
  if (copy != nullptr) std::memcpy(copy, text.c_str(), text.size() + 1);
  return copy;
}

void set_error(char** error_out, const std::string& message) {
  if (error_out != nullptr) *error_out = copy_out(message);
}

struct UsageError : std::invalid_argument {
  UsageError(std::string reason_text, const std::string& message)
      : std::invalid_argument(message), reason(std::move(reason_text)) {}
  std::string reason;
};

Json error_json(const char* type, const std::string& reason, const std::string& message) {
  return {{"error", {{"type", type}, {"reason", reason}, {"message", message}}}};
}

// Whatever the library throws, as the JSON this interface answers.
Json error_of(const std::exception_ptr& thrown) {
  try {
    std::rethrow_exception(thrown);
  } catch (const latchkey::SignatureError& error) {
    return error_json("SignatureError", to_string(error.reason()), error.what());
  } catch (const latchkey::TransportError& error) {
    return error_json("TransportError", to_string(error.reason()), error.what());
  } catch (const UsageError& error) {
    return error_json("UsageError", error.reason, error.what());
  } catch (const std::logic_error& error) {
    const bool is_session_missing = std::strstr(error.what(), "needs a session") != nullptr;
    return error_json("UsageError", is_session_missing ? "no-session" : "invalid-argument",
                      error.what());
  } catch (const Json::exception& error) {
    return error_json("UsageError", "invalid-argument", error.what());
  } catch (const std::exception& error) {
    return error_json("UsageError", "invalid-argument", error.what());
  } catch (...) {
    return error_json("UsageError", "invalid-argument", "unknown failure");
  }
}

// A heartbeat's failure, which arrives as a reference to its base class.
Json description_of(const std::exception& error) {
  if (const auto* refused = dynamic_cast<const latchkey::SignatureError*>(&error))
    return error_json("SignatureError", to_string(refused->reason()), error.what())["error"];
  if (const auto* failed = dynamic_cast<const latchkey::TransportError*>(&error))
    return error_json("TransportError", to_string(failed->reason()), error.what())["error"];
  return error_json("UsageError", "no-session", error.what())["error"];
}

Json object_of(const char* json_text, const char* what) {
  if (json_text == nullptr || *json_text == '\0') return Json::object();
  Json parsed = Json::parse(json_text, nullptr, false);
  if (parsed.is_discarded() || !parsed.is_object())
    throw UsageError("invalid-argument", std::string(what) + " must be a JSON object");
  return parsed;
}

std::string text_of(const Json& input, const char* name) {
  const auto found = input.find(name);
  if (found == input.end() || !found->is_string())
    throw UsageError("invalid-argument", std::string(name) + " is required (a string)");
  return found->get<std::string>();
}

std::optional<std::string> optional_text_of(const Json& input, const char* name) {
  const auto found = input.find(name);
  if (found == input.end() || found->is_null()) return std::nullopt;
  if (!found->is_string()) throw UsageError("invalid-argument", std::string(name) + " must be a string");
  return found->get<std::string>();
}

std::optional<long long> optional_integer_of(const Json& input, const char* name) {
  const auto found = input.find(name);
  if (found == input.end() || found->is_null()) return std::nullopt;
  if (!found->is_number_integer())
    throw UsageError("invalid-argument", std::string(name) + " must be an integer");
  return found->get<long long>();
}

bool flag_of(const Json& input, const char* name) {
  const auto found = input.find(name);
  return found != input.end() && found->is_boolean() && found->get<bool>();
}

std::optional<latchkey::TimePoint> optional_time_of(const Json& input, const char* name) {
  const std::optional<std::string> text = optional_text_of(input, name);
  if (!text) return std::nullopt;
  const std::optional<latchkey::TimePoint> time = latchkey::parse_utc_time(*text);
  if (!time) throw UsageError("invalid-argument", std::string(name) + " must be an ISO 8601 time");
  return time;
}

latchkey::OfflineLicenseTerms terms_of(const Json& input) {
  latchkey::OfflineLicenseTerms terms;
  terms.application_id = optional_integer_of(input, "application_id");
  terms.now = optional_time_of(input, "now");
  terms.last_seen_at = optional_time_of(input, "last_seen_at");
  if (const auto tolerance = optional_integer_of(input, "clock_tolerance_seconds"))
    terms.clock_tolerance = std::chrono::seconds(*tolerance);
  return terms;
}

latchkey::ActivationRequestOptions activation_options_of(const Json& input) {
  latchkey::ActivationRequestOptions options;
  options.license_key = optional_text_of(input, "license_key");
  options.username = optional_text_of(input, "username");
  options.device_name = optional_text_of(input, "device_name");
  options.encrypt = flag_of(input, "encrypt");
  options.nonce = optional_text_of(input, "nonce");
  options.now = optional_time_of(input, "now");
  return options;
}

Json value_of(const latchkey::Result& result) { return result.fields().fields; }

Json value_of(const latchkey::OfflineLicenseCheck& check) {
  return Json::parse(latchkey::to_json(check));
}

std::vector<std::string> texts_of(const Json& input, const char* name) {
  const auto found = input.find(name);
  if (found == input.end() || found->is_null()) return {};
  const bool is_texts =
      found->is_array() &&
      std::all_of(found->begin(), found->end(), [](const Json& item) { return item.is_string(); });
  if (!is_texts)
    throw UsageError("invalid-argument", std::string(name) + " must be an array of strings");
  return found->get<std::vector<std::string>>();
}

Json perform(latchkey::Client& client, const std::string& call, const Json& input) {
  if (call == "login")
    return value_of(client.login(text_of(input, "username"), text_of(input, "password"),
                                 texts_of(input, "required_entitlements")));
  if (call == "license_login")
    return value_of(client.license_login(text_of(input, "license_key"),
                                         texts_of(input, "required_entitlements")));
  if (call == "start_trial")
    return value_of(client.start_trial(optional_text_of(input, "hwid"),
                                       optional_text_of(input, "username"),
                                       texts_of(input, "required_entitlements")));
  if (call == "resume_session")
    return value_of(client.resume_session(text_of(input, "token"), text_of(input, "user_id")));
  if (call == "register_user" || call == "register")
    return value_of(client.register_user(text_of(input, "username"), text_of(input, "password"),
                                         optional_text_of(input, "email"),
                                         optional_text_of(input, "license_key")));
  if (call == "redeem")
    return value_of(client.redeem(text_of(input, "username"), text_of(input, "password"),
                                  text_of(input, "license_key")));
  if (call == "verify") {
    std::optional<std::vector<std::string>> entitlements;
    const auto found = input.find("entitlements");
    if (found != input.end() && !found->is_null())
      entitlements = found->get<std::vector<std::string>>();
    return value_of(client.verify(optional_text_of(input, "user_id"), entitlements));
  }
  if (call == "heartbeat") return value_of(client.heartbeat());
  if (call == "end_session") {
    const std::optional<latchkey::Result> ended = client.end_session();
    return ended ? value_of(*ended) : Json(nullptr);
  }
  if (call == "get_variable") return value_of(client.get_variable(text_of(input, "name")));
  if (call == "get_user_variable") return value_of(client.get_user_variable(text_of(input, "name")));
  if (call == "set_user_variable")
    return value_of(client.set_user_variable(text_of(input, "name"), text_of(input, "value")));
  if (call == "use_meter")
    return value_of(client.use_meter(text_of(input, "name"),
                                     optional_integer_of(input, "amount").value_or(1),
                                     optional_text_of(input, "idempotency_key")));
  if (call == "reset_devices")
    return value_of(client.reset_devices(text_of(input, "username"), text_of(input, "password"),
                                         flag_of(input, "all_devices")));
  if (call == "forgot_password")
    return value_of(client.forgot_password(optional_text_of(input, "username"),
                                           optional_text_of(input, "email")));
  if (call == "resend_verification")
    return value_of(client.resend_verification(text_of(input, "username"),
                                               text_of(input, "password")));
  if (call == "checkout")
    return value_of(client.checkout(optional_integer_of(input, "ttl_seconds"), flag_of(input, "encrypt")));
  if (call == "borrow_seat") {
    const std::optional<long long> days = optional_integer_of(input, "days");
    if (!days) throw UsageError("invalid-argument", "days is required (an integer)");
    return value_of(client.borrow_seat(*days, flag_of(input, "encrypt")));
  }
  if (call == "return_seat") return value_of(client.return_seat());
  if (call == "download")
    return value_of(client.download(text_of(input, "file_id"), text_of(input, "destination"),
                                    optional_text_of(input, "sha256")));
  if (call == "check_for_update") {
    const auto answer = input.find("answer");
    if (answer == input.end() || !answer->is_object())
      throw UsageError("invalid-argument", "answer is required (a login's result)");
    const std::optional<latchkey::UpdateOffer> offer =
        client.check_for_update(latchkey::Result::from_json(answer->dump()));
    if (!offer) return nullptr;
    return {{"version", offer->version},
            {"file_id", offer->file_id},
            {"size", offer->size},
            {"sha256", offer->sha256}};
  }
  if (call == "verify_offline_license") {
    const std::string license = text_of(input, "license");
    const std::optional<std::string> hwid = optional_text_of(input, "hwid");
    const latchkey::OfflineLicenseTerms terms = terms_of(input);
    return value_of(hwid ? client.verify_offline_license(license, *hwid, terms)
                         : client.verify_offline_license(license, terms));
  }
  if (call == "create_activation_request") {
    const std::optional<std::string> hwid = optional_text_of(input, "hwid");
    const latchkey::ActivationRequestOptions options = activation_options_of(input);
    return hwid ? client.create_activation_request(*hwid, options)
                : client.create_activation_request(options);
  }
  throw UsageError("unknown-call", "no call named " + call);
}

std::string dump(const Json& value) { return latchkey::detail::dump(value); }

}  // namespace

extern "C" {

latchkey_client* latchkey_client_create(const char* base_url, const char* api_key,
                                        const char* public_key, const char* version,
                                        const char* options_json, char** error_out) {
  try {
    if (base_url == nullptr || api_key == nullptr || public_key == nullptr || version == nullptr)
      throw std::invalid_argument("base_url, api_key, public_key and version are required");
    const Json input = object_of(options_json, "options");
    latchkey::ClientOptions options;
    if (const auto timeout = optional_integer_of(input, "timeout_ms"))
      options.timeout = std::chrono::milliseconds(*timeout);
    options.proxy = optional_text_of(input, "proxy").value_or("");
    options.hwid = optional_text_of(input, "hwid");
    options.device_name = optional_text_of(input, "device_name").value_or("");
    if (const auto retries = optional_integer_of(input, "retries"))
      options.retries = static_cast<int>(*retries);
    if (const auto delay = optional_integer_of(input, "max_retry_delay_ms"))
      options.max_retry_delay = std::chrono::milliseconds(*delay);
    if (const auto skew = optional_integer_of(input, "max_clock_skew_seconds"))
      options.max_clock_skew = std::chrono::seconds(*skew);
    auto handle = std::make_unique<latchkey_client>();
    handle->client =
        std::make_unique<latchkey::Client>(base_url, api_key, public_key, version, options);
    return handle.release();
  } catch (const std::exception& error) {
    set_error(error_out, error.what());
  } catch (...) {
    set_error(error_out, "unknown failure");
  }
  return nullptr;
}

void latchkey_client_destroy(latchkey_client* client) { delete client; }

char* latchkey_client_call(latchkey_client* client, const char* call, const char* input_json) {
  try {
    if (client == nullptr || call == nullptr)
      throw UsageError("invalid-argument", "a client and a call are required");
    const Json input = object_of(input_json, "input");
    return copy_out(dump({{"value", perform(*client->client, call, input)}}));
  } catch (...) {
    try {
      return copy_out(dump(error_of(std::current_exception())));
    } catch (...) {
      return nullptr;
    }
  }
}

int latchkey_client_start_heartbeat(latchkey_client* client, long interval_ms,
                                    latchkey_heartbeat_callback on_revoked,
                                    latchkey_heartbeat_callback on_error, void* context,
                                    char** error_out) {
  try {
    if (client == nullptr) throw std::invalid_argument("a client is required");
    latchkey::HeartbeatOptions options;
    if (interval_ms > 0) options.interval = std::chrono::milliseconds(interval_ms);
    if (on_revoked != nullptr)
      options.on_revoked = [on_revoked, context](const latchkey::Result& answer) {
        on_revoked(answer.to_json().c_str(), context);
      };
    if (on_error != nullptr)
      options.on_error = [on_error, context](const std::exception& error) {
        on_error(dump(description_of(error)).c_str(), context);
      };
    client->client->start_heartbeat(std::move(options));
    return 0;
  } catch (const std::exception& error) {
    set_error(error_out, error.what());
  } catch (...) {
    set_error(error_out, "unknown failure");
  }
  return -1;
}

void latchkey_client_stop_heartbeat(latchkey_client* client) {
  if (client != nullptr) client->client->stop_heartbeat();
}

char* latchkey_client_hwid(const latchkey_client* client) {
  if (client == nullptr) return nullptr;
  return copy_out(client->client->hwid());
}

char* latchkey_verify_offline_license(const char* license, const char* public_key,
                                      const char* hwid, const char* terms_json) {
  try {
    if (license == nullptr || public_key == nullptr || hwid == nullptr)
      throw UsageError("invalid-argument", "license, public_key and hwid are required");
    const latchkey::OfflineLicenseTerms terms = terms_of(object_of(terms_json, "terms"));
    return copy_out(latchkey::to_json(latchkey::verify_offline_license(license, public_key, hwid, terms)));
  } catch (...) {
    try {
      return copy_out(dump(error_of(std::current_exception())));
    } catch (...) {
      return nullptr;
    }
  }
}

char* latchkey_create_activation_request(const char* public_key, const char* hwid,
                                         const char* options_json) {
  try {
    if (public_key == nullptr || hwid == nullptr)
      throw UsageError("invalid-argument", "public_key and hwid are required");
    const latchkey::ActivationRequestOptions options =
        activation_options_of(object_of(options_json, "options"));
    return copy_out(
        dump({{"request", latchkey::create_activation_request(public_key, hwid, options)}}));
  } catch (...) {
    try {
      return copy_out(dump(error_of(std::current_exception())));
    } catch (...) {
      return nullptr;
    }
  }
}

char* latchkey_machine_id(const char* public_key) {
  try {
    if (public_key == nullptr) return nullptr;
    return copy_out(latchkey::Client::hash_machine_id(latchkey::Client::raw_machine_id(), public_key));
  } catch (...) {
    return nullptr;
  }
}

char* latchkey_hash_machine_id(const char* raw_machine_id, const char* public_key) {
  try {
    if (raw_machine_id == nullptr || public_key == nullptr) return nullptr;
    return copy_out(latchkey::Client::hash_machine_id(raw_machine_id, public_key));
  } catch (...) {
    return nullptr;
  }
}

void latchkey_free(char* text) { std::free(text); }

const char* latchkey_version(void) { return LATCHKEY_VERSION_STRING; }

}  // extern "C"
