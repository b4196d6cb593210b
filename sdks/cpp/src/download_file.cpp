#include "download_file.hpp"

#include "encoding.hpp"

#include <latchkey/errors.hpp>

#include <sodium.h>

#include <cstdio>
#include <filesystem>
#include <system_error>

namespace latchkey::detail {

namespace {

SignatureError digest_refusal(const std::string& what) {
  return SignatureError(SignatureErrorReason::Digest,
                        "The download does not match its signed size and SHA-256: " + what);
}

struct FileCloser {
  void operator()(std::FILE* file) const { std::fclose(file); }
};

}  // namespace

void download_file(ConnectionPool& pool, const HttpRequest& request,
                   const std::string& destination, unsigned long long size,
                   const std::string& sha256) {
  namespace fs = std::filesystem;
  ensure_sodium();
  const fs::path target = fs::absolute(fs::path(destination));
  const fs::path temporary =
      target.parent_path() / ("." + target.filename().string() + "." + random_hex(6) + ".part");
  struct RemoveUnlessKept {
    const fs::path& path;
    bool is_kept = false;
    ~RemoveUnlessKept() {
      std::error_code ignored;
      if (!is_kept) fs::remove(path, ignored);
    }
  } cleanup{temporary};

  // "x": created here, never an existing file (or a link someone placed at that name).
  std::unique_ptr<std::FILE, FileCloser> file(std::fopen(temporary.string().c_str(), "wbx"));
  if (!file)
    throw TransportError(TransportErrorReason::Unreachable,
                         "Cannot write beside " + target.string());
  crypto_hash_sha256_state hash;
  crypto_hash_sha256_init(&hash);
  unsigned long long received = 0;
  bool is_longer_than_signed = false;
  bool is_write_failed = false;
  const HttpOutcome outcome =
      perform_request(pool, request, [&](const char* data, std::size_t length) {
        received += length;
        if (received > size) {
          // More than was signed is wrong already: stop rather than fill the disk.
          is_longer_than_signed = true;
          return false;
        }
        crypto_hash_sha256_update(&hash, reinterpret_cast<const unsigned char*>(data), length);
        if (std::fwrite(data, 1, length, file.get()) != length) {
          is_write_failed = true;
          return false;
        }
        return true;
      });
  if (outcome.status != 200 && !is_longer_than_signed)
    throw TransportError(outcome.status >= 500 ? TransportErrorReason::ServerError
                                               : TransportErrorReason::Unreachable,
                         "The download answered HTTP " + std::to_string(outcome.status),
                         outcome.status);
  if (is_longer_than_signed)
    throw digest_refusal("more than the " + std::to_string(size) + " bytes signed");
  if (is_write_failed || std::fclose(file.release()) != 0)
    throw TransportError(TransportErrorReason::Unreachable, "Cannot write " + temporary.string());
  unsigned char digest[crypto_hash_sha256_BYTES];
  crypto_hash_sha256_final(&hash, digest);
  const std::string actual = to_hex(digest, sizeof digest);
  if (received != size || actual != lower(sha256))
    throw digest_refusal(std::to_string(received) + " bytes with SHA-256 " + actual);
  std::error_code error;
  fs::rename(temporary, target, error);
  if (error)
    throw TransportError(TransportErrorReason::Unreachable,
                         "Cannot move the download to " + target.string() + ": " +
                             error.message());
  cleanup.is_kept = true;
}

}  // namespace latchkey::detail
