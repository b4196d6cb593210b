#ifndef LATCHKEY_SRC_HTTP_TRANSPORT_HPP
#define LATCHKEY_SRC_HTTP_TRANSPORT_HPP

// HTTP through libcurl, with an explicit proxy or none.

#include <atomic>
#include <chrono>
#include <cstddef>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace latchkey::detail {

struct HttpRequest {
  std::string url;
  bool is_post = true;
  std::vector<std::string> headers;  // "Name: value"
  std::string body;
  std::chrono::milliseconds timeout{30000};
  std::string proxy;                           // empty: directly
  const std::atomic<bool>* cancel = nullptr;   // set: the exchange is abandoned
};

struct HttpResponse {
  long status = 0;
  std::map<std::string, std::string> headers;  // names in lower case
  std::string body;
};

// Receives the body as it arrives; false stops the transfer (the caller knows why).
using BodySink = std::function<bool(const char* data, std::size_t length)>;

// One exchange, the body handed to `sink`. Throws TransportError when no answer came (refused,
// DNS, reset, timeout, abandoned); answers with is_stopped_by_sink set when the sink said stop.
struct HttpOutcome {
  long status = 0;
  std::map<std::string, std::string> headers;
  bool is_stopped_by_sink = false;
};
HttpOutcome perform_request(const HttpRequest& request, const BodySink& sink);

// One whole exchange, the body read into memory: at most max_body_bytes (more is Malformed).
HttpResponse send_request(const HttpRequest& request, std::size_t max_body_bytes);

}  // namespace latchkey::detail

#endif
