#ifndef LATCHKEY_SRC_DOWNLOAD_FILE_HPP
#define LATCHKEY_SRC_DOWNLOAD_FILE_HPP

#include "http_transport.hpp"

#include <string>

namespace latchkey::detail {

// Streams a download (request: a GET) into a temporary file beside destination while hashing
// it, and moves it into place only when its size and SHA-256 are the signed ones. The bytes
// themselves are not signed (anything on the way could change them), the hash is; a file that
// does not match is deleted, never left where the program would run it. Throws
// SignatureError(Digest) for bytes that do not match, TransportError when they do not come.
void download_file(ConnectionPool& pool, const HttpRequest& request,
                   const std::string& destination, unsigned long long size,
                   const std::string& sha256);

}  // namespace latchkey::detail

#endif
