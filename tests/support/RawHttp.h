// RawHttp: HTTP/1.1 over a plain loopback socket, byte for byte, for the tests that must control the wire (a
// partial header, two headers of one name, a NUL, thousands of kept-alive connections) where a client library
// would tidy the request up.
#pragma once

#include <algorithm>
#include <arpa/inet.h>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <string>
#include <string_view>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>
#include <vector>

namespace onceorder::test {

// Takes every descriptor the hard limit allows; returns the soft limit now in force.
inline rlim_t raiseDescriptorLimit()
{
    rlimit files {};
    getrlimit(RLIMIT_NOFILE, &files);
    files.rlim_cur = files.rlim_max;
    setrlimit(RLIMIT_NOFILE, &files);
    getrlimit(RLIMIT_NOFILE, &files);
    return files.rlim_cur;
}

// One connection, closed with the object.
class RawConnection
{
public:
    // Blocking connect to 127.0.0.1:port; valid() says whether it worked.
    explicit RawConnection(int port)
    {
        m_fd = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in address {};
        address.sin_family = AF_INET;
        address.sin_port = htons(static_cast<std::uint16_t>(port));
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        if (m_fd >= 0 && ::connect(m_fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) {
            ::close(m_fd);
            m_fd = -1;
        }
        if (m_fd >= 0) {
            const int one = 1;
            setsockopt(m_fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        }
    }
    ~RawConnection()
    {
        if (m_fd >= 0) {
            ::close(m_fd);
        }
    }
    RawConnection(RawConnection&& other) noexcept
        : m_fd(other.m_fd)
        , m_pending(std::move(other.m_pending))
    {
        other.m_fd = -1;
    }
    RawConnection(const RawConnection&) = delete;
    RawConnection& operator=(const RawConnection&) = delete;
    RawConnection& operator=(RawConnection&&) = delete;

    bool valid() const { return m_fd >= 0; }
    int fd() const { return m_fd; }

    bool send(std::string_view bytes)
    {
        while (!bytes.empty()) {
            const ssize_t sent = ::send(m_fd, bytes.data(), bytes.size(), MSG_NOSIGNAL);
            if (sent <= 0) {
                return false;
            }
            bytes.remove_prefix(static_cast<std::size_t>(sent));
        }
        return true;
    }

    // One response (header and a Content-Length body; 1xx answers are returned on their own), or "" if the
    // connection ended or nothing complete came within `timeout`.
    std::string readResponse(std::chrono::milliseconds timeout = std::chrono::seconds(10))
    {
        const auto deadline = std::chrono::steady_clock::now() + timeout;
        while (true) {
            const auto end = m_pending.find("\r\n\r\n");
            if (end != std::string::npos) {
                std::size_t length = 0;
                const std::string head = lower(m_pending.substr(0, end));
                const auto field = head.find("\r\ncontent-length:");
                if (field != std::string::npos) {
                    length = std::stoul(head.substr(field + 17));
                }
                if (m_pending.size() >= end + 4 + length) {
                    std::string response = m_pending.substr(0, end + 4 + length);
                    m_pending.erase(0, end + 4 + length);
                    return response;
                }
            }
            if (!readSome(deadline)) {
                return {};
            }
        }
    }

    // True if the server closes the connection (end of stream or a reset) within `timeout`, with nothing sent.
    bool closedWithin(std::chrono::milliseconds timeout)
    {
        const auto deadline = std::chrono::steady_clock::now() + timeout;
        while (true) {
            pollfd readable {m_fd, POLLIN, 0};
            const auto left =
                std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
            if (::poll(&readable, 1, static_cast<int>(std::max<long long>(0, left.count()))) <= 0) {
                return false;
            }
            char byte[512];
            const ssize_t got = ::recv(m_fd, byte, sizeof byte, 0);
            if (got <= 0) {
                return true;
            }
        }
    }

private:
    static std::string lower(std::string text)
    {
        for (char& c : text) {
            c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        }
        return text;
    }

    bool readSome(std::chrono::steady_clock::time_point deadline)
    {
        const auto left =
            std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
        pollfd readable {m_fd, POLLIN, 0};
        if (left.count() <= 0 || ::poll(&readable, 1, static_cast<int>(left.count())) <= 0) {
            return false;
        }
        char buffer[16 * 1024];
        const ssize_t got = ::recv(m_fd, buffer, sizeof buffer, 0);
        if (got <= 0) {
            return false;
        }
        m_pending.append(buffer, static_cast<std::size_t>(got));
        return true;
    }

    int m_fd = -1;
    std::string m_pending;
};

// The status code of a raw response ("HTTP/1.1 201 Created…" → 201), 0 for none.
inline int statusOf(const std::string& response)
{
    return response.size() >= 12 && response.rfind("HTTP/1.", 0) == 0 ? std::stoi(response.substr(9, 3)) : 0;
}

inline std::string bodyOf(const std::string& response)
{
    const auto end = response.find("\r\n\r\n");
    return end == std::string::npos ? std::string() : response.substr(end + 4);
}

// A POST /orders with exactly these header lines (each without its CRLF) and the one-line order.
inline std::string rawOrder(const std::vector<std::string>& headerLines,
                            const std::string& body = R"({"product":"kniha","quantity":1})")
{
    std::string request = "POST /orders HTTP/1.1\r\nHost: 127.0.0.1\r\n";
    for (const auto& line : headerLines) {
        request += line + "\r\n";
    }
    return request + "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
}

} // namespace onceorder::test
