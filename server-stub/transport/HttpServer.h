// HttpServer: the listening socket and the I/O threads (Boost.Beast on Asio). Every connection is an HttpSession
// waiting in epoll, so a slow or silent client costs a socket, not a thread; requests are handed to one asynchronous
// handler that answers through a completion callback, from any thread. stop() is graceful: no new connections, idle
// ones closed, requests already handed over are answered, then run() returns.
#pragma once

#include "http/HttpRequest.h"
#include "http/HttpResponse.h"

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>

#include <atomic>
#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>

namespace onceorder::server {

class HttpSession;

// Answers one request; may be called from any thread, exactly once.
using Responder = std::function<void(HttpResponse)>;
// Must not block: it runs on an I/O thread. Blocking work goes to a worker, which calls the responder when done.
using RequestHandler = std::function<void(HttpRequest, Responder)>;
// The answer to a request the HTTP layer refuses itself (400 unreadable, 413 too large), e.g. as problem+json.
// `field` names the header whose value could not be read (a control byte in it), if that was the cause.
using ErrorAnswer = std::function<HttpResponse(int status, std::string_view field)>;

struct HttpLimits
{
    // A request's header must arrive within this from when the connection is ready for it (right after connect, or
    // after the previous answer on a kept-alive connection); its body within as long again, and an answer must be
    // taken within as long. Otherwise the connection is closed without an answer.
    std::chrono::milliseconds headerTimeout {10'000};
    // Larger bodies are refused with 413 before they are read.
    std::size_t maxBodyBytes = 1024 * 1024;
    std::size_t maxHeaderBytes = 64 * 1024;
};

class HttpServer
{
public:
    HttpServer(RequestHandler handler, ErrorAnswer errorAnswer, HttpLimits limits, int ioThreads);
    ~HttpServer();
    HttpServer(const HttpServer&) = delete;
    HttpServer& operator=(const HttpServer&) = delete;

    // Binds and listens (backlog SOMAXCONN); returns the port (useful with port 0) or -1.
    int bind(const std::string& host, int port);
    // Serves on the I/O threads (the caller's among them) until stop() and the last answer is written.
    void run();
    // Thread-safe, may come before run(); run() then returns as soon as it starts.
    void stop();

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

    RequestHandler m_handler;
    ErrorAnswer m_errorAnswer;
    HttpLimits m_limits;
    int m_ioThreads;
    std::atomic<bool> m_stopping {false};
    // Declared before the io_context: sessions still queued in it when it is destroyed unregister themselves here.
    std::mutex m_sessionsLock;
    std::unordered_map<HttpSession*, std::weak_ptr<HttpSession>> m_sessions;
    boost::asio::io_context m_io;
    boost::asio::ip::tcp::acceptor m_acceptor;
    boost::asio::steady_timer m_acceptRetry;
};

} // namespace onceorder::server
