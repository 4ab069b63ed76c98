// HttpServer: the listening socket and the I/O threads (Boost.Beast on Asio). Every connection is an HttpSession
// waiting in epoll, so a slow or silent client costs a socket, not a thread; requests are handed to one asynchronous
// handler that answers through a completion callback, from any thread. stop() is graceful: no new connections, idle
// ones closed, requests already handed over are answered, then run() returns.
#pragma once

#include "transport/HttpRequest.h"
#include "transport/HttpResponse.h"

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>

#include <atomic>
#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

namespace onceorder::server {

class HttpSession;

// Answers one request; may be called from any thread, exactly once.
using Responder = std::function<void(HttpResponse)>;
// Must not block: it runs on an I/O thread. Blocking work goes to a worker, which calls the responder when done.
using RequestHandler = std::function<void(HttpRequest, Responder)>;
// The answer to a request the HTTP layer refuses itself (400 unreadable, 413 too large, 414, 431, 503 over a limit),
// e.g. as problem+json. `field` names the header whose value could not be read (a control byte in it), if that was
// the cause.
using ErrorAnswer = std::function<HttpResponse(int status, std::string_view field)>;

// The causes ErrorAnswer is given, beside a header's name, when a request is refused for a limit of the server's own
// rather than for what it holds (503 with Retry-After).
inline constexpr std::string_view kOverConnectionCap = "(connection cap)";
inline constexpr std::string_view kOverBodyBudget = "(body budget)";
inline constexpr std::string_view kOverMemoryBudget = "(memory budget)";
// … and, with 400, when the framing is refused: no Host or several; a Transfer-Encoding that leaves the body's end
// unknown or disagrees with a Content-Length.
inline constexpr std::string_view kBadHost = "(host)";
inline constexpr std::string_view kBadFraming = "(framing)";
// … and with 400 when the request target holds a byte no target may (a control, a space, 0x80-0xFF).
inline constexpr std::string_view kBadTarget = "(target)";
// … and with 413 or 431 when a chunked body's metadata is over its limit: a chunk-size line, the trailer section.
inline constexpr std::string_view kChunkLine = "(chunk line)";
inline constexpr std::string_view kTrailer = "(trailer)";

// What the routes say of a request whose header has arrived, before a byte of its body is read: refuse it now (an
// unknown route, missing credentials: the answer, then the connection is closed and the body never read), or read a
// body of at most `bodyLimit` bytes (413 beyond it).
struct HeaderVerdict
{
    std::optional<HttpResponse> refusal;
    std::size_t bodyLimit = 0;
};
// Runs on an I/O thread: must not block. `head` has everything but the body.
using HeaderCheck = std::function<HeaderVerdict(const HttpRequest& head)>;

struct HttpLimits
{
    // A request's header must arrive within this from when the connection is ready for it (right after connect, or
    // after the previous answer on a kept-alive connection); its body within as long again, and an answer must be
    // taken within as long. Otherwise the connection is closed without an answer.
    std::chrono::milliseconds headerTimeout {10'000};
    // Larger bodies are refused with 413 before they are read (a route's HeaderVerdict may allow less).
    std::size_t maxBodyBytes = 1024 * 1024;
    // A larger header is refused with 431, a longer request target with 414; neither is read further.
    std::size_t maxHeaderBytes = 64 * 1024;
    std::size_t maxTargetBytes = 8 * 1024;
    // What a chunked body may hold beside its data, which the parser keeps whole until it ends: a chunk-size line with
    // its extensions (413 beyond it; all of a body's extensions together at most maxChunkExtensionBytes) and the
    // trailer section after the last chunk (431 beyond it). With maxHeaderBytes they bound a connection's read buffer,
    // which holds nothing else but body bytes on their way to the body: a line that never ends is answered at its
    // limit, not kept until the body's deadline.
    std::size_t maxChunkLineBytes = 4 * 1024;
    std::size_t maxChunkExtensionBytes = 16 * 1024;
    std::size_t maxTrailerBytes = 16 * 1024;
    // Bodies being read, all connections together: a request whose body would take the total over this is answered
    // 503 with Retry-After before its body is read, so stalled uploads cannot take the server's memory.
    std::size_t maxBodyBytesInFlight = 32 * 1024 * 1024;
    // Every byte held on behalf of connections, all of them together: their read buffers (a header, pipelined input,
    // a chunk-size line, a trailer section), their bodies as they arrive and their answers not yet sent. A connection
    // charges each growth before the read that needs it; one that does not fit is answered 503 with Retry-After and
    // closed (answers are counted but never refused).
    std::size_t maxHeldBytes = 64 * 1024 * 1024;
    // Open connections at most; 0: the descriptor limit (RLIMIT_NOFILE) less kDescriptorReserve, kept for the
    // database, the log and the files a request opens. A connection beyond it is answered 503 with Retry-After at
    // once and closed: never left waiting in the backlog.
    std::size_t maxConnections = 0;
};

// Descriptors the server keeps for itself when it derives its connection cap from the descriptor limit.
inline constexpr std::size_t kDescriptorReserve = 64;

class HttpServer
{
public:
    HttpServer(RequestHandler handler, ErrorAnswer errorAnswer, HttpLimits limits, int ioThreads,
               HeaderCheck headerCheck = {});
    ~HttpServer();
    HttpServer(const HttpServer&) = delete;
    HttpServer& operator=(const HttpServer&) = delete;

    // Binds and listens (backlog SOMAXCONN); returns the port (useful with port 0) or -1.
    int bind(const std::string& host, int port);
    // Serves on the I/O threads (the caller's among them) until stop() and the last answer is written.
    void run();
    // Thread-safe, may come before run(); run() then returns as soon as it starts.
    void stop();
    // The bytes charged to the memory budget now, and the most ever charged at once (the framing fuzzer's property).
    std::size_t heldBytes() const { return m_heldBytes.load(); }
    std::size_t heldBytesPeak() const { return m_heldBytesPeak.load(); }

private:
    friend class HttpSession;

    // One I/O thread's loop.
    void serve();
    void accept();
    void onAccept(boost::system::error_code error, boost::asio::ip::tcp::socket socket);
    void closeAll();
    void add(const std::shared_ptr<HttpSession>& session);
    void remove(HttpSession* session);
    bool stopping() const { return m_stopping.load(); }
    // Takes `bytes` of the in-flight body budget; false (nothing taken) if they do not fit.
    bool reserveBody(std::size_t bytes);
    void releaseBody(std::size_t bytes);
    // Moves a connection's share of the memory budget from `charged` to `now`; an increase that would take the total
    // over maxHeldBytes is refused (false, nothing changed) when `mayRefuse`.
    bool chargeHeld(std::size_t& charged, std::size_t now, bool mayRefuse);
    // Answers 503 on a connection over the cap without reading from it, and closes it.
    void turnAway(boost::asio::ip::tcp::socket socket) const;

    RequestHandler m_handler;
    ErrorAnswer m_errorAnswer;
    HeaderCheck m_headerCheck;
    HttpLimits m_limits;
    std::size_t m_maxConnections;
    std::atomic<std::size_t> m_bodyBytesInFlight {0};
    std::atomic<std::size_t> m_heldBytes {0};
    std::atomic<std::size_t> m_heldBytesPeak {0};
    // Bodies in flight reached kTrimAfterBodyBytes: trim the heap when they are all released.
    std::atomic<bool> m_trimWhenIdle {false};
    static constexpr std::size_t kTrimAfterBodyBytes = 8 * 1024 * 1024;
    std::string m_turnAwayAnswer;
    int m_ioThreads;
    std::atomic<bool> m_stopping {false};
    // Declared before the io_context: sessions still queued in it when it is destroyed unregister themselves here.
    std::mutex m_sessionsLock;
    std::unordered_map<HttpSession*, std::weak_ptr<HttpSession>> m_sessions;
    std::size_t m_sessionsPeak = 0; // the most open at once since the heap was last trimmed
    static constexpr std::size_t kTrimAfterSessions = 64;
    boost::asio::io_context m_io;
    boost::asio::ip::tcp::acceptor m_acceptor;
    boost::asio::steady_timer m_acceptRetry;
};

} // namespace onceorder::server
