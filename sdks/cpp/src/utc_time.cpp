#include "utc_time.hpp"

#include <latchkey/offline_license.hpp>

#include <cctype>
#include <chrono>
#include <cstdio>

namespace latchkey::detail {

namespace {

// Days from 1970-01-01 to a civil date (proleptic Gregorian).
long long days_from_civil(long long year, unsigned month, unsigned day) {
  year -= month <= 2 ? 1 : 0;
  const long long era = (year >= 0 ? year : year - 399) / 400;
  const auto year_of_era = static_cast<unsigned>(year - era * 400);
  const unsigned day_of_year = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1;
  const unsigned day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
  return era * 146097 + static_cast<long long>(day_of_era) - 719468;
}

// The civil date (proleptic Gregorian) of a day counted from 1970-01-01.
void civil_from_days(long long days, long long& year, unsigned& month, unsigned& day) {
  days += 719468;
  const long long era = (days >= 0 ? days : days - 146096) / 146097;
  const auto day_of_era = static_cast<unsigned>(days - era * 146097);
  const unsigned year_of_era =
      (day_of_era - day_of_era / 1460 + day_of_era / 36524 - day_of_era / 146096) / 365;
  const unsigned day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
  const unsigned shifted_month = (5 * day_of_year + 2) / 153;
  day = day_of_year - (153 * shifted_month + 2) / 5 + 1;
  month = shifted_month < 10 ? shifted_month + 3 : shifted_month - 9;
  year = static_cast<long long>(year_of_era) + era * 400 + (month <= 2 ? 1 : 0);
}

bool read_digits(const std::string& text, std::size_t& at, std::size_t count, int& value) {
  if (at + count > text.size()) return false;
  value = 0;
  for (std::size_t i = 0; i < count; ++i) {
    const char c = text[at + i];
    if (c < '0' || c > '9') return false;
    value = value * 10 + (c - '0');
  }
  at += count;
  return true;
}

bool read_char(const std::string& text, std::size_t& at, const char* accepted) {
  if (at >= text.size()) return false;
  for (const char* c = accepted; *c != '\0'; ++c)
    if (text[at] == *c) {
      ++at;
      return true;
    }
  return false;
}

bool is_leap(int year) { return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0; }

int days_in_month(int year, int month) {
  static const int days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return month == 2 && is_leap(year) ? 29 : days[month - 1];
}

}  // namespace

std::optional<long long> unix_milliseconds_of_iso(const std::string& text) {
  std::size_t at = 0;
  int year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0;
  if (!read_digits(text, at, 4, year) || !read_char(text, at, "-") ||
      !read_digits(text, at, 2, month) || !read_char(text, at, "-") ||
      !read_digits(text, at, 2, day) || !read_char(text, at, "Tt ") ||
      !read_digits(text, at, 2, hour) || !read_char(text, at, ":") ||
      !read_digits(text, at, 2, minute) || !read_char(text, at, ":") ||
      !read_digits(text, at, 2, second))
    return std::nullopt;
  if (month < 1 || month > 12 || day < 1 || day > days_in_month(year, month) || hour > 23 ||
      minute > 59 || second > 59)
    return std::nullopt;
  long long milliseconds = 0;
  if (at < text.size() && (text[at] == '.' || text[at] == ',')) {
    ++at;
    const std::size_t first = at;
    long long scale = 100;
    while (at < text.size() && std::isdigit(static_cast<unsigned char>(text[at]))) {
      milliseconds += (text[at] - '0') * scale;  // digits past the millisecond are dropped
      scale /= 10;
      ++at;
    }
    if (at == first) return std::nullopt;
  }
  long long offset_minutes = 0;
  if (at < text.size()) {
    if (read_char(text, at, "Zz")) {
      // UTC
    } else if (text[at] == '+' || text[at] == '-') {
      const int sign = text[at] == '-' ? -1 : 1;
      ++at;
      int offset_hours = 0, offset_minute = 0;
      if (!read_digits(text, at, 2, offset_hours)) return std::nullopt;
      read_char(text, at, ":");
      if (!read_digits(text, at, 2, offset_minute) || offset_hours > 23 || offset_minute > 59)
        return std::nullopt;
      offset_minutes = sign * (offset_hours * 60LL + offset_minute);
    } else {
      return std::nullopt;
    }
  }
  if (at != text.size()) return std::nullopt;
  const long long days =
      days_from_civil(year, static_cast<unsigned>(month), static_cast<unsigned>(day));
  const long long seconds =
      days * 86400 + hour * 3600LL + minute * 60LL + second - offset_minutes * 60;
  return seconds * 1000 + milliseconds;
}

std::string iso_of_unix_milliseconds(long long milliseconds) {
  constexpr long long per_day = 86400000;
  const long long days = milliseconds / per_day - (milliseconds % per_day < 0 ? 1 : 0);
  const long long of_day = milliseconds - days * per_day;
  long long year = 0;
  unsigned month = 0, day = 0;
  civil_from_days(days, year, month, day);
  char text[128];  // room for the widest values the format allows
  std::snprintf(text, sizeof text, "%04lld-%02u-%02uT%02lld:%02lld:%02lld.%03lldZ", year, month,
                day, of_day / 3600000, of_day / 60000 % 60, of_day / 1000 % 60, of_day % 1000);
  return text;
}

long long now_unix_milliseconds() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace latchkey::detail

namespace latchkey {

std::optional<TimePoint> parse_utc_time(const std::string& text) {
  const std::optional<long long> milliseconds = detail::unix_milliseconds_of_iso(text);
  if (!milliseconds) return std::nullopt;
  return TimePoint(std::chrono::duration_cast<TimePoint::duration>(
      std::chrono::milliseconds(*milliseconds)));
}

}  // namespace latchkey
