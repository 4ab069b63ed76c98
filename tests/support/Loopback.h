// Loopback: the sockets the test relays share: an IPv4 loopback address, and a listening socket on a free loopback
// port (TcpRelay, HostileRelay).
#pragma once

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <stdexcept>
#include <string>

namespace onceorder::test {

inline sockaddr_in loopbackAddress(int port)
{
    sockaddr_in address {};
    address.sin_family = AF_INET;
    address.sin_port = htons(static_cast<uint16_t>(port));
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    return address;
}

struct LoopbackListener
{
    int socket = -1;
    int port = 0;
};

// A socket listening on 127.0.0.1 at a port the kernel picks; throws "<who>: cannot listen" if it cannot.
inline LoopbackListener listenOnLoopback(const std::string& who)
{
    LoopbackListener listener;
    listener.socket = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address = loopbackAddress(0);
    if (listener.socket < 0 || ::bind(listener.socket, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 ||
        ::listen(listener.socket, SOMAXCONN) != 0) {
        if (listener.socket >= 0) {
            ::close(listener.socket);
        }
        throw std::runtime_error(who + ": cannot listen");
    }
    socklen_t length = sizeof address;
    ::getsockname(listener.socket, reinterpret_cast<sockaddr*>(&address), &length);
    listener.port = ntohs(address.sin_port);
    return listener;
}

} // namespace onceorder::test
