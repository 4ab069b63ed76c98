// HttpSession: one client connection, driven by the I/O threads on its own strand: read a request (the header under
// HttpLimits::headerTimeout, then the body), hand it to the server's handler, write the answer, and read the next one
// on the same connection for as long as the client keeps it alive. Between a request and its answer nothing is read,
// and no timer runs, however long the handler takes.
#pragma once

#include "transport/ArrivingBody.h"
#include "transport/HttpRequest.h"
#include "transport/HttpResponse.h"

#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http/empty_body.hpp>
#include <boost/beast/http/message.hpp>
#include <boost/beast/http/parser.hpp>
#include <boost/beast/http/string_body.hpp>

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace onceorder::server {

class HttpServer;

class HttpSession : public std::enable_shared_from_this<HttpSession>
{
public:
    HttpSession(boost::asio::ip::tcp::socket socket, HttpServer& server);
    ~HttpSession();
    HttpSession(const HttpSession&) = delete;
    HttpSession& operator=(const HttpSession&) = delete;

    void start();
    // The server is stopping: close now if no request is being answered, else after its answer.
    void stop();

private:
    void readHeader();
    void onHeader(boost::system::error_code error);
    void readBody();
    void onBody(boost::system::error_code error);
    // The read loop of both phases (the header, then the body): parses what is buffered, and reads more into the
    // buffer, charging what the connection holds to the server's memory budget before each read, until the phase ends.
    void parseOrRead(bool header, boost::system::error_code error);
    void readMore(bool header);
    // What this connection holds now (its read buffer, its body, its unsent answer), charged to the server's budget;
    // false (nothing more charged) if an increase does not fit. Decreases always fit.
    bool chargeHeld(bool mayRefuse = true);
    // Over the server's memory budget: what the connection holds is let go, 503 with Retry-After, closed.
    void refuseOverBudget();
    void dispatch();
    // A read that ended because the client or the server is leaving, not because of what was sent.
    bool gone(const boost::system::error_code& error) const;
    // After a header that was read: a framing the server refuses (400 or 501, with its cause for ErrorAnswer), or 0.
    std::pair<int, std::string_view> framingError() const;
    // After a header over the limit: whether the request line itself was complete within it.
    bool requestLineRead() const;
    // Each chunk-size line of a chunked body: its extensions counted against their limits.
    void onChunkHeader(std::uint64_t size, boost::beast::string_view extensions, boost::system::error_code& error);
    // A chunked body's read buffer is full: whether what the parser waits to see end is the trailer section (else a
    // chunk-size line).
    bool chunkInTrailer() const;
    // What the handlers see of the request, all but its body.
    HttpRequest requestOf(const boost::beast::http::request<ArrivingBody>& message) const;
    // Gives back the body budget this connection's body took, if any.
    void releaseBody();
    // Refuses what the HTTP layer cannot take (400, 413): the answer, then the connection is closed.
    void refuse(int status, std::string_view field = {});
    // After a header that could not be parsed: the name of the first header line holding a control byte, if any
    // (the parser stops at that line, so it is still in the buffer).
    std::string unreadableField() const;
    void write(HttpResponse response, bool keepAlive);
    void onWrite(boost::system::error_code error, bool keepAlive);
    // Closes after an early answer without resetting the connection: our side is shut, and what the client still
    // sends (the rest of a refused body) is read and dropped until it closes or the header timeout runs out, so it
    // reads the answer instead of a reset.
    void lingeringClose();
    void drain();
    void close();

    HttpServer& m_server;
    boost::beast::tcp_stream m_stream;
    boost::beast::flat_buffer m_buffer;
    std::optional<boost::beast::http::request_parser<ArrivingBody>> m_parser;
    // The parser keeps a reference to its chunk-header callback: it lives as long as the session.
    std::function<void(std::uint64_t, boost::beast::string_view, boost::system::error_code&)> m_chunkHeader;
    std::size_t m_extensionBytes = 0; // of the body being read, all its chunk extensions so far
    bool m_chunkLineTooLong = false; // the callback refused a chunk line (413)
    // Kept alive until its asynchronous write completes.
    boost::beast::http::response<boost::beast::http::string_body> m_response;
    boost::beast::http::response<boost::beast::http::empty_body> m_continue;
    // Where a lingering close drops what the client still sends: made only then, so a connection that is read as
    // usual does not carry it.
    std::unique_ptr<std::array<char, 4 * 1024>> m_discard;
    std::string m_remoteAddr;
    std::optional<HttpRequest> m_request; // the request as the header check saw it, while its body is read
    std::size_t m_reservedBody = 0; // of the server's in-flight body budget, while this body is read
    std::size_t m_held = 0; // of the server's memory budget (HttpLimits::maxHeldBytes)
    bool m_head = false; // the request being answered is a HEAD: its answer goes without the body
    bool m_answering = false; // a request is with the handler or its answer is being written
    bool m_stopping = false;
};

} // namespace onceorder::server
