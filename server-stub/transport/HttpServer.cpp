#include "transport/HttpServer.h"

#include "transport/HttpSession.h"

#include <boost/asio/ip/address.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/socket_base.hpp>
#include <boost/asio/strand.hpp>

#include <malloc.h>
#include <sys/resource.h>

#include <algorithm>
#include <cstdio>
#include <thread>
#include <vector>

namespace onceorder::server {

namespace net = boost::asio;
using tcp = net::ip::tcp;

namespace {

std::size_t connectionCap(std::size_t configured)
{
    if (configured > 0) {
        return configured;
    }
    rlimit files {};
    if (getrlimit(RLIMIT_NOFILE, &files) != 0 || files.rlim_cur == RLIM_INFINITY) {
        return 1'000'000;
    }
    const auto limit = static_cast<std::size_t>(files.rlim_cur);
    return limit > 2 * kDescriptorReserve ? limit - kDescriptorReserve : limit / 2;
}

// The bytes of a whole answer with Connection: close, for a socket that gets nothing else.
std::string serialize(const HttpResponse& response)
{
    std::string out = "HTTP/1.1 " + std::to_string(response.status) + " \r\n";
    if (!response.contentType.empty()) {
        out += "Content-Type: " + response.contentType + "\r\n";
    }
    for (const auto& [name, value] : response.headers) {
        out += name + ": " + value + "\r\n";
    }
    out += "Connection: close\r\nContent-Length: " + std::to_string(response.body.size()) + "\r\n\r\n";
    return out + response.body;
}

} // namespace

HttpServer::HttpServer(RequestHandler handler, ErrorAnswer errorAnswer, HttpLimits limits, int ioThreads,
                       HeaderCheck headerCheck)
    : m_handler(std::move(handler))
    , m_errorAnswer(std::move(errorAnswer))
    , m_headerCheck(std::move(headerCheck))
    , m_limits(limits)
    , m_maxConnections(connectionCap(limits.maxConnections))
    , m_turnAwayAnswer(serialize(m_errorAnswer(503, kOverConnectionCap)))
    , m_ioThreads(std::max(1, ioThreads))
    , m_io(m_ioThreads)
    , m_acceptor(m_io)
    , m_acceptRetry(m_io)
{
}

HttpServer::~HttpServer() = default;

int HttpServer::bind(const std::string& host, int port)
{
    boost::system::error_code error;
    net::ip::address address;
    if (host.empty()) {
        address = net::ip::address_v4::any();
    } else if (host == "localhost") {
        address = net::ip::address_v4::loopback();
    } else {
        address = net::ip::make_address(host, error);
        if (error) {
            return -1;
        }
    }
    const tcp::endpoint endpoint(address, static_cast<unsigned short>(port));
    m_acceptor.open(endpoint.protocol(), error);
    if (!error) {
        m_acceptor.set_option(net::socket_base::reuse_address(true), error);
    }
    if (!error) {
        m_acceptor.bind(endpoint, error);
    }
    if (!error) {
        // SOMAXCONN: a burst of reconnecting clients is queued by the kernel instead of waiting for SYN retransmits.
        m_acceptor.listen(net::socket_base::max_listen_connections, error);
    }
    if (error) {
        boost::system::error_code ignored;
        m_acceptor.close(ignored);
        return -1;
    }
    return m_acceptor.local_endpoint().port();
}

void HttpServer::run()
{
    accept();
    std::vector<std::thread> others;
    for (int i = 1; i < m_ioThreads; ++i) {
        others.emplace_back([this] { serve(); });
    }
    serve();
    for (auto& thread : others) {
        thread.join();
    }
}

void HttpServer::serve()
{
    // An exception out of one connection's handler ends that handler, not the server: run() returning early would
    // tear the server down under the requests still with the workers.
    while (true) {
        try {
            m_io.run();
            return;
        } catch (const std::exception& error) {
            std::fprintf(stderr, "http: %s (connection dropped)\n", error.what());
        }
    }
}

void HttpServer::stop()
{
    m_stopping = true;
    net::post(m_io, [this] { closeAll(); });
}

void HttpServer::accept()
{
    if (m_stopping || !m_acceptor.is_open()) {
        return;
    }
    // Each connection gets its own strand: its handlers never run concurrently, whichever I/O thread takes them.
    m_acceptor.async_accept(net::make_strand(m_io), [this](boost::system::error_code error, tcp::socket socket) {
        onAccept(error, std::move(socket));
    });
}

void HttpServer::onAccept(boost::system::error_code error, tcp::socket socket)
{
    if (error == net::error::operation_aborted || m_stopping) {
        return;
    }
    if (error) {
        // Out of descriptors (or another passing error): the pending connections stay in the backlog; try again in
        // a moment rather than spinning on the same error.
        m_acceptRetry.expires_after(std::chrono::milliseconds(50));
        m_acceptRetry.async_wait([this](boost::system::error_code waited) {
            if (!waited) {
                accept();
            }
        });
        return;
    }
    bool full = false;
    {
        std::lock_guard lock(m_sessionsLock);
        full = m_sessions.size() >= m_maxConnections;
    }
    if (full) {
        turnAway(std::move(socket));
        accept();
        return;
    }
    auto session = std::make_shared<HttpSession>(std::move(socket), *this);
    add(session);
    session->start();
    accept();
}

void HttpServer::turnAway(tcp::socket socket) const
{
    // A short answer fits the new socket's empty send buffer: written without waiting, or not at all.
    boost::system::error_code ignored;
    socket.non_blocking(true, ignored);
    socket.write_some(net::buffer(m_turnAwayAnswer), ignored);
    socket.shutdown(tcp::socket::shutdown_both, ignored);
    socket.close(ignored);
}

bool HttpServer::reserveBody(std::size_t bytes)
{
    std::size_t current = m_bodyBytesInFlight.load();
    do {
        if (current + bytes > m_limits.maxBodyBytesInFlight) {
            return false;
        }
    } while (!m_bodyBytesInFlight.compare_exchange_weak(current, current + bytes));
    if (current + bytes >= kTrimAfterBodyBytes) {
        m_trimWhenIdle.store(true);
    }
    return true;
}

bool HttpServer::chargeHeld(std::size_t& charged, std::size_t now, bool mayRefuse)
{
    if (now <= charged) {
        m_heldBytes.fetch_sub(charged - now);
        charged = now;
        return true;
    }
    const std::size_t more = now - charged;
    std::size_t current = m_heldBytes.load();
    do {
        if (mayRefuse && current + more > m_limits.maxHeldBytes) {
            return false;
        }
    } while (!m_heldBytes.compare_exchange_weak(current, current + more));
    std::size_t peak = m_heldBytesPeak.load();
    while (current + more > peak && !m_heldBytesPeak.compare_exchange_weak(peak, current + more)) { }
    charged = now;
    return true;
}

void HttpServer::releaseBody(std::size_t bytes)
{
    // After a surge of bodies (a flood of uploads), the heap they took is given back to the system once the last one
    // is gone: glibc keeps freed memory in its arenas otherwise, and the server would stay at its peak.
    if (m_bodyBytesInFlight.fetch_sub(bytes) == bytes && m_trimWhenIdle.exchange(false)) {
        malloc_trim(0);
    }
}

void HttpServer::closeAll()
{
    boost::system::error_code ignored;
    m_acceptor.close(ignored);
    m_acceptRetry.cancel();
    std::vector<std::shared_ptr<HttpSession>> sessions;
    {
        std::lock_guard lock(m_sessionsLock);
        for (auto& [raw, weak] : m_sessions) {
            if (auto session = weak.lock()) {
                sessions.push_back(std::move(session));
            }
        }
    }
    for (auto& session : sessions) {
        session->stop();
    }
}

void HttpServer::add(const std::shared_ptr<HttpSession>& session)
{
    std::lock_guard lock(m_sessionsLock);
    m_sessions.emplace(session.get(), session);
    m_sessionsPeak = std::max(m_sessionsPeak, m_sessions.size());
}

void HttpServer::remove(HttpSession* session)
{
    bool trim = false;
    {
        std::lock_guard lock(m_sessionsLock);
        m_sessions.erase(session);
        // After a flood of connections (each holds its buffers while open): once most are gone, the heap they took
        // goes back to the system instead of staying at the flood's peak.
        if (m_sessionsPeak >= kTrimAfterSessions && m_sessions.size() <= m_sessionsPeak / 4) {
            m_sessionsPeak = m_sessions.size();
            trim = true;
        }
    }
    if (trim) {
        malloc_trim(0);
    }
}

} // namespace onceorder::server
