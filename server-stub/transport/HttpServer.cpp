#include "http/HttpServer.h"

#include "http/HttpSession.h"

#include <boost/asio/ip/address.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/socket_base.hpp>
#include <boost/asio/strand.hpp>

#include <algorithm>
#include <cstdio>
#include <thread>
#include <vector>

namespace onceorder::server {

namespace net = boost::asio;
using tcp = net::ip::tcp;

HttpServer::HttpServer(RequestHandler handler, ErrorAnswer errorAnswer, HttpLimits limits, int ioThreads)
    : m_handler(std::move(handler))
    , m_errorAnswer(std::move(errorAnswer))
    , m_limits(limits)
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
    auto session = std::make_shared<HttpSession>(std::move(socket), *this);
    add(session);
    session->start();
    accept();
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
}

void HttpServer::remove(HttpSession* session)
{
    std::lock_guard lock(m_sessionsLock);
    m_sessions.erase(session);
}

} // namespace onceorder::server
