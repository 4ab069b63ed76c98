// Fuzzes the bytes around a request's content (issue 38): header fragments, chunk-size lines and their extensions,
// trailer sections and pipelined input, each made large by repeating a piece of the input, sent on up to four
// connections at once to an OrderServer in this process whose memory budget is small (--memory-budget 1: 1 MiB).
//
// Input: byte 0 picks the head (a header that never ends, a chunked POST /orders or GET /healthz whose chunk line or
// trailer the piece continues, pipelined requests), byte 1 the connections (1-4), byte 2 how often the piece is
// repeated (x 1-256, at most 512 KiB a connection); the rest is the piece.
//
// Properties: the bytes charged to the server's memory budget never pass it by more than the connections' unsent
// answers (answers are counted but never refused; a few KiB each here); once every connection has closed, nothing is
// charged any more (no byte is counted that is not held, or held that is not given back); and the server still answers
// GET /healthz. Under ASan the process's resident size says nothing about the server's own bytes (shadow memory,
// quarantine), so the budget's own count is what is checked: tests/ServerAttackTest.cpp checks the RSS of the real
// process (HeaderFragmentsOfManyConnectionsAreChargedToOneMemoryBudget, ChunkLinesAndTrailersThatNeverEnd…).
#include "OrderServer.h"
#include "support/FuzzCheck.h"
#include "support/RawHttp.h"
#include "support/ServedInProcess.h"

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

using namespace onceorder::server;
using onceorder::fuzz::require;

namespace {

constexpr std::size_t kBudget = 1024 * 1024;
constexpr std::size_t kAnswerAllowance = 8 * 1024; // per connection: one problem answer and its headers
constexpr std::size_t kMostPerConnection = 512 * 1024;

// Never destroyed (support/ServedInProcess.h).
onceorder::fuzz::ServedInProcess& fixture()
{
    static auto* instance = new onceorder::fuzz::ServedInProcess("framing", [](ServerOptions& options) {
        options.threads = 2;
        options.headerTimeout = std::chrono::milliseconds(200); // a fragment left unfinished is given up soon
        options.memoryBudgetMiB = kBudget / (1024 * 1024);
    });
    return *instance;
}

std::string headOf(std::uint8_t kind)
{
    const std::string order = "POST /orders HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer demo-key-A\r\n"
                              "Idempotency-Key: \"framing\"\r\nContent-Type: application/json\r\n"
                              "Transfer-Encoding: chunked\r\n\r\n";
    switch (kind % 6) {
    case 0:
        return "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Fill: "; // a header fragment
    case 1:
        return order + "1;a="; // a chunk extension
    case 2:
        return order + "2\r\n{}\r\n0\r\nX-Trailer: "; // a trailer section
    case 3:
        return "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n"; // chunk lines
    case 4:
        return order; // the piece is the chunked body, lines and data as the input has them
    default:
        return {}; // the piece is pipelined requests, or anything at all
    }
}

// Sends `head` and `piece` x `repeat` without blocking on a server that stopped reading, then closes.
void attack(int port, const std::string& head, const std::string& piece, std::size_t repeat)
{
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address {};
    address.sin_family = AF_INET;
    address.sin_port = htons(static_cast<std::uint16_t>(port));
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (fd < 0 || ::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) {
        if (fd >= 0) {
            ::close(fd);
        }
        return;
    }
    std::string bytes = head;
    for (std::size_t i = 0; i < repeat && bytes.size() < kMostPerConnection; ++i) {
        bytes += piece;
    }
    std::size_t sent = 0;
    while (sent < bytes.size()) {
        pollfd ready {fd, POLLOUT, 0};
        if (::poll(&ready, 1, 300) <= 0 || (ready.revents & (POLLERR | POLLHUP)) != 0) {
            break; // the server stopped reading (it answered, or holds what it may and waits)
        }
        const ssize_t written = ::send(fd, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL | MSG_DONTWAIT);
        if (written <= 0) {
            break;
        }
        sent += static_cast<std::size_t>(written);
    }
    ::close(fd);
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***)
{
    fixture();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    if (size < 4) {
        return 0;
    }
    auto& f = fixture();
    const std::string head = headOf(data[0]);
    const std::size_t connections = 1 + data[1] % 4;
    const std::size_t repeat = 1 + data[2];
    const std::string piece(reinterpret_cast<const char*>(data + 3), size - 3);
    std::vector<std::thread> attackers;
    for (std::size_t i = 0; i < connections; ++i) {
        attackers.emplace_back([&] { attack(f.port(), head, piece, repeat); });
    }
    for (auto& attacker : attackers) {
        attacker.join();
    }
    require(f.server().heldBytesPeak() <= kBudget + 4 * kAnswerAllowance,
            "the bytes held for connections stay within the memory budget",
            std::to_string(f.server().heldBytesPeak()) + " bytes charged at once");
    // Every connection is closed on our side: the server lets go of each when it sees that, or at its header timeout.
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    while (f.server().heldBytes() > 0 && std::chrono::steady_clock::now() < deadline) {
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    require(f.server().heldBytes() == 0, "what closed connections held is given back",
            std::to_string(f.server().heldBytes()) + " bytes still charged");
    const auto health =
        onceorder::fuzz::sendRaw(f.port(), "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
    require(!health.responses.empty() && health.responses.front().status == 200, "the server still answers",
            health.responses.empty() ? std::string("no answer") : health.responses.front().headers);
    return 0;
}
