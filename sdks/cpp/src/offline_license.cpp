#include <latchkey/offline_license.hpp>

#include "aes_256_gcm.hpp"
#include "encoding.hpp"
#include "result_fields.hpp"
#include "utc_time.hpp"

#include <sodium.h>

#include <algorithm>
#include <array>

namespace latchkey {

namespace {

constexpr std::array<const char*, 7> offline_code_names = {
    "OK",          "MALFORMED",     "BAD_SIGNATURE",   "OTHER_APPLICATION",
    "OTHER_MACHINE", "EXPIRED", "CLOCK_MOVED_BACK",
};
static_assert(static_cast<std::size_t>(OfflineLicenseCode::CLOCK_MOVED_BACK) + 1 ==
                  offline_code_names.size(),
              "one name per code");

const char* message_of(OfflineLicenseCode code) {
  switch (code) {
    case OfflineLicenseCode::OK: return "Offline licence valid";
    case OfflineLicenseCode::MALFORMED: return "This is not an offline licence";
    case OfflineLicenseCode::BAD_SIGNATURE:
      return "This offline licence is not signed by this application";
    case OfflineLicenseCode::OTHER_APPLICATION: return "This offline licence is for another application";
    case OfflineLicenseCode::OTHER_MACHINE: return "This offline licence belongs to another machine";
    case OfflineLicenseCode::EXPIRED: return "This offline licence has expired";
    case OfflineLicenseCode::CLOCK_MOVED_BACK: return "The system clock was set back";
  }
  return "";
}

OfflineLicenseCheck outcome(OfflineLicenseCode code,
                            std::optional<OfflineLicenseContent> content = std::nullopt) {
  OfflineLicenseCheck check;
  check.success = code == OfflineLicenseCode::OK;
  check.code = code;
  check.message = message_of(code);
  check.content = std::move(content);
  return check;
}

constexpr const char* plain_prefix = "LK1";
constexpr const char* plain_domain = "latchkey-license-v1";
constexpr const char* encrypted_prefix = "LK1E";
constexpr const char* encrypted_domain = "latchkey-license-v1e";

// HKDF-SHA256 of one block (32 bytes are all AES-256 needs): extract, then expand once.
detail::AesKey hkdf_sha256(const std::string& secret, const std::array<unsigned char, 32>& salt,
                           const std::string& info) {
  unsigned char pseudo_random_key[crypto_auth_hmacsha256_BYTES];
  crypto_auth_hmacsha256_state state;
  crypto_auth_hmacsha256_init(&state, salt.data(), salt.size());
  crypto_auth_hmacsha256_update(&state, reinterpret_cast<const unsigned char*>(secret.data()),
                                secret.size());
  crypto_auth_hmacsha256_final(&state, pseudo_random_key);
  detail::AesKey key{};
  const unsigned char counter = 1;
  crypto_auth_hmacsha256_init(&state, pseudo_random_key, sizeof pseudo_random_key);
  crypto_auth_hmacsha256_update(&state, reinterpret_cast<const unsigned char*>(info.data()),
                                info.size());
  crypto_auth_hmacsha256_update(&state, &counter, 1);
  crypto_auth_hmacsha256_final(&state, key.data());
  sodium_memzero(pseudo_random_key, sizeof pseudo_random_key);
  return key;
}

std::optional<std::string> text_of(const detail::Json& content, const char* name) {
  const auto found = content.find(name);
  if (found == content.end() || !found->is_string()) return std::nullopt;
  return found->get<std::string>();
}

// The content of a payload whose signature holds; nullopt when it is not the licence's JSON.
std::optional<OfflineLicenseContent> content_of(const detail::Bytes& data) {
  const detail::Json content = detail::Json::parse(data.begin(), data.end(), nullptr, false);
  if (content.is_discarded() || !content.is_object()) return std::nullopt;
  const std::optional<std::string> valid_until = text_of(content, "valid_until");
  const std::optional<std::string> issued_at = text_of(content, "issued_at");
  if (!valid_until || !detail::unix_milliseconds_of_iso(*valid_until)) return std::nullopt;
  if (!issued_at || !detail::unix_milliseconds_of_iso(*issued_at)) return std::nullopt;
  const auto hwid = content.find("hwid");
  if (hwid != content.end() && !hwid->is_null() && !hwid->is_string()) return std::nullopt;

  OfflineLicenseContent read;
  const auto application_id = content.find("application_id");
  if (application_id != content.end() && application_id->is_number_integer())
    read.application_id = application_id->get<long long>();
  read.user_id = text_of(content, "user_id").value_or("");
  read.username = text_of(content, "username").value_or("");
  if (hwid != content.end() && hwid->is_string()) read.hwid = hwid->get<std::string>();
  const auto entitlements = content.find("entitlements");
  if (entitlements != content.end() && entitlements->is_array())
    for (const detail::Json& code : *entitlements)
      if (code.is_string()) read.entitlements.push_back(code.get<std::string>());
  // Licences issued before updates windows existed lack the field: no window, every release.
  read.updates_until = text_of(content, "updates_until");
  // The server leaves meters out for a user without any, as licences issued before them do.
  const auto meters = content.find("meters");
  if (meters != content.end()) read.meters = detail::meters_of(*meters);
  read.issued_at = *issued_at;
  read.valid_until = *valid_until;
  read.id = text_of(content, "id").value_or("");
  read.json = std::string(data.begin(), data.end());
  return read;
}

long long milliseconds_of(const std::optional<TimePoint>& moment, long long fallback) {
  if (!moment) return fallback;
  return std::chrono::duration_cast<std::chrono::milliseconds>(moment->time_since_epoch()).count();
}

}  // namespace

const char* to_string(OfflineLicenseCode code) noexcept {
  const auto index = static_cast<std::size_t>(code);
  return index < offline_code_names.size() ? offline_code_names[index] : "";
}

std::vector<std::string> offline_license_codes() {
  return std::vector<std::string>(offline_code_names.begin(), offline_code_names.end());
}

std::string to_json(const OfflineLicenseCheck& check) {
  detail::Json verdict = {
      {"success", check.success}, {"code", to_string(check.code)}, {"message", check.message}};
  if (check.content) {
    detail::Json content = detail::Json::parse(check.content->json);
    // A licence issued before updates windows existed has none: null, no window (every SDK).
    if (!content.contains("updates_until")) content["updates_until"] = nullptr;
    // A licence without meters (a user without any, or issued before them): an empty list.
    if (!content.contains("meters")) content["meters"] = detail::Json::array();
    verdict["content"] = std::move(content);
  }
  return detail::dump(verdict);
}

OfflineLicenseCheck verify_offline_license(const std::string& license,
                                           const std::string& public_key_hex,
                                           const std::string& hwid,
                                           const OfflineLicenseTerms& terms) {
  const std::array<unsigned char, 32> key = detail::public_key_from_hex(public_key_hex);
  detail::ensure_sodium();

  const std::size_t first_dot = license.find('.');
  const std::size_t second_dot =
      first_dot == std::string::npos ? std::string::npos : license.find('.', first_dot + 1);
  if (second_dot == std::string::npos || license.find('.', second_dot + 1) != std::string::npos)
    return outcome(OfflineLicenseCode::MALFORMED);
  const std::string prefix = license.substr(0, first_dot);
  if (prefix != plain_prefix && prefix != encrypted_prefix)
    return outcome(OfflineLicenseCode::MALFORMED);
  const bool is_encrypted = prefix == encrypted_prefix;
  const std::string payload = license.substr(first_dot + 1, second_dot - first_dot - 1);
  const std::optional<detail::Bytes> payload_bytes = detail::decode_base64url(payload);
  const std::optional<detail::Bytes> signature =
      detail::decode_base64url(license.substr(second_dot + 1));
  if (!payload_bytes || !signature || signature->size() != crypto_sign_BYTES)
    return outcome(OfflineLicenseCode::MALFORMED);

  // Encrypt, then sign: the signature holds over the payload segment as it stands, whatever
  // the HWID, and the domain keeps a signed answer from passing as a licence.
  const std::string domain = is_encrypted ? encrypted_domain : plain_domain;
  const std::string message = domain + "." + payload;
  if (crypto_sign_verify_detached(signature->data(),
                                  reinterpret_cast<const unsigned char*>(message.data()),
                                  message.size(), key.data()) != 0)
    return outcome(OfflineLicenseCode::BAD_SIGNATURE);

  detail::Bytes data = *payload_bytes;
  if (is_encrypted) {
    const detail::AesKey aes_key = hkdf_sha256(hwid, key, encrypted_domain);
    std::optional<detail::Bytes> decrypted = detail::decrypt_aes_256_gcm(aes_key, data);
    if (!decrypted) return outcome(OfflineLicenseCode::OTHER_MACHINE);
    data = std::move(*decrypted);
  }
  std::optional<OfflineLicenseContent> content = content_of(data);
  if (!content) return outcome(OfflineLicenseCode::MALFORMED);

  if (terms.application_id && content->application_id != terms.application_id)
    return outcome(OfflineLicenseCode::OTHER_APPLICATION, std::move(content));
  if (content->hwid && *content->hwid != hwid)
    return outcome(OfflineLicenseCode::OTHER_MACHINE, std::move(content));
  const long long now = milliseconds_of(terms.now, detail::now_unix_milliseconds());
  if (now >= *detail::unix_milliseconds_of_iso(content->valid_until))
    return outcome(OfflineLicenseCode::EXPIRED, std::move(content));
  // The clock is the one thing the user controls offline: one set back before the licence's
  // issue or the latest time the program saw, beyond the tolerance, would stretch it.
  const long long latest_seen =
      std::max(*detail::unix_milliseconds_of_iso(content->issued_at),
               milliseconds_of(terms.last_seen_at, 0));
  const long long tolerance =
      std::chrono::duration_cast<std::chrono::milliseconds>(terms.clock_tolerance).count();
  if (now + tolerance < latest_seen)
    return outcome(OfflineLicenseCode::CLOCK_MOVED_BACK, std::move(content));
  return outcome(OfflineLicenseCode::OK, std::move(content));
}

}  // namespace latchkey
