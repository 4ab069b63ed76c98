#include "support/RawHttp.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <cctype>
#include <cstdlib>

namespace onceorder::fuzz {

namespace {

std::string lower(std::string_view text)
{
    std::string out(text);
    for (char& c : out) {
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    return out;
}

// The server always answers with Content-Length (never chunked), so that is all this needs to frame.
RawExchange split(const std::string& received)
{
    RawExchange exchange;
    std::size_t pos = 0;
    while (pos < received.size()) {
        const std::size_t headEnd = received.find("\r\n\r\n", pos);
        if (headEnd == std::string::npos || received.compare(pos, 9, "HTTP/1.1 ") != 0 || headEnd - pos < 12) {
            exchange.unframed = true;
            return exchange;
        }
        RawResponse response;
        response.headers = received.substr(pos, headEnd + 4 - pos);
        response.status = std::atoi(response.headers.substr(9, 3).c_str());
        if (response.status >= 100 && response.status < 200) {
            pos = headEnd + 4; // an interim answer (100 Continue) has no body and is not the request's answer
            continue;
        }
        const std::string head = lower(response.headers);
        std::size_t length = 0;
        if (const std::size_t at = head.find("\r\ncontent-length:"); at != std::string::npos) {
            length = std::strtoul(head.c_str() + at + 17, nullptr, 10);
        }
        if (headEnd + 4 + length > received.size()) {
            exchange.unframed = true;
            return exchange;
        }
        response.body = received.substr(headEnd + 4, length);
        exchange.responses.push_back(std::move(response));
        pos = headEnd + 4 + length;
    }
    return exchange;
}

} // namespace

RawExchange sendRaw(int port, std::string_view bytes)
{
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0) {
        std::abort();
    }
    timeval timeout {10, 0};
    ::setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, sizeof timeout);
    sockaddr_in address {};
    address.sin_family = AF_INET;
    address.sin_port = htons(static_cast<std::uint16_t>(port));
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address) != 0) {
        std::abort(); // the in-process server is gone: that is the crash to report
    }
    std::size_t sent = 0;
    while (sent < bytes.size()) {
        const ssize_t n = ::send(fd, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
        if (n <= 0) {
            break; // the server may close early on a request it refuses; what it answered is still read
        }
        sent += static_cast<std::size_t>(n);
    }
    std::string received;
    char buffer[16384];
    pollfd readable {fd, POLLIN, 0};
    while (::poll(&readable, 1, 1000) > 0) {
        const ssize_t n = ::recv(fd, buffer, sizeof buffer, 0);
        if (n <= 0) {
            break;
        }
        received.append(buffer, static_cast<std::size_t>(n));
        const RawExchange sofar = split(received);
        if (!sofar.unframed && !sofar.responses.empty()) {
            break;
        }
    }
    ::close(fd);
    return split(received);
}

} // namespace onceorder::fuzz
