#ifndef LATCHKEY_SRC_MACHINE_ID_HPP
#define LATCHKEY_SRC_MACHINE_ID_HPP

#include <string>

namespace latchkey::detail {

// This machine's own identifier: Windows' MachineGuid, macOS's IOPlatformUUID, Linux's
// /etc/machine-id; where none can be read, "host:" and the host name (less stable: it can be
// renamed). Stable across reboots and program updates.
std::string read_raw_machine_id();

// SHA-256 (hex) of "latchkey-machine-id-v1.{public key, lower case}.{raw id, trimmed}".
std::string hash_machine_id(const std::string& raw_machine_id, const std::string& public_key_hex);

}  // namespace latchkey::detail

#endif
