// The transport's kept-alive connections, against a small HTTP/1.1 server on 127.0.0.1 that
// counts the connections it accepts and the requests it reads: calls after the first reuse the
// connection, two threads at once each get a handle of their own, and a request that must
// never be sent twice goes on a new connection, so that libcurl's own resend on a kept
// connection the server dropped cannot deliver it twice.

#include "http_transport.hpp"

#include <latchkey/errors.hpp>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace {

int failures = 0;

void check(bool is_true, const std::string& what) {
  if (!is_true) {
    std::fprintf(stderr, "FAILED: %s\n", what.c_str());
    ++failures;
  }
}

using latchkey::detail::ConnectionPool;
using latchkey::detail::HttpRequest;

// Answers "ok" to every request and keeps the connection open, or, while is_dropping, reads
// the request and closes the connection without a byte of answer (a server that failed after
// taking it, or dropped an idle connection as the request arrived).
class CountingServer {
 public:
  CountingServer() {
    listener_ = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof address;
    if (listener_ < 0 || bind(listener_, reinterpret_cast<sockaddr*>(&address), length) != 0 ||
        listen(listener_, 16) != 0 ||
        getsockname(listener_, reinterpret_cast<sockaddr*>(&address), &length) != 0) {
      std::perror("listen");
      std::exit(2);
    }
    port_ = ntohs(address.sin_port);
    acceptor_ = std::thread([this] { accept_all(); });
  }

  ~CountingServer() {
    shutdown(listener_, SHUT_RDWR);
    acceptor_.join();
    close(listener_);
    std::lock_guard<std::mutex> lock(mutex_);
    for (std::thread& connection : connections_) connection.join();
  }

  std::string url() const { return "http://127.0.0.1:" + std::to_string(port_) + "/echo"; }

  std::atomic<int> accepted{0};
  std::atomic<int> requests{0};
  std::atomic<bool> is_dropping{false};

 private:
  void accept_all() {
    for (;;) {
      const int connection = accept(listener_, nullptr, nullptr);
      if (connection < 0) return;
      ++accepted;
      std::lock_guard<std::mutex> lock(mutex_);
      connections_.emplace_back([this, connection] { serve(connection); });
    }
  }

  // One request after another until the client closes (or the server drops it).
  void serve(int connection) {
    std::string received;
    char buffer[4096];
    for (;;) {
      const std::size_t head_end = received.find("\r\n\r\n");
      if (head_end != std::string::npos) {
        std::size_t body_length = 0;
        const std::size_t field = received.find("Content-Length: ");
        if (field != std::string::npos && field < head_end)
          body_length = std::stoul(received.substr(field + 16));
        if (received.size() >= head_end + 4 + body_length) {
          received.erase(0, head_end + 4 + body_length);
          ++requests;
          if (is_dropping) break;
          const std::string answer =
              "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n\r\nok";
          if (send(connection, answer.data(), answer.size(), MSG_NOSIGNAL) < 0) break;
          continue;
        }
      }
      const ssize_t count = recv(connection, buffer, sizeof buffer, 0);
      if (count <= 0) break;
      received.append(buffer, static_cast<std::size_t>(count));
    }
    close(connection);
  }

  int listener_ = -1;
  int port_ = 0;
  std::thread acceptor_;
  std::mutex mutex_;
  std::vector<std::thread> connections_;
};

HttpRequest request_to(const CountingServer& server, bool is_repeatable) {
  HttpRequest request;
  request.url = server.url();
  request.headers = {"Content-Type: application/json", "Expect:"};
  request.body = "{\"n\":1}";
  request.timeout = std::chrono::milliseconds(5000);
  request.is_repeatable = is_repeatable;
  return request;
}

// The body, or "(failed: ...)" when the exchange threw.
std::string exchange(ConnectionPool& pool, const HttpRequest& request) {
  try {
    const latchkey::detail::HttpResponse response =
        latchkey::detail::send_request(pool, request, 1024);
    if (response.status != 200) return "(HTTP " + std::to_string(response.status) + ")";
    return response.body;
  } catch (const latchkey::TransportError& error) {
    return std::string("(failed: ") + error.what() + ")";
  }
}

}  // namespace

int main() {
  CountingServer server;
  {
    ConnectionPool pool;

    for (int index = 0; index < 3; ++index)
      check(exchange(pool, request_to(server, true)) == "ok", "a repeatable call is answered");
    check(server.accepted == 1, "three calls one after another share one connection (accepted " +
                                    std::to_string(server.accepted) + ")");

    check(exchange(pool, request_to(server, false)) == "ok", "a call sent once is answered");
    check(server.accepted == 2, "a call sent once opens a new connection (accepted " +
                                    std::to_string(server.accepted) + ")");
    check(exchange(pool, request_to(server, true)) == "ok", "the next call is answered");
    check(server.accepted == 2, "the next call reuses a kept connection (accepted " +
                                    std::to_string(server.accepted) + ")");

    // A caller thread and the heartbeat thread at once: each exchange on a handle of its own.
    const int accepted_before = server.accepted;
    std::atomic<int> answered{0};
    std::vector<std::thread> threads;
    for (int thread = 0; thread < 2; ++thread)
      threads.emplace_back([&] {
        for (int index = 0; index < 25; ++index)
          if (exchange(pool, request_to(server, true)) == "ok") ++answered;
      });
    for (std::thread& thread : threads) thread.join();
    check(answered == 50, "every call of two threads at once is answered (" +
                              std::to_string(answered) + " of 50)");
    check(server.accepted <= accepted_before + 2,
          "two threads at once keep their connections (accepted " +
              std::to_string(server.accepted - accepted_before) + " more)");

    // The server takes the request on the kept connection and closes it without an answer.
    check(exchange(pool, request_to(server, true)) == "ok", "a connection is kept");
    server.is_dropping = true;
    int requests_before = server.requests;
    const std::string once = exchange(pool, request_to(server, false));
    check(once.rfind("(failed", 0) == 0, "a dropped call sent once fails: " + once);
    check(server.requests - requests_before == 1,
          "a call sent once reaches the server once (" +
              std::to_string(server.requests - requests_before) + " times)");

    server.is_dropping = false;
    check(exchange(pool, request_to(server, true)) == "ok", "a connection is kept again");
    server.is_dropping = true;
    requests_before = server.requests;
    const std::string repeatable = exchange(pool, request_to(server, true));
    check(repeatable.rfind("(failed", 0) == 0, "a dropped repeatable call fails: " + repeatable);
    // libcurl's own resend, after the kept connection died without an answer (on another kept
    // connection of the handle, if it has one, then on a new one): allowed for a call that is
    // safe to repeat, and the reason a call sent once gets a new connection.
    check(server.requests - requests_before >= 2,
          "a repeatable call on a kept connection is resent by libcurl (" +
              std::to_string(server.requests - requests_before) + " times)");
    server.is_dropping = false;
  }  // the pool closes its connections, so the server's threads end
  if (failures == 0) std::printf("connection pool: all checks passed\n");
  return failures == 0 ? 0 : 1;
}
