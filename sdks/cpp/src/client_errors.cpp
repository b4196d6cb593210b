#include <latchkey/errors.hpp>

namespace latchkey {

const char* to_string(SignatureErrorReason reason) noexcept {
  switch (reason) {
    case SignatureErrorReason::Unsigned: return "unsigned";
    case SignatureErrorReason::Signature: return "signature";
    case SignatureErrorReason::Nonce: return "nonce";
    case SignatureErrorReason::Stale: return "stale";
    case SignatureErrorReason::Digest: return "digest";
  }
  return "signature";
}

const char* to_string(TransportErrorReason reason) noexcept {
  switch (reason) {
    case TransportErrorReason::Unreachable: return "unreachable";
    case TransportErrorReason::Timeout: return "timeout";
    case TransportErrorReason::ServerError: return "server-error";
    case TransportErrorReason::Malformed: return "malformed";
  }
  return "unreachable";
}

std::vector<std::string> signature_error_reasons() {
  std::vector<std::string> reasons;
  for (const auto reason : {SignatureErrorReason::Unsigned, SignatureErrorReason::Signature,
                            SignatureErrorReason::Nonce, SignatureErrorReason::Stale,
                            SignatureErrorReason::Digest})
    reasons.emplace_back(to_string(reason));
  return reasons;
}

std::vector<std::string> transport_error_reasons() {
  std::vector<std::string> reasons;
  for (const auto reason : {TransportErrorReason::Unreachable, TransportErrorReason::Timeout,
                            TransportErrorReason::ServerError, TransportErrorReason::Malformed})
    reasons.emplace_back(to_string(reason));
  return reasons;
}

SignatureError::SignatureError(SignatureErrorReason reason, const std::string& message)
    : Error(message), reason_(reason) {}

TransportError::TransportError(TransportErrorReason reason, const std::string& message,
                               std::optional<long> status, std::optional<int> retry_after_seconds)
    : Error(message), reason_(reason), status_(status), retry_after_seconds_(retry_after_seconds) {}

}  // namespace latchkey
