#include "machine_id.hpp"

#include "encoding.hpp"

#include <fstream>
#include <sstream>

#ifdef _WIN32
#include <windows.h>
#elif defined(__APPLE__)
#include <CoreFoundation/CoreFoundation.h>
#include <IOKit/IOKitLib.h>
#include <unistd.h>
#else
#include <unistd.h>
#endif

namespace latchkey::detail {

namespace {

std::string platform_machine_id() {
#ifdef _WIN32
  // KEY_WOW64_64KEY: a 32-bit program on 64-bit Windows would otherwise read the redirected
  // view. The registry is read directly: no console window flashes up.
  HKEY key;
  if (RegOpenKeyExA(HKEY_LOCAL_MACHINE, "SOFTWARE\\Microsoft\\Cryptography", 0,
                    KEY_READ | KEY_WOW64_64KEY, &key) != ERROR_SUCCESS)
    return "";
  char value[256] = {0};
  DWORD size = sizeof value - 1;
  DWORD type = 0;
  const LONG status = RegQueryValueExA(key, "MachineGuid", nullptr, &type,
                                       reinterpret_cast<LPBYTE>(value), &size);
  RegCloseKey(key);
  return status == ERROR_SUCCESS && type == REG_SZ ? std::string(value) : "";
#elif defined(__APPLE__)
  // IOKit directly rather than running ioreg: a library starts no processes.
  std::string id;
  const io_service_t service =
      IOServiceGetMatchingService(0, IOServiceMatching("IOPlatformExpertDevice"));
  if (service == 0) return id;
  const CFTypeRef property = IORegistryEntryCreateCFProperty(
      service, CFSTR(kIOPlatformUUIDKey), kCFAllocatorDefault, 0);
  IOObjectRelease(service);
  if (property == nullptr) return id;
  char buffer[128] = {0};
  if (CFGetTypeID(property) == CFStringGetTypeID() &&
      CFStringGetCString(static_cast<CFStringRef>(property), buffer, sizeof buffer,
                         kCFStringEncodingUTF8))
    id = buffer;
  CFRelease(property);
  return id;
#else
  // Where Linux (and most BSDs with D-Bus) keep the machine's identifier, the first found.
  for (const char* path : {"/etc/machine-id", "/var/lib/dbus/machine-id"}) {
    std::ifstream file(path);
    if (!file) continue;
    std::stringstream text;
    text << file.rdbuf();
    const std::string id = trim(text.str());
    if (!id.empty()) return id;
  }
  return "";
#endif
}

std::string host_name() {
#ifdef _WIN32
  char name[MAX_COMPUTERNAME_LENGTH + 1] = {0};
  DWORD size = sizeof name;
  return GetComputerNameA(name, &size) ? std::string(name) : "unknown";
#else
  char name[256] = {0};
  return gethostname(name, sizeof name - 1) == 0 ? std::string(name) : "unknown";
#endif
}

}  // namespace

std::string read_raw_machine_id() {
  const std::string id = trim(platform_machine_id());
  return id.empty() ? "host:" + host_name() : id;
}

std::string hash_machine_id(const std::string& raw_machine_id, const std::string& public_key_hex) {
  public_key_from_hex(public_key_hex);  // a key that is no key is the caller's mistake
  ensure_sodium();
  return sha256_hex("latchkey-machine-id-v1." + lower(public_key_hex) + "." +
                    trim(raw_machine_id));
}

}  // namespace latchkey::detail
