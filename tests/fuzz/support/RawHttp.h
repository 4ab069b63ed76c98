// RawHttp: sends arbitrary bytes to a server on loopback and splits what comes back into HTTP responses, for the
// fuzzer of whole requests (no HTTP client library would send malformed bytes).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace onceorder::fuzz {

struct RawResponse
{
    int status = 0;
    std::string headers; // the head as sent, status line included
    std::string body;
};

struct RawExchange
{
    std::vector<RawResponse> responses;
    bool unframed = false; // bytes after the last response that are not a whole response
};

// Connects to 127.0.0.1:port, writes `bytes` and reads the first response: until it is complete, the server
// closes, or nothing arrives for a second (the server is waiting for bytes that will never come, e.g. a body
// shorter than its Content-Length; closing then ends the request before any handler ran). Only the first request
// of the bytes is answered: the HTTP library reads each request of a connection into a fresh buffer, so whatever
// was pipelined behind the first one is dropped, and waiting for its answer would only wait out the keep-alive.
RawExchange sendRaw(int port, std::string_view bytes);

} // namespace onceorder::fuzz
