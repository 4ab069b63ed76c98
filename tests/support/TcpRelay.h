// TcpRelay: a fixed local port in front of a server that may be killed and restarted on another port. A test that
// restarts a server "on the same port" can lose that port to a parallel test's server in between; the client is
// pointed at the relay instead, whose port stays taken. While no backend is set, connections are accepted and
// reset at once (the client sees a connection that failed, and retries). blackhole(true) stops moving bytes, both ways
// and on every connection, new ones too, which stay open (a partition behind something that still acknowledges
// packets: neither side's TCP notices); blackhole(false) moves what waited.
#pragma once

#include "support/Loopback.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <mutex>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace onceorder::test {

class TcpRelay
{
public:
    explicit TcpRelay(int backendPort)
        : m_backend(backendPort)
    {
        const LoopbackListener listener = listenOnLoopback("TcpRelay");
        m_listener = listener.socket;
        m_port = listener.port;
        m_acceptor = std::thread([this] { acceptLoop(); });
    }
    ~TcpRelay()
    {
        m_stopping = true;
        ::shutdown(m_listener, SHUT_RDWR);
        m_acceptor.join();
        ::close(m_listener);
        std::lock_guard guard(m_lock);
        for (auto& pump : m_pumps) {
            pump.join();
        }
    }
    TcpRelay(const TcpRelay&) = delete;
    TcpRelay& operator=(const TcpRelay&) = delete;

    int port() const { return m_port; }
    std::string url() const { return "http://127.0.0.1:" + std::to_string(m_port); }
    // 0: no backend (connections are reset).
    void setBackend(int port) { m_backend = port; }

    // Keeps back the answer to the next request that starts with `requestStart` (e.g. "GET /orders") until
    // release(): a way to have two answers arrive in the opposite order of their requests.
    void holdAnswerTo(std::string requestStart)
    {
        std::lock_guard guard(m_holdLock);
        m_holdStart = std::move(requestStart);
        m_released = false;
    }
    // How many requests have been held so far (the held request reached the server).
    int heldRequests() const { return m_held; }
    void release() { m_released = true; }
    void blackhole(bool on) { m_blackhole = on; }
    // The local ports of the relay's own connections to the backend so far: what the backend sees as the client's
    // port (PostgreSQL's inet_client_port()), so a test can tell which relay a session came through.
    std::vector<int> upstreamPorts()
    {
        std::lock_guard guard(m_lock);
        return m_upstreamPorts;
    }

private:
    static void reset(int socket)
    {
        linger abort {1, 0};
        ::setsockopt(socket, SOL_SOCKET, SO_LINGER, &abort, sizeof abort);
        ::close(socket);
    }

    void acceptLoop()
    {
        while (!m_stopping) {
            const int client = ::accept(m_listener, nullptr, nullptr);
            if (client < 0) {
                continue; // shut down (then m_stopping is set), or a transient error
            }
            const int backend = m_backend.load();
            const int server = backend > 0 ? ::socket(AF_INET, SOCK_STREAM, 0) : -1;
            sockaddr_in address = loopbackAddress(backend);
            if (server < 0 || ::connect(server, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) {
                if (server >= 0) {
                    ::close(server);
                }
                reset(client);
                continue;
            }
            sockaddr_in local {};
            socklen_t length = sizeof local;
            std::lock_guard guard(m_lock);
            if (::getsockname(server, reinterpret_cast<sockaddr*>(&local), &length) == 0) {
                m_upstreamPorts.push_back(ntohs(local.sin_port));
            }
            m_pumps.emplace_back([this, client, server] { pump(client, server); });
        }
    }

    // Whether these first bytes of a request are the one to hold (once).
    bool startsHeldRequest(const char* data, ssize_t size)
    {
        std::lock_guard guard(m_holdLock);
        if (m_holdStart.empty() ||
            std::string_view(data, static_cast<size_t>(size)).substr(0, m_holdStart.size()) != m_holdStart) {
            return false;
        }
        m_holdStart.clear();
        ++m_held;
        return true;
    }

    // Copies bytes both ways until either side closes (or the relay stops); the server's bytes of a held request
    // wait in `kept` until release().
    void pump(int client, int server)
    {
        pollfd fds[2] {{client, POLLIN, 0}, {server, POLLIN, 0}};
        char buffer[16 * 1024];
        bool holding = false;
        bool serverClosed = false;
        std::string kept;
        while (!m_stopping) {
            if (m_blackhole) {
                ::poll(nullptr, 0, 20);
                continue;
            }
            if (::poll(fds, 2, 20) < 0) {
                break;
            }
            if (holding && m_released) {
                holding = false;
                if (::send(client, kept.data(), kept.size(), MSG_NOSIGNAL) != static_cast<ssize_t>(kept.size()) ||
                    serverClosed) {
                    break;
                }
            }
            bool closed = false;
            for (int i = 0; i < 2 && !closed; ++i) {
                if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) {
                    continue;
                }
                const ssize_t n = ::read(fds[i].fd, buffer, sizeof buffer);
                if (i == 0 && n > 0 && !holding) {
                    holding = startsHeldRequest(buffer, n);
                }
                if (i == 1 && holding) {
                    if (n > 0) {
                        kept.append(buffer, static_cast<size_t>(n));
                    } else {
                        serverClosed = true; // keep the answer until release(), then close
                        fds[1].fd = -1;
                    }
                    continue;
                }
                closed = n <= 0 || ::send(fds[1 - i].fd, buffer, static_cast<size_t>(n), MSG_NOSIGNAL) != n;
            }
            if (closed) {
                break;
            }
        }
        reset(client);
        ::close(server);
    }

    std::atomic<int> m_backend;
    std::mutex m_holdLock;
    std::string m_holdStart;
    std::atomic<int> m_held {0};
    std::atomic<bool> m_released {false};
    std::atomic<bool> m_blackhole {false};
    std::atomic<bool> m_stopping {false};
    int m_listener = -1;
    int m_port = 0;
    std::thread m_acceptor;
    std::mutex m_lock;
    std::vector<std::thread> m_pumps;
    std::vector<int> m_upstreamPorts;
};

} // namespace onceorder::test
