#ifndef LATCHKEY_SRC_UTC_TIME_HPP
#define LATCHKEY_SRC_UTC_TIME_HPP

// ISO 8601 times as milliseconds since the epoch, without the C library's time zone (timegm is
// not portable and mktime is local).

#include <optional>
#include <string>

namespace latchkey::detail {

// "2026-06-08T12:00:00.000Z": date, time, an optional fraction and Z or a ±HH:MM offset (none
// means UTC), as the server and JavaScript's toISOString write them.
std::optional<long long> unix_milliseconds_of_iso(const std::string& text);

long long now_unix_milliseconds();

// "2026-06-08T12:00:00.000Z": UTC to the millisecond, as JavaScript's toISOString writes it
// (years 0 to 9999).
std::string iso_of_unix_milliseconds(long long milliseconds);

}  // namespace latchkey::detail

#endif
