// Checks of the C++ sample's response verifier against the worked example of
// docs/client-api.md (RFC 8032 test 1 key). Prints one "<case>: accepted|refused" line per
// case; samples/test/cpp-verifier.test.ts compiles this file, runs it and holds the
// expected verdicts.
//   g++ -std=c++17 -Wall -Wextra -Werror verifier_tests.cpp -o verifier_tests $(pkg-config --cflags --libs libcurl libsodium)
#define LATCHKEY_NO_MAIN
#include "latchkey_client.cpp"

#include <iostream>
#include <string>

namespace {

const std::string PUBLIC_KEY = "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a";
// RFC 8032 test 2's public key: a real key, just not the one that signed.
const std::string OTHER_PUBLIC_KEY =
    "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c";
const std::string TIMESTAMP = "1775044800";
const std::time_t SIGNED_AT = 1775044800;
const std::string NONCE = "c2f1b6a0-7e44-4f7e-9d1b-0b8f6f7f9e11";
const std::string BODY = R"({"success":true,"message":"User verified","code":"OK"})";
const std::string SIGNATURE =
    "cfccec4a7f60fa37eee036f851e1e9ee875e33ba0eedfcd95150cbc94d9abb44"
    "cf97529416254ca29e28c50d7b344b52fe770894ddbd5c02a0fa6a102f096201";

void report(const char* name, bool is_genuine) {
  std::cout << name << ": " << (is_genuine ? "accepted" : "refused") << std::endl;
}

}  // namespace

int main() {
  using latchkey::is_genuine_response;
  report("valid", is_genuine_response(PUBLIC_KEY, TIMESTAMP, NONCE, BODY, SIGNATURE, SIGNED_AT));
  report("valid at the clock skew limit",
         is_genuine_response(PUBLIC_KEY, TIMESTAMP, NONCE, BODY, SIGNATURE,
                             SIGNED_AT + MAX_CLOCK_SKEW_SECONDS));
  report("tampered body",
         is_genuine_response(PUBLIC_KEY, TIMESTAMP, NONCE,
                             R"({"success":true,"message":"user verified","code":"OK"})",
                             SIGNATURE, SIGNED_AT));
  report("wrong nonce", is_genuine_response(PUBLIC_KEY, TIMESTAMP,
                                            "c2f1b6a0-7e44-4f7e-9d1b-0b8f6f7f9e12", BODY,
                                            SIGNATURE, SIGNED_AT));
  report("empty nonce",
         is_genuine_response(PUBLIC_KEY, TIMESTAMP, "", BODY, SIGNATURE, SIGNED_AT));
  report("stale timestamp", is_genuine_response(PUBLIC_KEY, TIMESTAMP, NONCE, BODY, SIGNATURE,
                                                SIGNED_AT + MAX_CLOCK_SKEW_SECONDS + 1));
  report("timestamp from the future",
         is_genuine_response(PUBLIC_KEY, TIMESTAMP, NONCE, BODY, SIGNATURE,
                             SIGNED_AT - MAX_CLOCK_SKEW_SECONDS - 1));
  report("changed timestamp header", is_genuine_response(PUBLIC_KEY, "1775044801", NONCE, BODY,
                                                         SIGNATURE, SIGNED_AT));
  report("wrong key",
         is_genuine_response(OTHER_PUBLIC_KEY, TIMESTAMP, NONCE, BODY, SIGNATURE, SIGNED_AT));
  report("missing signature",
         is_genuine_response(PUBLIC_KEY, TIMESTAMP, NONCE, BODY, "", SIGNED_AT));
  report("truncated signature", is_genuine_response(PUBLIC_KEY, TIMESTAMP, NONCE, BODY,
                                                    SIGNATURE.substr(0, 126), SIGNED_AT));
  report("missing timestamp",
         is_genuine_response(PUBLIC_KEY, "", NONCE, BODY, SIGNATURE, SIGNED_AT));
  report("unconfigured key placeholder",
         is_genuine_response("YOUR_SIGNING_PUBLIC_KEY", TIMESTAMP, NONCE, BODY, SIGNATURE,
                             SIGNED_AT));
  return 0;
}
