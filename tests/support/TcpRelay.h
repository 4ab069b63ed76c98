// TcpRelay: a fixed local port in front of a server that may be killed and restarted on another port. A test that
// restarts a server "on the same port" can lose that port to a parallel test's server in between; the client is
// pointed at the relay instead, whose port stays taken. While no backend is set, connections are accepted and
// reset at once (the client sees a connection that failed, and retries).
#pragma once

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace onceorder::test {

class TcpRelay
{
public:
    explicit TcpRelay(int backendPort)
        : m_backend(backendPort)
    {
        m_listener = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in address = loopback(0);
        if (m_listener < 0 || ::bind(m_listener, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 ||
            ::listen(m_listener, SOMAXCONN) != 0) {
            throw std::runtime_error("TcpRelay: cannot listen");
        }
        socklen_t length = sizeof address;
        ::getsockname(m_listener, reinterpret_cast<sockaddr*>(&address), &length);
        m_port = ntohs(address.sin_port);
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

private:
    static sockaddr_in loopback(int port)
    {
        sockaddr_in address {};
        address.sin_family = AF_INET;
        address.sin_port = htons(static_cast<uint16_t>(port));
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        return address;
    }

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
            sockaddr_in address = loopback(backend);
            if (server < 0 || ::connect(server, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) {
                if (server >= 0) {
                    ::close(server);
                }
                reset(client);
                continue;
            }
            std::lock_guard guard(m_lock);
            m_pumps.emplace_back([this, client, server] { pump(client, server); });
        }
    }

    // Copies bytes both ways until either side closes (or the relay stops).
    void pump(int client, int server)
    {
        pollfd fds[2] {{client, POLLIN, 0}, {server, POLLIN, 0}};
        char buffer[16 * 1024];
        while (!m_stopping) {
            if (::poll(fds, 2, 100) < 0) {
                break;
            }
            bool closed = false;
            for (int i = 0; i < 2 && !closed; ++i) {
                if (fds[i].revents & (POLLIN | POLLHUP | POLLERR)) {
                    const ssize_t n = ::read(fds[i].fd, buffer, sizeof buffer);
                    closed = n <= 0 || ::send(fds[1 - i].fd, buffer, static_cast<size_t>(n), MSG_NOSIGNAL) != n;
                }
            }
            if (closed) {
                break;
            }
        }
        reset(client);
        ::close(server);
    }

    std::atomic<int> m_backend;
    std::atomic<bool> m_stopping {false};
    int m_listener = -1;
    int m_port = 0;
    std::thread m_acceptor;
    std::mutex m_lock;
    std::vector<std::thread> m_pumps;
};

} // namespace onceorder::test
