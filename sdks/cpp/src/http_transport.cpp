#include "http_transport.hpp"

#include "encoding.hpp"

#include <latchkey/errors.hpp>

#include <curl/curl.h>

#include <memory>
#include <mutex>

namespace latchkey::detail {

namespace {

void ensure_curl() {
  // curl_global_init is not thread-safe before libcurl 7.84: once, whichever thread is first.
  // It is never undone (curl_global_cleanup): other code in the program may use libcurl too.
  static std::once_flag once;
  static CURLcode outcome = CURLE_OK;
  std::call_once(once, [] { outcome = curl_global_init(CURL_GLOBAL_DEFAULT); });
  if (outcome != CURLE_OK)
    throw TransportError(TransportErrorReason::Unreachable, "libcurl could not be initialised");
}

struct Exchange {
  const BodySink* sink = nullptr;
  const std::atomic<bool>* cancel = nullptr;
  std::map<std::string, std::string> headers;
  bool is_stopped_by_sink = false;
};

size_t on_body(char* data, size_t size, size_t count, void* user) {
  auto* exchange = static_cast<Exchange*>(user);
  const size_t length = size * count;
  if (!(*exchange->sink)(data, length)) {
    exchange->is_stopped_by_sink = true;
    return 0;  // libcurl stops with CURLE_WRITE_ERROR
  }
  return length;
}

size_t on_header(char* data, size_t size, size_t count, void* user) {
  auto* exchange = static_cast<Exchange*>(user);
  const std::string line(data, size * count);
  if (line.rfind("HTTP/", 0) == 0) {
    // A new status line (after a proxy's CONNECT answer or a 100 Continue): start again.
    exchange->headers.clear();
  } else {
    const size_t colon = line.find(':');
    if (colon != std::string::npos)
      exchange->headers[lower(trim(line.substr(0, colon)))] = trim(line.substr(colon + 1));
  }
  return size * count;
}

int on_progress(void* user, curl_off_t, curl_off_t, curl_off_t, curl_off_t) {
  const auto* exchange = static_cast<Exchange*>(user);
  return exchange->cancel != nullptr && exchange->cancel->load() ? 1 : 0;
}

struct HeaderListDeleter {
  void operator()(curl_slist* list) const { curl_slist_free_all(list); }
};

// More idle handles than this would only hold sockets open: a program's calls come from its own
// thread and the heartbeat's, now and then a download's.
constexpr std::size_t max_idle_handles = 4;

// One exchange's handle, given back to its pool however the exchange ends.
class PooledHandle {
 public:
  explicit PooledHandle(ConnectionPool& pool) : pool_(pool), handle_(pool.take()) {
    if (handle_ == nullptr)
      throw TransportError(TransportErrorReason::Unreachable, "libcurl could not start");
  }
  ~PooledHandle() { pool_.give_back(handle_); }
  PooledHandle(const PooledHandle&) = delete;
  PooledHandle& operator=(const PooledHandle&) = delete;
  CURL* get() const { return handle_; }

 private:
  ConnectionPool& pool_;
  CURL* handle_;
};

}  // namespace

ConnectionPool::~ConnectionPool() {
  for (CURL* handle : idle_) curl_easy_cleanup(handle);
}

CURL* ConnectionPool::take() {
  ensure_curl();
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!idle_.empty()) {
      CURL* handle = idle_.back();
      idle_.pop_back();
      return handle;
    }
  }
  return curl_easy_init();
}

void ConnectionPool::give_back(CURL* handle) {
  // Every option back to its default, so nothing of this exchange (its buffers, its callbacks'
  // data) outlives it; the handle's connections and caches stay. No signals even while idle:
  // closing a kept connection must not touch the process's SIGPIPE handling from any thread.
  curl_easy_reset(handle);
  curl_easy_setopt(handle, CURLOPT_NOSIGNAL, 1L);
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (idle_.size() < max_idle_handles) {
      idle_.push_back(handle);
      return;
    }
  }
  curl_easy_cleanup(handle);
}

HttpOutcome perform_request(ConnectionPool& pool, const HttpRequest& request,
                            const BodySink& sink) {
  const PooledHandle curl(pool);
  curl_slist* list = nullptr;
  for (const std::string& header : request.headers) {
    curl_slist* appended = curl_slist_append(list, header.c_str());
    if (appended == nullptr) {
      curl_slist_free_all(list);
      throw TransportError(TransportErrorReason::Unreachable, "out of memory");
    }
    list = appended;
  }
  const std::unique_ptr<curl_slist, HeaderListDeleter> headers(list);
  Exchange exchange;
  exchange.sink = &sink;
  exchange.cancel = request.cancel;
  char error_text[CURL_ERROR_SIZE] = {0};
  const long timeout_ms = static_cast<long>(request.timeout.count());

  CURL* handle = curl.get();
  curl_easy_setopt(handle, CURLOPT_URL, request.url.c_str());
#if LIBCURL_VERSION_NUM >= 0x075500
  curl_easy_setopt(handle, CURLOPT_PROTOCOLS_STR, "http,https");
#else
  curl_easy_setopt(handle, CURLOPT_PROTOCOLS, CURLPROTO_HTTP | CURLPROTO_HTTPS);
#endif
  curl_easy_setopt(handle, CURLOPT_HTTPHEADER, headers.get());
  if (request.is_post) {
    curl_easy_setopt(handle, CURLOPT_POST, 1L);
    curl_easy_setopt(handle, CURLOPT_POSTFIELDS, request.body.c_str());
    curl_easy_setopt(handle, CURLOPT_POSTFIELDSIZE_LARGE,
                     static_cast<curl_off_t>(request.body.size()));
  }
  // The program chose its proxy in code (or none): the environment's proxy variables, and
  // their no_proxy exceptions, are not this library's to follow.
  curl_easy_setopt(handle, CURLOPT_PROXY, request.proxy.c_str());
  if (!request.proxy.empty()) {
    curl_easy_setopt(handle, CURLOPT_PROXYTYPE, static_cast<long>(CURLPROXY_HTTP));
    curl_easy_setopt(handle, CURLOPT_NOPROXY, "");
  }
  // Redirects are not followed: the client API never redirects, and a redirect would carry
  // the API key elsewhere.
  curl_easy_setopt(handle, CURLOPT_FOLLOWLOCATION, 0L);
  curl_easy_setopt(handle, CURLOPT_TIMEOUT_MS, timeout_ms);
  curl_easy_setopt(handle, CURLOPT_CONNECTTIMEOUT_MS, timeout_ms);
  curl_easy_setopt(handle, CURLOPT_NOSIGNAL, 1L);  // used from the heartbeat thread too
  curl_easy_setopt(handle, CURLOPT_USERAGENT, "latchkey-client-cpp");
  curl_easy_setopt(handle, CURLOPT_ERRORBUFFER, error_text);
  curl_easy_setopt(handle, CURLOPT_WRITEFUNCTION, on_body);
  curl_easy_setopt(handle, CURLOPT_WRITEDATA, &exchange);
  curl_easy_setopt(handle, CURLOPT_HEADERFUNCTION, on_header);
  curl_easy_setopt(handle, CURLOPT_HEADERDATA, &exchange);
  curl_easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, on_progress);
  curl_easy_setopt(handle, CURLOPT_XFERINFODATA, &exchange);
  curl_easy_setopt(handle, CURLOPT_NOPROGRESS, 0L);
  // A request that must never reach the server twice goes on a new connection. On a kept
  // connection libcurl sends a request again by itself when the connection turns out closed
  // before any byte of the answer came, taking it for one the server dropped while idle; it
  // cannot tell that from a server that took the request and failed before answering, so a
  // login (or a mail) could then be received twice. On a new connection libcurl never sends
  // again. Those calls are few (a login once a run, and the server spends more on its password
  // hash than a handshake costs); their connection is kept for the calls that follow. A
  // repeatable call may be sent again this way, as the retry rule allows it anyway.
  curl_easy_setopt(handle, CURLOPT_FRESH_CONNECT, request.is_repeatable ? 0L : 1L);

  const CURLcode code = curl_easy_perform(handle);
  HttpOutcome outcome;
  curl_easy_getinfo(handle, CURLINFO_RESPONSE_CODE, &outcome.status);
  outcome.headers = std::move(exchange.headers);
  if (exchange.is_stopped_by_sink) {
    outcome.is_stopped_by_sink = true;
    return outcome;
  }
  if (code == CURLE_OK) return outcome;
  const std::string detail = error_text[0] != '\0' ? error_text : curl_easy_strerror(code);
  if (code == CURLE_OPERATION_TIMEDOUT)
    throw TransportError(TransportErrorReason::Timeout,
                         "No answer within " + std::to_string(timeout_ms) + " ms: " + detail);
  if (code == CURLE_ABORTED_BY_CALLBACK)
    throw TransportError(TransportErrorReason::Unreachable, "The exchange was abandoned");
  throw TransportError(TransportErrorReason::Unreachable, detail);
}

HttpResponse send_request(ConnectionPool& pool, const HttpRequest& request,
                          std::size_t max_body_bytes) {
  HttpResponse response;
  const HttpOutcome outcome =
      perform_request(pool, request, [&](const char* data, std::size_t length) {
        if (response.body.size() + length > max_body_bytes) return false;
        response.body.append(data, length);
        return true;
      });
  if (outcome.is_stopped_by_sink)
    throw TransportError(TransportErrorReason::Malformed,
                         "The answer is larger than any the server sends", outcome.status);
  response.status = outcome.status;
  response.headers = outcome.headers;
  return response;
}

}  // namespace latchkey::detail
