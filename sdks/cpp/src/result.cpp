#include "result_fields.hpp"

#include <array>
#include <stdexcept>

namespace latchkey {

namespace {

constexpr std::array<const char*, 39> result_code_names = {
    "OK",
    "INVALID_CREDENTIALS",
    "ACCOUNT_DISABLED",
    "ACCOUNT_EXPIRED",
    "VERSION_MISMATCH",
    "HWID_MISMATCH",
    "BLACKLISTED",
    "USERNAME_TAKEN",
    "APP_DISABLED",
    "USER_NOT_FOUND",
    "SESSION_INVALID",
    "LICENSE_REQUIRED",
    "LICENSE_INVALID",
    "LICENSE_USED",
    "LICENSE_BANNED",
    "LICENSE_EXPIRED",
    "NO_ACTIVE_SUBSCRIPTION",
    "ENTITLEMENTS_MISSING",
    "RESET_NOT_ALLOWED",
    "RESET_COOLDOWN",
    "DEVICE_NOT_FOUND",
    "HWID_REQUIRED",
    "VARIABLE_NOT_FOUND",
    "VARIABLE_READ_ONLY",
    "VARIABLE_LIMIT_REACHED",
    "FILE_NOT_FOUND",
    "METER_NOT_FOUND",
    "METER_EXHAUSTED",
    "UPDATES_EXPIRED",
    "NO_SEAT_AVAILABLE",
    "BORROW_NOT_ALLOWED",
    "TRIAL_UNAVAILABLE",
    "TRIAL_EXPIRED",
    "TRIAL_USED",
    "MAIL_UNAVAILABLE",
    "EMAIL_NOT_VERIFIED",
    "INVALID_REQUEST",
    "INVALID_API_KEY",
    "RATE_LIMITED",
};
static_assert(static_cast<std::size_t>(ResultCode::RATE_LIMITED) + 1 == result_code_names.size(),
              "one name per code");

const detail::Json* field_of(const detail::ResultFields& data, const std::string& name) {
  const auto found = data.fields.find(name);
  return found == data.fields.end() ? nullptr : &*found;
}

}  // namespace

const char* to_string(ResultCode code) noexcept {
  const auto index = static_cast<std::size_t>(code);
  return index < result_code_names.size() ? result_code_names[index] : "";
}

std::optional<ResultCode> result_code_of(const std::string& text) noexcept {
  for (std::size_t index = 0; index < result_code_names.size(); ++index)
    if (text == result_code_names[index]) return static_cast<ResultCode>(index);
  return std::nullopt;
}

std::vector<std::string> result_codes() {
  return std::vector<std::string>(result_code_names.begin(), result_code_names.end());
}

Result::Result(std::shared_ptr<const detail::ResultFields> fields) : fields_(std::move(fields)) {}

Result Result::from_json(const std::string& json_text) {
  detail::Json fields = detail::Json::parse(json_text, nullptr, false);
  if (fields.is_discarded() || !fields.is_object() || !fields.contains("code") ||
      !fields["code"].is_string())
    throw std::invalid_argument("a result is a JSON object with a string code");
  const bool is_success = fields.contains("success") && fields["success"].is_boolean() &&
                          fields["success"].get<bool>() && fields["code"] == "OK";
  fields["success"] = is_success;
  if (!fields.contains("message") || !fields["message"].is_string()) fields["message"] = "";
  return detail::result_of(std::move(fields));
}

bool Result::success() const { return fields_->fields["success"].get<bool>(); }

std::optional<ResultCode> Result::code() const { return result_code_of(fields_->code_text); }

const std::string& Result::code_text() const { return fields_->code_text; }

const std::string& Result::message() const { return fields_->message; }

std::optional<int> Result::retry_after_seconds() const {
  const std::optional<long long> seconds = integer("retry_after_seconds");
  if (!seconds) return std::nullopt;
  return static_cast<int>(*seconds);
}

bool Result::has(const std::string& field) const {
  const detail::Json* value = field_of(*fields_, field);
  return value != nullptr && !value->is_null();
}

std::optional<std::string> Result::text(const std::string& field) const {
  const detail::Json* value = field_of(*fields_, field);
  if (value == nullptr || !value->is_string()) return std::nullopt;
  return value->get<std::string>();
}

std::optional<long long> Result::integer(const std::string& field) const {
  const detail::Json* value = field_of(*fields_, field);
  if (value == nullptr || !value->is_number_integer()) return std::nullopt;
  return value->get<long long>();
}

std::optional<bool> Result::boolean(const std::string& field) const {
  const detail::Json* value = field_of(*fields_, field);
  if (value == nullptr || !value->is_boolean()) return std::nullopt;
  return value->get<bool>();
}

std::vector<std::string> Result::texts(const std::string& field) const {
  std::vector<std::string> items;
  const detail::Json* value = field_of(*fields_, field);
  if (value == nullptr || !value->is_array()) return items;
  for (const detail::Json& item : *value)
    if (item.is_string()) items.push_back(item.get<std::string>());
  return items;
}

std::string Result::field_json(const std::string& field) const {
  const detail::Json* value = field_of(*fields_, field);
  return value == nullptr ? "null" : detail::dump(*value);
}

std::vector<Meter> Result::meters() const {
  const detail::Json* value = field_of(*fields_, "meters");
  return value == nullptr ? std::vector<Meter>{} : detail::meters_of(*value);
}

std::string Result::to_json() const { return detail::dump(fields_->fields); }

namespace detail {

std::vector<Meter> meters_of(const Json& field) {
  std::vector<Meter> meters;
  if (!field.is_array()) return meters;
  for (const Json& item : field) {
    if (!item.is_object()) continue;
    const auto text = [&](const char* name) -> const Json* {
      const auto found = item.find(name);
      return found != item.end() && found->is_string() ? &*found : nullptr;
    };
    const auto count = [&](const char* name) -> const Json* {
      const auto found = item.find(name);
      return found != item.end() && found->is_number_integer() ? &*found : nullptr;
    };
    const Json* name = text("name");
    const Json* allowance = count("allowance");
    const Json* used = count("used");
    const Json* remaining = count("remaining");
    const Json* overage = count("overage");
    // An entry that is not a meter is left out rather than read as zeros.
    if (!name || !allowance || !used || !remaining || !overage) continue;
    Meter meter;
    meter.name = name->get<std::string>();
    meter.allowance = allowance->get<long long>();
    meter.used = used->get<long long>();
    meter.remaining = remaining->get<long long>();
    meter.overage = overage->get<long long>();
    if (const Json* resets_at = text("resets_at")) meter.resets_at = resets_at->get<std::string>();
    meters.push_back(std::move(meter));
  }
  return meters;
}

std::string dump(const Json& value) {
  return value.dump(-1, ' ', false, Json::error_handler_t::replace);
}

Result result_of(Json fields) {
  auto data = std::make_shared<ResultFields>();
  data->code_text = fields["code"].get<std::string>();
  data->message = fields["message"].get<std::string>();
  data->fields = std::move(fields);
  return Result(std::move(data));
}

}  // namespace detail

}  // namespace latchkey
