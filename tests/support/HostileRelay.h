// HostileRelay: a loopback HTTP relay in front of the real server that, for a share of the order requests, lets the
// server do its work and then answers the client with something else, the way a proxy, a portal or a broken gateway
// does (issue 28): an interim 1xx before the real answer, a 200 with HTML, an object instead of the order list, a
// 204, a 201 naming another cart, a body cut short, a 307, a 502. The server has acted on every request it relays;
// only the answer lies. The chaos run puts it between the network conditioner and the server.
//
// One request per connection (the relay closes after the answer); the decision is the relay's own seeded source,
// taken under a lock. While no backend is set, connections are reset.
#pragma once

#include "support/Loopback.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <condition_variable>
#include <map>
#include <mutex>
#include <random>
#include <stdexcept>
#include <string>
#include <thread>

namespace onceorder::test {

class HostileRelay
{
public:
    explicit HostileRelay(unsigned long long seed)
        : m_random(seed)
    {
        const LoopbackListener listener = listenOnLoopback("HostileRelay");
        m_listener = listener.socket;
        m_port = listener.port;
        m_acceptor = std::thread([this] { acceptLoop(); });
    }
    ~HostileRelay()
    {
        m_stopping = true;
        ::shutdown(m_listener, SHUT_RDWR);
        m_acceptor.join();
        ::close(m_listener);
        std::unique_lock guard(m_lock);
        m_idle.wait(guard, [this] { return m_active == 0; });
    }
    HostileRelay(const HostileRelay&) = delete;
    HostileRelay& operator=(const HostileRelay&) = delete;

    std::string url() const { return "http://127.0.0.1:" + std::to_string(m_port); }
    // 0: no backend (connections are reset).
    void setBackend(int port) { m_backend = port; }
    // The share of answers to order requests (POST /orders, GET /orders?cart_id=) replaced; 0: an honest relay.
    void setShare(double share) { m_share = share; }

    // How many answers were replaced, by kind.
    std::map<std::string, int> counts() const
    {
        std::lock_guard guard(m_lock);
        return m_counts;
    }

private:
    static void reset(int socket)
    {
        linger abort {1, 0};
        ::setsockopt(socket, SOL_SOCKET, SO_LINGER, &abort, sizeof abort);
        ::close(socket);
    }

    static std::string answer(const std::string& status, const std::string& type, const std::string& body)
    {
        return "HTTP/1.1 " + status + "\r\nContent-Type: " + type +
            "\r\nContent-Length: " + std::to_string(body.size()) + "\r\nConnection: close\r\n\r\n" + body;
    }

    static std::string lowered(std::string text)
    {
        for (char& c : text) {
            c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        }
        return text;
    }

    // The Content-Length of a message head; npos without one.
    static size_t contentLength(const std::string& head)
    {
        const size_t at = lowered(head).find("\r\ncontent-length:");
        return at == std::string::npos ? std::string::npos : std::stoul(head.substr(at + 17));
    }

    // Reads one HTTP message (head and body) from `socket`, waiting at most timeoutMs for each read; false if it
    // closed or stalled first. A body is framed by Content-Length; without one (a request: none; an answer: up to
    // the server's close, as it was asked to close).
    bool readMessage(int socket, std::string& message, int timeoutMs, bool untilCloseWithoutLength)
    {
        message.clear();
        char buffer[16 * 1024];
        size_t headEnd = std::string::npos;
        while (!m_stopping) {
            if (headEnd != std::string::npos) {
                const size_t length = contentLength(message.substr(0, headEnd));
                if (length != std::string::npos ? message.size() >= headEnd + 4 + length : !untilCloseWithoutLength) {
                    return true;
                }
            }
            // In slices, so that the destructor never waits for a stalled peer.
            pollfd fd {socket, POLLIN, 0};
            int waited = 0;
            while (!m_stopping && waited < timeoutMs && ::poll(&fd, 1, 100) == 0) {
                waited += 100;
            }
            if (m_stopping || waited >= timeoutMs || !(fd.revents & (POLLIN | POLLHUP | POLLERR))) {
                return false;
            }
            const ssize_t n = ::read(socket, buffer, sizeof buffer);
            if (n <= 0) {
                return n == 0 && headEnd != std::string::npos && untilCloseWithoutLength;
            }
            message.append(buffer, static_cast<size_t>(n));
            if (headEnd == std::string::npos) {
                headEnd = message.find("\r\n\r\n");
            }
        }
        return false;
    }

    void acceptLoop()
    {
        while (!m_stopping) {
            const int client = ::accept(m_listener, nullptr, nullptr);
            if (client < 0) {
                continue; // shut down (then m_stopping is set), or a transient error
            }
            {
                std::lock_guard guard(m_lock);
                ++m_active;
            }
            // Detached: a long run relays thousands of requests; the destructor waits for the last one to end.
            std::thread([this, client] {
                relayOne(client);
                std::lock_guard guard(m_lock);
                --m_active;
                m_idle.notify_all();
            }).detach();
        }
    }

    void relayOne(int client)
    {
        std::string request;
        const int backend = m_backend.load();
        if (backend <= 0 || !readMessage(client, request, 10'000, false)) {
            reset(client);
            return;
        }
        // One request per connection: the server closes after its answer, and so do we.
        const size_t lineEnd = request.find("\r\n");
        std::string head = request.substr(0, request.find("\r\n\r\n"));
        std::string forwarded = request.substr(0, lineEnd) + "\r\nConnection: close";
        for (size_t at = lineEnd; at < head.size();) {
            const size_t next = std::min(head.find("\r\n", at + 2), head.size());
            const std::string line = head.substr(at, next - at);
            if (lowered(line).rfind("\r\nconnection:", 0) != 0) {
                forwarded += line;
            }
            at = next;
        }
        forwarded += request.substr(head.size());
        const int server = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in address = loopbackAddress(backend);
        std::string reply;
        const bool answered = server >= 0 &&
            ::connect(server, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0 &&
            ::send(server, forwarded.data(), forwarded.size(), MSG_NOSIGNAL) ==
                static_cast<ssize_t>(forwarded.size()) &&
            readMessage(server, reply, 30'000, true);
        if (server >= 0) {
            ::close(server);
        }
        if (!answered) {
            reset(client);
            return;
        }
        const std::string replaced = lie(request, reply);
        ::send(client, replaced.data(), replaced.size(), MSG_NOSIGNAL);
        ::shutdown(client, SHUT_WR);
        ::close(client);
    }

    // The answer the client gets instead of `reply` (the server's real one), or `reply` itself.
    std::string lie(const std::string& request, const std::string& reply)
    {
        const bool post = request.rfind("POST /orders ", 0) == 0;
        const bool readBack = request.rfind("GET /orders?", 0) == 0;
        std::lock_guard guard(m_lock);
        if ((!post && !readBack) || std::uniform_real_distribution<double>(0.0, 1.0)(m_random) >= m_share) {
            return reply;
        }
        static const char* const kInterim[] = {"100 Continue\r\n\r\n", "102 Processing\r\n\r\n",
                                               "103 Early Hints\r\nLink: </s.css>; rel=preload\r\n\r\n",
                                               "101 Switching Protocols\r\nUpgrade: h2c\r\n\r\n"};
        const std::string portal = "<html><body>Please sign in to the hotel network</body></html>";
        const int kind = std::uniform_int_distribution<int>(0, post ? 7 : 3)(m_random);
        std::string kindName;
        std::string lied;
        switch (kind) {
        case 0: {
            const int which = std::uniform_int_distribution<int>(0, 3)(m_random);
            kindName = std::string("interim ") + std::string(kInterim[which]).substr(0, 3) + " first";
            lied = std::string("HTTP/1.1 ") + kInterim[which] + reply;
            break;
        }
        case 1:
            kindName = "200 with HTML";
            lied = answer("200 OK", "text/html", portal);
            break;
        case 2:
            kindName = "body cut short";
            lied = reply.substr(0, reply.size() - std::min<size_t>(reply.size() - reply.find("\r\n\r\n") - 4, 7));
            break;
        case 3:
            kindName = post ? "502 after the order" : "an object, not the list";
            lied = post ? answer("502 Bad Gateway", "text/html", "<html>Bad gateway</html>")
                        : answer("200 OK", "application/json", R"({"orders":[],"note":"not the list"})");
            break;
        case 4:
            kindName = "204 instead of the order";
            lied = "HTTP/1.1 204 No Content\r\nConnection: close\r\n\r\n";
            break;
        case 5:
            kindName = "201 naming another cart";
            lied = answer("201 Created", "application/json",
                          R"({"order_id":987654321,"status":"placed","cart_id":"someone-else",)"
                          R"("items":[{"product":"propiska","quantity":1}]})");
            break;
        case 6:
            kindName = "307 after the order";
            lied = "HTTP/1.1 307 Temporary Redirect\r\nLocation: /elsewhere/orders\r\nContent-Length: 0\r\n"
                   "Connection: close\r\n\r\n";
            break;
        default:
            kindName = "200 with HTML";
            lied = answer("200 OK", "text/html", portal);
            break;
        }
        ++m_counts[kindName];
        return lied;
    }

    std::atomic<int> m_backend {0};
    std::atomic<double> m_share {0.0};
    std::atomic<bool> m_stopping {false};
    std::mt19937_64 m_random;
    int m_listener = -1;
    int m_port = 0;
    std::thread m_acceptor;
    mutable std::mutex m_lock;
    std::condition_variable m_idle;
    int m_active = 0;
    std::map<std::string, int> m_counts;
};

} // namespace onceorder::test
