#ifndef LATCHKEY_SRC_RESULT_FIELDS_HPP
#define LATCHKEY_SRC_RESULT_FIELDS_HPP

// A result's fields as JSON: nlohmann-json stays inside the library, behind Result.

#include <latchkey/result.hpp>

#include <nlohmann/json.hpp>

namespace latchkey::detail {

using Json = nlohmann::json;

struct ResultFields {
  Json fields;  // an object with success (bool), code (string) and message (string)
  std::string code_text;
  std::string message;
};

// JSON text, any invalid UTF-8 replaced rather than thrown about.
std::string dump(const Json& value);

// A result of these fields; success, code and message must already be there.
Result result_of(Json fields);

// The meters of a meters field (a result's, an offline licence's); an entry that is not one is
// left out.
std::vector<Meter> meters_of(const Json& field);

}  // namespace latchkey::detail

#endif
