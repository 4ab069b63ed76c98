#include "transport/HttpSession.h"

#include "transport/HttpServer.h"

#include <boost/asio/dispatch.hpp>
#include <boost/asio/post.hpp>
#include <boost/beast/core/error.hpp>
#include <boost/beast/http/error.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/rfc7230.hpp>
#include <boost/beast/http/write.hpp>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <string_view>

namespace onceorder::server {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = boost::beast::http;

namespace {

bool expectsContinue(std::string_view value)
{
    constexpr std::string_view expected = "100-continue";
    return value.size() == expected.size() &&
        std::equal(value.begin(), value.end(), expected.begin(),
                   [](char a, char b) { return std::tolower(static_cast<unsigned char>(a)) == b; });
}

bool startsWithNoCase(std::string_view text, std::string_view prefix)
{
    return text.size() >= prefix.size() && std::equal(prefix.begin(), prefix.end(), text.begin(), [](char a, char b) {
               return std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b));
           });
}

// Whether a header that has arrived whole folds a line into a field that frames the request (RFC 9112 §5.2: a line
// that begins with a space or a tab continues the field before it). Beast unfolds such a line into the value before
// the server sees it, so "Transfer-Encoding:" CRLF " chunked" would be read as chunked where a proxy may read it
// otherwise: the raw bytes are looked at before they are parsed. Only complete headers are looked at.
bool obsFoldInFraming(std::string_view buffered)
{
    const auto end = buffered.find("\r\n\r\n");
    if (end == std::string_view::npos) {
        return false;
    }
    std::string_view head = buffered.substr(0, end + 2);
    head.remove_prefix(std::min(head.size(), head.find("\r\n") + 2)); // the request line
    bool framing = false;
    while (!head.empty()) {
        const auto lineEnd = head.find("\r\n");
        const std::string_view line = head.substr(0, lineEnd);
        if (!line.empty() && (line.front() == ' ' || line.front() == '\t')) {
            if (framing) {
                return true;
            }
        } else {
            framing = startsWithNoCase(line, "transfer-encoding:") || startsWithNoCase(line, "content-length:") ||
                startsWithNoCase(line, "host:");
        }
        head.remove_prefix(std::min(head.size(), lineEnd + 2));
    }
    return false;
}

} // namespace

HttpSession::HttpSession(net::ip::tcp::socket socket, HttpServer& server)
    : m_server(server)
    , m_stream(std::move(socket))
    , m_chunkHeader([this](std::uint64_t size, beast::string_view extensions, beast::error_code& error) {
        onChunkHeader(size, extensions, error);
    })
{
    boost::system::error_code ignored;
    m_stream.socket().set_option(net::ip::tcp::no_delay(true), ignored);
    const auto remote = m_stream.socket().remote_endpoint(ignored);
    m_remoteAddr = ignored ? std::string() : remote.address().to_string();
}

HttpSession::~HttpSession()
{
    releaseBody();
    m_server.chargeHeld(m_held, 0, false);
    m_server.remove(this);
}

void HttpSession::start()
{
    net::dispatch(m_stream.get_executor(), [self = shared_from_this()] { self->readHeader(); });
}

void HttpSession::stop()
{
    net::dispatch(m_stream.get_executor(), [self = shared_from_this()] {
        self->m_stopping = true;
        if (!self->m_answering) {
            self->close();
        }
    });
}

void HttpSession::readHeader()
{
    if (m_stopping || m_server.stopping()) {
        close();
        return;
    }
    m_parser.emplace();
    m_request.reset();
    m_extensionBytes = 0;
    m_chunkLineTooLong = false;
    m_parser->on_chunk_header(m_chunkHeader);
    m_parser->header_limit(static_cast<std::uint32_t>(m_server.m_limits.maxHeaderBytes));
    // The read buffer never holds more than a header may be (with what is pipelined behind it): a header that does not
    // fit is over its limit anyway. Without a maximum Beast grows the buffer for as long as a line does not end.
    m_buffer.max_size(std::max(m_server.m_limits.maxHeaderBytes, m_buffer.size()));
    m_parser->body_limit(m_server.m_limits.maxBodyBytes);
    m_stream.expires_after(m_server.m_limits.headerTimeout);
    parseOrRead(true, {});
}

void HttpSession::parseOrRead(bool header, beast::error_code error)
{
    // As Beast's own read loop does: at the end of the stream a message begun is a partial one, none at all the end.
    if (error == net::error::eof) {
        error = http::error::end_of_stream;
        if (m_parser->got_some()) {
            error = {};
            m_parser->put_eof(error);
        }
    }
    const auto ended = [&] {
        return header ? m_parser->is_header_done() : m_parser->is_done();
    };
    while (!error && !ended() && m_buffer.size() > 0) {
        if (header &&
            obsFoldInFraming(std::string_view(static_cast<const char*>(m_buffer.data().data()), m_buffer.size()))) {
            refuse(400, kBadFraming);
            return;
        }
        const std::size_t used = m_parser->put(m_buffer.data(), error);
        m_buffer.consume(used);
        if (error == http::error::need_more) {
            error = {};
            break;
        }
    }
    // The body grew by what was parsed into it: charged before anything goes on, like the buffer before a read.
    if (!error && !chargeHeld()) {
        refuseOverBudget();
        return;
    }
    if (error || ended()) {
        chargeHeld(false);
        header ? onHeader(error) : onBody(error);
        return;
    }
    readMore(header);
}

void HttpSession::readMore(bool header)
{
    const std::size_t room = m_buffer.max_size() - std::min(m_buffer.size(), m_buffer.max_size());
    if (room == 0) {
        header ? onHeader(http::error::buffer_overflow) : onBody(http::error::buffer_overflow);
        return;
    }
    // The room the buffer has already, or a little more (4 KiB for a header, which most often fits in one; 16 KiB, the
    // buffer's most, for a body, whose bytes move on at once): it grows with what arrives, each growth charged first.
    const std::size_t spare = m_buffer.capacity() - m_buffer.size();
    const std::size_t step = header ? 4096 : 16384;
    const auto space = m_buffer.prepare(std::min(room, std::max(spare, step)));
    if (!chargeHeld()) {
        refuseOverBudget();
        return;
    }
    m_stream.async_read_some(space, [self = shared_from_this(), header](beast::error_code error, std::size_t bytes) {
        self->m_buffer.commit(bytes);
        self->parseOrRead(header, error);
    });
}

bool HttpSession::chargeHeld(bool mayRefuse)
{
    std::size_t held = m_buffer.capacity() + m_response.body().capacity();
    if (m_parser) {
        held += m_parser->get().body().capacity();
    }
    return m_server.chargeHeld(m_held, held, mayRefuse);
}

void HttpSession::refuseOverBudget()
{
    m_buffer.consume(m_buffer.size());
    m_buffer.shrink_to_fit();
    m_parser.reset();
    releaseBody();
    chargeHeld(false);
    refuse(503, kOverMemoryBudget);
}

void HttpSession::onHeader(beast::error_code error)
{
    if (error == http::error::body_limit) {
        refuse(413); // a Content-Length over the limit: refused before a byte of the body is read
        return;
    }
    if (error == http::error::header_limit || error == http::error::buffer_overflow) {
        // The request line alone over the limit is a target too long to read; otherwise the fields are too large.
        refuse(requestLineRead() ? 431 : 414);
        return;
    }
    if (error) {
        // Anything but the client's or the server's leaving is a request that cannot be read.
        if (gone(error)) {
            close();
        } else if (error == http::error::bad_transfer_encoding || error == http::error::bad_content_length) {
            refuse(400, kBadFraming);
        } else {
            const std::string field = unreadableField();
            refuse(400, field);
        }
        return;
    }
    const auto& message = m_parser->get();
    if (const auto [status, cause] = framingError(); status != 0) {
        refuse(status, cause);
        return;
    }
    if (message.target().size() > m_server.m_limits.maxTargetBytes) {
        refuse(414);
        return;
    }
    const auto length = m_parser->content_length();
    if (m_parser->chunked() || (length && *length > 0)) {
        // A body is coming: the route and the credentials decide from the header whether it is read at all.
        std::size_t bodyLimit = m_server.m_limits.maxBodyBytes;
        if (m_server.m_headerCheck) {
            m_request = requestOf(message); // kept for dispatch(): built once per request
            HeaderVerdict verdict = m_server.m_headerCheck(*m_request);
            if (verdict.refusal) {
                // The answer, then a lingering close that drops what the client still sends: the body is never read.
                m_answering = true;
                m_head = message.method() == http::verb::head;
                write(std::move(*verdict.refusal), false);
                return;
            }
            bodyLimit = std::min(bodyLimit, verdict.bodyLimit);
        }
        if (length && *length > bodyLimit) {
            refuse(413);
            return;
        }
        const std::size_t wanted = length ? static_cast<std::size_t>(*length) : bodyLimit;
        if (!m_server.reserveBody(wanted)) {
            refuse(503, kOverBodyBudget);
            return;
        }
        m_reservedBody = wanted;
        m_parser->body_limit(bodyLimit);
    }
    // HTTP/1.0 has no interim answers (RFC 9110 §10.1.1): its client gets only the final one.
    const auto expect = message[http::field::expect];
    if (message.version() >= 11 && expectsContinue(std::string_view(expect.data(), expect.size()))) {
        m_continue = {http::status::continue_, message.version()};
        m_stream.expires_after(m_server.m_limits.headerTimeout);
        http::async_write(m_stream, m_continue, [self = shared_from_this()](beast::error_code written, std::size_t) {
            if (written) {
                self->close();
                return;
            }
            self->readBody();
        });
        return;
    }
    readBody();
}

bool HttpSession::gone(const boost::system::error_code& error) const
{
    // The client closed or went silent past the timeout, or the server is stopping: nothing to answer.
    return error == http::error::end_of_stream || error == http::error::partial_message ||
        error == beast::error::timeout || error == net::error::operation_aborted ||
        error == net::error::connection_reset || m_stopping;
}

std::pair<int, std::string_view> HttpSession::framingError() const
{
    const auto& message = m_parser->get();
    // RFC 9112 §3.2: an HTTP/1.1 request has exactly one Host; an HTTP/1.0 one at most one.
    const auto hosts = message.count(http::field::host);
    if (hosts > 1 || (hosts == 0 && message.version() >= 11)) {
        return {400, kBadHost};
    }
    // §3.2: Host is uri-host [":" port], on every route (not only where the debug routes read it); §3.2.2: an
    // absolute-form target's authority stands for it. §3.2 and RFC 3986: a target is ASCII without controls.
    const auto host = message[http::field::host];
    if (hosts == 1 && !validHost(std::string_view(host.data(), host.size()))) {
        return {400, kBadHost};
    }
    const std::string_view target(message.target().data(), message.target().size());
    if (std::any_of(target.begin(), target.end(), [](char c) {
            return static_cast<unsigned char>(c) <= 0x20 || static_cast<unsigned char>(c) >= 0x7F;
        })) {
        return {400, kBadTarget};
    }
    std::string_view authority;
    std::string originForm;
    if (splitAbsoluteForm(target, authority, originForm) && !validHost(authority)) {
        return {400, kBadHost};
    }
    // RFC 9112 §6.1, §6.3: a Transfer-Encoding whose final coding is not chunked leaves the body's length unknown
    // (read as "no body", its bytes would be taken for the next request: smuggling behind a proxy); with a
    // Content-Length beside it, the two disagree. Both are refused and the connection closed. Codings before a final
    // chunked are ones this server does not implement (501). HTTP/1.0 has no transfer codings.
    if (message.count(http::field::transfer_encoding) == 0) {
        return {0, {}};
    }
    if (message.version() < 11 || message.count(http::field::content_length) > 0 || !m_parser->chunked()) {
        return {400, kBadFraming};
    }
    std::size_t codings = 0;
    for (const auto& field : message) {
        if (field.name() == http::field::transfer_encoding) {
            for (const auto& coding : http::token_list(field.value())) {
                (void)coding;
                ++codings;
            }
        }
    }
    return {codings == 1 ? 0 : 501, {}};
}

bool HttpSession::requestLineRead() const
{
    // The parser fills in the method when the request line is complete, before the fields.
    return !m_parser->get().method_string().empty();
}

void HttpSession::onChunkHeader(std::uint64_t, beast::string_view extensions, beast::error_code& error)
{
    // Beast hands the line over once it is whole (the read buffer bounds how long it may grow first); a 64-bit size is
    // at most 16 hex digits.
    m_extensionBytes += extensions.size();
    if (extensions.size() + 16 > m_server.m_limits.maxChunkLineBytes ||
        m_extensionBytes > m_server.m_limits.maxChunkExtensionBytes) {
        m_chunkLineTooLong = true;
        error = http::error::bad_chunk_extension;
    }
}

bool HttpSession::chunkInTrailer() const
{
    // The parser consumes chunk data as it comes: what is left in the buffer is the line or section it waits to see
    // end, from its first byte (after the CRLF that closed the previous chunk's data). A whole line there is the
    // last-chunk line, so the trailer section is what does not end.
    const auto data = m_buffer.data();
    std::string_view held(static_cast<const char*>(data.data()), data.size());
    if (held.rfind("\r\n", 0) == 0) {
        held.remove_prefix(2);
    }
    return held.find("\r\n") != std::string_view::npos;
}

void HttpSession::readBody()
{
    // While the body is read the buffer holds at most a chunk-size line or the trailer section (body bytes go on to the
    // body as they come), or what came with the header already.
    const auto& limits = m_server.m_limits;
    m_buffer.max_size(std::max({limits.maxChunkLineBytes, limits.maxTrailerBytes, m_buffer.size()}));
    m_stream.expires_after(m_server.m_limits.headerTimeout);
    m_parser->eager(true); // the body's bytes go on to the body as they are parsed, as Beast's async_read has it
    parseOrRead(false, {});
}

void HttpSession::onBody(beast::error_code error)
{
    releaseBody();
    if (m_chunkLineTooLong) {
        refuse(413, kChunkLine);
        return;
    }
    if (error == http::error::body_limit) {
        refuse(413); // a chunked body that grew over the limit
        return;
    }
    if (error == http::error::buffer_overflow) {
        if (chunkInTrailer()) {
            refuse(431, kTrailer);
        } else {
            refuse(413, kChunkLine);
        }
        return;
    }
    if (error) {
        if (gone(error)) {
            close();
        } else {
            refuse(400);
        }
        return;
    }
    dispatch();
}

void HttpSession::dispatch()
{
    auto message = m_parser->release();
    const bool keepAlive = message.keep_alive();
    HttpRequest request = m_request ? std::move(*m_request) : requestOf(message);
    m_request.reset();
    request.body = std::move(message.body());
    m_head = message.method() == http::verb::head;
    m_answering = true;
    // The responder may be called from a worker: it hops back to this connection's strand, and the work guard keeps
    // the I/O threads running (and a graceful stop waiting) until the answer is written. The session is released
    // before the work guard (members go in reverse order), so a worker never drops the last reference to a session
    // after run() has returned and the server is gone.
    struct Pending
    {
        net::executor_work_guard<net::io_context::executor_type> work;
        std::shared_ptr<HttpSession> session;
        bool keepAlive;
    };
    auto pending =
        std::make_shared<Pending>(Pending {net::make_work_guard(m_server.m_io), shared_from_this(), keepAlive});
    m_server.m_handler(std::move(request), [pending](HttpResponse response) {
        net::post(pending->session->m_stream.get_executor(), [pending, response = std::move(response)]() mutable {
            pending->session->write(std::move(response), pending->keepAlive);
        });
    });
}

HttpRequest HttpSession::requestOf(const http::request<ArrivingBody>& message) const
{
    HttpRequest request;
    request.method = std::string(message.method_string());
    request.target = std::string(message.target());
    // RFC 9112 §3.2.2: an absolute-form target is routed by its path, and its authority is the request's Host.
    std::string_view authority;
    std::string originForm;
    const bool absolute = splitAbsoluteForm(request.target, authority, originForm);
    const std::string host = absolute ? std::string(authority) : std::string();
    if (absolute) {
        request.target = std::move(originForm);
    }
    request.parseTarget();
    request.headers.reserve(static_cast<std::size_t>(std::distance(message.begin(), message.end())));
    for (const auto& field : message) {
        const bool replaced = absolute && field.name() == http::field::host;
        request.headers.emplace_back(std::string(field.name_string()), replaced ? host : std::string(field.value()));
    }
    request.remoteAddr = m_remoteAddr;
    return request;
}

void HttpSession::releaseBody()
{
    if (m_reservedBody > 0) {
        m_server.releaseBody(m_reservedBody);
        m_reservedBody = 0;
    }
}

void HttpSession::refuse(int status, std::string_view field)
{
    m_answering = true;
    m_head = false;
    write(m_server.m_errorAnswer(status, field), false);
}

std::string HttpSession::unreadableField() const
{
    const auto data = m_buffer.data();
    std::string_view raw(static_cast<const char*>(data.data()), data.size());
    raw = raw.substr(0, raw.find("\r\n\r\n"));
    while (!raw.empty()) {
        const auto end = raw.find("\r\n");
        const std::string_view line = raw.substr(0, end);
        const bool control = std::any_of(line.begin(), line.end(), [](char c) {
            return (static_cast<unsigned char>(c) < 0x20 && c != '\t') || c == 0x7F;
        });
        const auto colon = line.find(':');
        if (control && colon != std::string_view::npos) {
            return std::string(line.substr(0, colon));
        }
        raw = end == std::string_view::npos ? std::string_view() : raw.substr(end + 2);
    }
    return {};
}

void HttpSession::write(HttpResponse response, bool keepAlive)
{
    keepAlive = keepAlive && !m_stopping && !m_server.stopping();
    m_response = {};
    m_response.version(11);
    m_response.result(static_cast<unsigned>(response.status));
    if (!response.contentType.empty()) {
        m_response.set(http::field::content_type, response.contentType);
    }
    for (auto& [name, value] : response.headers) {
        m_response.insert(name, value);
    }
    m_response.body() = std::move(response.body);
    chargeHeld(false); // an answer is sent whatever the budget: it is counted, never refused
    m_response.keep_alive(keepAlive);
    m_response.prepare_payload();
    if (m_head) {
        m_response.body().clear(); // Content-Length still says what a GET would carry
    }
    m_stream.expires_after(m_server.m_limits.headerTimeout);
    http::async_write(m_stream, m_response,
                      [self = shared_from_this(), keepAlive](beast::error_code error, std::size_t) {
                          self->onWrite(error, keepAlive);
                      });
}

void HttpSession::onWrite(beast::error_code error, bool keepAlive)
{
    m_answering = false;
    m_response.body() = std::string();
    chargeHeld(false);
    if (error) {
        close();
        return;
    }
    if (!keepAlive) {
        // Stopping: whatever the client might still send is of no interest, and waiting for it would hold up the
        // shutdown.
        if (m_stopping || m_server.stopping()) {
            close();
        } else {
            lingeringClose();
        }
        return;
    }
    readHeader();
}

void HttpSession::lingeringClose()
{
    beast::error_code ignored;
    m_stream.socket().shutdown(net::ip::tcp::socket::shutdown_send, ignored);
    m_stream.expires_after(m_server.m_limits.headerTimeout);
    drain();
}

void HttpSession::drain()
{
    if (!m_discard) {
        m_discard = std::make_unique<std::array<char, 4 * 1024>>();
    }
    m_stream.async_read_some(net::buffer(*m_discard),
                             [self = shared_from_this()](beast::error_code error, std::size_t) {
                                 if (error || self->m_stopping) {
                                     self->close();
                                     return;
                                 }
                                 self->drain();
                             });
}

void HttpSession::close()
{
    beast::error_code ignored;
    m_stream.socket().shutdown(net::ip::tcp::socket::shutdown_both, ignored);
    m_stream.close();
}

} // namespace onceorder::server
