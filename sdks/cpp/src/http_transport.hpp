#ifndef LATCHKEY_SRC_HTTP_TRANSPORT_HPP
#define LATCHKEY_SRC_HTTP_TRANSPORT_HPP

// HTTP through libcurl, with an explicit proxy or none, on connections kept alive per client.

#include <curl/curl.h>

#include <atomic>
#include <chrono>
#include <cstddef>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace latchkey::detail {

// The libcurl easy handles one client reuses, and with them its kept-alive connections: a handle
// keeps its open connections (and its DNS and TLS session caches) through curl_easy_reset, so a
// call after the first skips the TCP and TLS handshakes. Each exchange takes a handle of its own
// and gives it back when done, so the heartbeat thread and any caller threads never share
// libcurl state: libcurl's share interface could hold one connection cache for all
// (CURL_LOCK_DATA_CONNECT), but libcurl does not support that cache's use from concurrent
// threads. Every option is set again for each exchange (the proxy and the timeouts included);
// libcurl only reuses a connection made for the same host, port and proxy.
class ConnectionPool {
 public:
  ConnectionPool() = default;
  ~ConnectionPool();  // closes every kept connection
  ConnectionPool(const ConnectionPool&) = delete;
  ConnectionPool& operator=(const ConnectionPool&) = delete;

  // An idle handle (the one given back last, whose connection is the likeliest still open), or
  // a new one; nullptr when libcurl cannot make one.
  CURL* take();
  // Clears the handle's options (its connections stay open) and keeps it for the next exchange;
  // beyond the few idle handles one program's calls need, it is closed.
  void give_back(CURL* handle);

 private:
  std::mutex mutex_;
  std::vector<CURL*> idle_;
};

struct HttpRequest {
  std::string url;
  bool is_post = true;
  std::vector<std::string> headers;  // "Name: value"
  std::string body;
  std::chrono::milliseconds timeout{30000};
  std::string proxy;                           // empty: directly
  const std::atomic<bool>* cancel = nullptr;   // set: the exchange is abandoned
  // false: the request must never reach the server twice, so it goes on a new connection (see
  // perform_request).
  bool is_repeatable = true;
};

struct HttpResponse {
  long status = 0;
  std::map<std::string, std::string> headers;  // names in lower case
  std::string body;
};

// Receives the body as it arrives; false stops the transfer (the caller knows why).
using BodySink = std::function<bool(const char* data, std::size_t length)>;

// One exchange on one of the pool's handles, the body handed to `sink` as it arrives. Throws
// TransportError when no answer came (refused, DNS, reset, timeout, abandoned); answers with
// is_stopped_by_sink set when the sink said stop.
struct HttpOutcome {
  long status = 0;
  std::map<std::string, std::string> headers;
  bool is_stopped_by_sink = false;
};
HttpOutcome perform_request(ConnectionPool& pool, const HttpRequest& request,
                            const BodySink& sink);

// One whole exchange, the body read into memory: at most max_body_bytes (more is Malformed).
HttpResponse send_request(ConnectionPool& pool, const HttpRequest& request,
                          std::size_t max_body_bytes);

}  // namespace latchkey::detail

#endif
