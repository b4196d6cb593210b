// Activation requests: what the conformance vectors cannot carry (their JSON is UTF-8 already,
// so text that is not reaches the library only from a program), and the times the vectors do
// not reach (before 1970, a leap day, a century without one).

#include <latchkey/activation_request.hpp>

#include "encoding.hpp"

#include <chrono>
#include <cstdio>
#include <stdexcept>
#include <string>

namespace {

int failures = 0;

void check(bool is_true, const std::string& what) {
  if (!is_true) {
    std::fprintf(stderr, "FAILED: %s\n", what.c_str());
    ++failures;
  }
}

const std::string public_key = "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a";

bool is_refused(const std::string& username) {
  latchkey::ActivationRequestOptions options;
  options.username = username;
  try {
    latchkey::create_activation_request(public_key, "LAB-MACHINE-0001", options);
    return false;
  } catch (const std::invalid_argument&) {
    return true;
  }
}

// The JSON content of a request written at unix milliseconds `at`.
std::string content_at(long long at) {
  latchkey::ActivationRequestOptions options;
  options.nonce = "0123456789abcdef";
  options.now = latchkey::TimePoint(std::chrono::duration_cast<latchkey::TimePoint::duration>(
      std::chrono::milliseconds(at)));
  const std::string text = latchkey::create_activation_request(public_key, "x", options);
  const std::size_t first = text.find('.');
  const std::size_t second = text.find('.', first + 1);
  const auto payload = latchkey::detail::decode_base64url(text.substr(first + 1, second - first - 1));
  return payload ? std::string(payload->begin(), payload->end()) : "";
}

bool is_written_at(long long at, const std::string& iso) {
  return content_at(at).find("\"created_at\":\"" + iso + "\"") != std::string::npos;
}

}  // namespace

int main() {
  check(!is_refused("Zo\xC3\xAB \xF0\x9F\x94\x92"), "UTF-8 beyond ASCII is text");
  check(is_refused("\xC0\x80"), "an overlong NUL is refused");
  check(is_refused("\xE0\x80\xAF"), "an overlong slash is refused");
  check(is_refused("\xED\xA0\x80"), "a UTF-8 surrogate is refused");
  check(is_refused("\xF4\x90\x80\x80"), "past U+10FFFF is refused");
  check(is_refused("caf\xC3"), "a truncated sequence is refused");
  check(is_refused("\x80"), "a lone continuation byte is refused");
  check(is_refused("\xFF"), "a byte UTF-8 never uses is refused");
  check(is_refused(std::string("a\0b", 3)), "a NUL is refused");

  check(is_written_at(0, "1970-01-01T00:00:00.000Z"), "the epoch");
  check(is_written_at(-1, "1969-12-31T23:59:59.999Z"), "a millisecond before the epoch");
  check(is_written_at(951782400001LL, "2000-02-29T00:00:00.001Z"), "a leap day");
  check(is_written_at(4107542399999LL, "2100-02-28T23:59:59.999Z"), "a century without a leap day");
  return failures == 0 ? 0 : 1;
}
