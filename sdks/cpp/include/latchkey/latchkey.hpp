#ifndef LATCHKEY_LATCHKEY_HPP
#define LATCHKEY_LATCHKEY_HPP

// The whole C++ interface of the Latchkey client.

#include <latchkey/activation_request.hpp>
#include <latchkey/answer_signature.hpp>
#include <latchkey/client.hpp>
#include <latchkey/errors.hpp>
#include <latchkey/offline_license.hpp>
#include <latchkey/result.hpp>
#include <latchkey/version.hpp>

#endif
