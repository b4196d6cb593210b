#ifndef LATCHKEY_ACTIVATION_REQUEST_HPP
#define LATCHKEY_ACTIVATION_REQUEST_HPP

// Activation requests (LKA1.): a program on a machine that never reaches the server writes one;
// its user pastes it into the application's portal on another computer (signed in, or with the
// licence key it carries) and pastes the offline licence the portal answers back into the
// program, which checks it with verify_offline_license.

#include <latchkey/latchkey_export.h>
#include <latchkey/offline_license.hpp>

#include <optional>
#include <string>

namespace latchkey {

// What an activation request names beside the application's key and the machine's HWID.
struct ActivationRequestOptions {
  // The licence key the user entered: without a signed-in portal session it decides who.
  std::optional<std::string> license_key;
  // The account the user named, when they have one (a signed-in portal user must be it).
  std::optional<std::string> username;
  // A name for this machine in the user's devices (a Client's device_name unless given).
  std::optional<std::string> device_name;
  // Asks for an LK1E. licence, encrypted to this machine's HWID, instead of LK1.
  bool encrypt = false;
  // 16 to 64 of A-Z a-z 0-9 _ -; 16 random bytes in base64url when not given.
  std::optional<std::string> nonce;
  // When the request is written (this machine's clock when not given).
  std::optional<TimePoint> now;
};

// The text of an activation request, LKA1.<payload>.<check>, written without the network:
// <payload> the base64url of the UTF-8 JSON content (app: the public key in lower case, hwid,
// license_key, username, device_name, encrypt, nonce, created_at: UTC to the millisecond, in
// that order; an empty text and encrypt false are left out), <check> the first 16 characters of
// the base64url of SHA-256 over "latchkey-activation-v1." and the payload segment: nothing
// secret signs it, the check catches a request copied in part. The same bytes in every Latchkey
// SDK. hwid is this machine's HWID exactly as the program sends it at login. Throws
// std::invalid_argument for a public key that is not 64 hex digits, an empty HWID, a nonce
// outside its alphabet or length, or a text that is not UTF-8 without NUL.
LATCHKEY_EXPORT std::string create_activation_request(const std::string& public_key_hex,
                                                      const std::string& hwid,
                                                      const ActivationRequestOptions& options = {});

}  // namespace latchkey

#endif
