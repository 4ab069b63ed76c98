// The HTTP layer under clients that misbehave or are many, against the real server on loopback: a phone that lost
// its signal mid-request costs a socket, not a thread; thousands of kept-alive connections are served; a burst of
// connects is queued by the kernel, not dropped; keep-alive, Connection: close, Expect: 100-continue and chunked
// bodies work as HTTP/1.1 says.
#include "support/Http.h"
#include "support/RawHttp.h"
#include "support/ServerProcess.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <fcntl.h>
#include <fstream>
#include <sstream>
#include <vector>

using namespace onceorder::test;
using namespace std::chrono_literals;

namespace {

using Clock = std::chrono::steady_clock;

double millisecondsSince(Clock::time_point start)
{
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

double median(std::vector<double> values)
{
    std::sort(values.begin(), values.end());
    return values[values.size() / 2];
}

// A TcpExt counter from /proc/net/netstat (ListenOverflows, ListenDrops): machine-wide, so only reported.
long long tcpExt(const std::string& name)
{
    std::ifstream netstat("/proc/net/netstat");
    std::string names;
    std::string values;
    while (std::getline(netstat, names) && std::getline(netstat, values)) {
        if (names.rfind("TcpExt:", 0) != 0) {
            continue;
        }
        std::istringstream n(names);
        std::istringstream v(values);
        std::string field;
        std::string value;
        while (n >> field && v >> value) {
            if (field == name) {
                return std::stoll(value);
            }
        }
    }
    return -1;
}

const std::string kHealthz = "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";

} // namespace

TEST(ServerConnectionsTest, FiveHundredSilentHalfRequestsNeitherStallOthersNorStayOpen)
{
    ASSERT_GE(raiseDescriptorLimit(), 700u);
    TempDir dir;
    ServerProcess server({"--db", dir.file("server.db"), "--header-timeout", "2"});

    // Half a header each, then silence: what a phone sends just before it loses its signal.
    std::vector<RawConnection> silent;
    for (int i = 0; i < 500; ++i) {
        silent.emplace_back(server.port());
        ASSERT_TRUE(silent.back().valid()) << i;
        ASSERT_TRUE(silent.back().send("POST /orders HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer demo-"));
    }
    const auto sent = Clock::now();

    auto http = server.client();
    std::vector<double> healthz;
    std::vector<double> orders;
    for (int i = 0; i < 5; ++i) {
        auto start = Clock::now();
        EXPECT_EQ(get(*http, "/healthz").status, 200);
        healthz.push_back(millisecondsSince(start));
        start = Clock::now();
        const Reply placed =
            postOrder(*http, "demo-key-A", "well-behaved-" + std::to_string(i), R"({"product":"kniha","quantity":1})");
        EXPECT_EQ(placed.status, 201);
        orders.push_back(millisecondsSince(start));
    }
    const double fastest = *std::min_element(healthz.begin(), healthz.end());
    std::printf("under 500 silent connections: GET /healthz median %.2f ms (max %.2f), POST /orders median %.2f ms "
                "(max %.2f)\n",
                median(healthz), *std::max_element(healthz.begin(), healthz.end()), median(orders),
                *std::max_element(orders.begin(), orders.end()));
    EXPECT_LT(median(healthz), 100.0);
    EXPECT_LT(median(orders), 100.0);
    EXPECT_LT(fastest, 100.0);

    // Nothing was closed early…
    int closedEarly = 0;
    for (auto& connection : silent) {
        closedEarly += connection.closedWithin(0ms) ? 1 : 0;
    }
    EXPECT_EQ(closedEarly, 0);
    // …and every silent one is closed once the header timeout (2 s here) has run out, with no answer.
    int closed = 0;
    for (auto& connection : silent) {
        const auto left =
            std::max(0ms, std::chrono::duration_cast<std::chrono::milliseconds>(sent + 6s - Clock::now()));
        closed += connection.closedWithin(left) ? 1 : 0;
    }
    EXPECT_EQ(closed, 500);
    std::printf("all silent connections closed %.0f ms after their half header (timeout 2000 ms)\n",
                millisecondsSince(sent));
    EXPECT_GE(millisecondsSince(sent), 1900.0);
    EXPECT_EQ(get(*http, "/healthz").status, 200);
    EXPECT_EQ(server.stop(), 0);
}

TEST(ServerConnectionsTest, AHeaderTrickledByteByByteIsClosedAtTheDeadline)
{
    TempDir dir;
    ServerProcess server({"--db", dir.file("server.db"), "--header-timeout", "2"});
    RawConnection connection(server.port());
    ASSERT_TRUE(connection.valid());
    // One byte every 250 ms: activity all the time, but the header is never done. The timeout is a deadline for
    // the whole header, not an idle timer that every byte resets.
    const std::string header = "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + std::string(100, 'z');
    const auto start = Clock::now();
    bool closed = false;
    for (const char byte : header) {
        if (!connection.send(std::string(1, byte)) || connection.closedWithin(250ms)) {
            closed = true;
            break;
        }
    }
    const double elapsed = millisecondsSince(start);
    EXPECT_TRUE(closed);
    EXPECT_GE(elapsed, 1900.0);
    EXPECT_LT(elapsed, 4000.0);
}

TEST(ServerConnectionsTest, TwoThousandKeptAliveConnectionsAreAllServedTwice)
{
    constexpr int kConnections = 2000;
    if (raiseDescriptorLimit() < kConnections + 200) {
        GTEST_SKIP() << "the hard descriptor limit is below " << kConnections + 200;
    }
    TempDir dir;
    ServerProcess server({"--db", dir.file("server.db")});
    std::vector<RawConnection> connections;
    connections.reserve(kConnections);
    const auto start = Clock::now();
    for (int i = 0; i < kConnections; ++i) {
        connections.emplace_back(server.port());
        ASSERT_TRUE(connections.back().valid()) << "connection " << i;
    }
    for (int round = 0; round < 2; ++round) {
        for (auto& connection : connections) {
            ASSERT_TRUE(connection.send(kHealthz));
        }
        int answered = 0;
        int kept = 0;
        for (auto& connection : connections) {
            const std::string response = connection.readResponse(30s);
            answered += statusOf(response) == 200 ? 1 : 0;
            kept += response.find("Connection: close") == std::string::npos ? 1 : 0;
        }
        EXPECT_EQ(answered, kConnections) << "round " << round;
        EXPECT_EQ(kept, kConnections) << "round " << round;
    }
    std::printf("%d kept-alive connections, 2 requests each: %.0f ms\n", kConnections, millisecondsSince(start));
    EXPECT_EQ(server.stop(), 0) << "a graceful stop closes idle kept-alive connections at once";
}

TEST(ServerConnectionsTest, AKeptAliveConnectionServesEveryRequestItSends)
{
    TempDir dir;
    ServerProcess server({"--db", dir.file("server.db")});
    RawConnection connection(server.port());
    ASSERT_TRUE(connection.valid());
    int created = 0;
    int replayed = 0;
    for (int i = 0; i < 300; ++i) {
        const std::string request = i % 3 == 0
            ? kHealthz
            : rawOrder({"Authorization: Bearer demo-key-A", "Idempotency-Key: \"same-connection\"",
                        "Content-Type: application/json"});
        ASSERT_TRUE(connection.send(request)) << i;
        const std::string response = connection.readResponse();
        ASSERT_NE(statusOf(response), 0) << "request " << i << " found the connection closed";
        EXPECT_EQ(response.find("Connection: close"), std::string::npos);
        created += statusOf(response) == 201 && response.find("Idempotent-Replayed") == std::string::npos ? 1 : 0;
        replayed += response.find("Idempotent-Replayed: true") != std::string::npos ? 1 : 0;
    }
    EXPECT_EQ(created, 1);
    EXPECT_EQ(replayed, 199);
}

TEST(ServerConnectionsTest, ABurstOfAThousandConnectsIsAcceptedWithoutRetransmits)
{
    constexpr int kConnects = 1000;
    ASSERT_GE(raiseDescriptorLimit(), static_cast<rlim_t>(kConnects + 100));
    TempDir dir;
    ServerProcess server({"--db", dir.file("server.db")});
    const long long overflowsBefore = tcpExt("ListenOverflows");
    const long long dropsBefore = tcpExt("ListenDrops");

    // All SYNs at once (non-blocking connects), then wait for every handshake: a full accept queue would drop SYNs
    // and the client would retransmit only after a second.
    sockaddr_in address {};
    address.sin_family = AF_INET;
    address.sin_port = htons(static_cast<std::uint16_t>(server.port()));
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    std::vector<pollfd> sockets;
    const auto start = Clock::now();
    for (int i = 0; i < kConnects; ++i) {
        const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
        ASSERT_GE(fd, 0);
        const int result = ::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address);
        ASSERT_TRUE(result == 0 || errno == EINPROGRESS) << "connect " << i;
        sockets.push_back({fd, POLLOUT, 0});
    }
    std::vector<bool> done(sockets.size(), false);
    int connected = 0;
    int failed = 0;
    while (connected + failed < kConnects && millisecondsSince(start) < 5000) {
        std::vector<pollfd> waiting;
        std::vector<std::size_t> index;
        for (std::size_t i = 0; i < sockets.size(); ++i) {
            if (!done[i]) {
                waiting.push_back(sockets[i]);
                index.push_back(i);
            }
        }
        ::poll(waiting.data(), waiting.size(), 100);
        for (std::size_t w = 0; w < waiting.size(); ++w) {
            if (waiting[w].revents == 0) {
                continue;
            }
            int error = 0;
            socklen_t length = sizeof error;
            getsockopt(waiting[w].fd, SOL_SOCKET, SO_ERROR, &error, &length);
            (error == 0 ? connected : failed) += 1;
            done[index[w]] = true;
        }
    }
    const double elapsed = millisecondsSince(start);
    std::printf("%d connects at once: %d connected, %d failed in %.0f ms; ListenOverflows +%lld, ListenDrops +%lld "
                "(machine-wide)\n",
                kConnects, connected, failed, elapsed, tcpExt("ListenOverflows") - overflowsBefore,
                tcpExt("ListenDrops") - dropsBefore);
    EXPECT_EQ(connected, kConnects);
    EXPECT_LT(elapsed, 900.0) << "a dropped SYN is retransmitted only after a second";

    // They are all really served, too.
    int answered = 0;
    for (auto& socket : sockets) {
        const int flags = fcntl(socket.fd, F_GETFL);
        fcntl(socket.fd, F_SETFL, flags & ~O_NONBLOCK);
        ::send(socket.fd, kHealthz.data(), kHealthz.size(), MSG_NOSIGNAL);
    }
    for (auto& socket : sockets) {
        char buffer[512];
        pollfd readable {socket.fd, POLLIN, 0};
        if (::poll(&readable, 1, 10'000) == 1 && ::recv(socket.fd, buffer, sizeof buffer, 0) > 12) {
            answered += std::string(buffer, 12) == "HTTP/1.1 200" ? 1 : 0;
        }
        ::close(socket.fd);
    }
    EXPECT_EQ(answered, kConnects);
}

TEST(ServerConnectionsTest, ConnectionCloseExpectContinueAndChunkedBodies)
{
    TempDir dir;
    ServerProcess server({"--db", dir.file("server.db")});
    const std::string headers = "Authorization: Bearer demo-key-A\r\nContent-Type: application/json\r\n";
    const std::string body = R"({"product":"kniha","quantity":1})";

    // Connection: close is honoured: the answer says so and the server closes.
    {
        RawConnection connection(server.port());
        ASSERT_TRUE(connection.send("GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"));
        const std::string response = connection.readResponse();
        EXPECT_EQ(statusOf(response), 200);
        EXPECT_NE(response.find("Connection: close"), std::string::npos);
        EXPECT_TRUE(connection.closedWithin(2s));
    }
    // Expect: 100-continue: the interim answer first, then the body, then the order.
    {
        RawConnection connection(server.port());
        ASSERT_TRUE(connection.send("POST /orders HTTP/1.1\r\nHost: x\r\n" + headers +
                                    "Idempotency-Key: \"continue\"\r\nExpect: 100-continue\r\nContent-Length: " +
                                    std::to_string(body.size()) + "\r\n\r\n"));
        EXPECT_EQ(statusOf(connection.readResponse()), 100);
        ASSERT_TRUE(connection.send(body));
        EXPECT_EQ(statusOf(connection.readResponse()), 201);
    }
    // A body over the transport limit is refused before it is sent when the client asks first.
    {
        RawConnection connection(server.port());
        ASSERT_TRUE(connection.send("POST /orders HTTP/1.1\r\nHost: x\r\n" + headers +
                                    "Idempotency-Key: \"too-big\"\r\nExpect: 100-continue\r\nContent-Length: 5000000"
                                    "\r\n\r\n"));
        const std::string response = connection.readResponse();
        EXPECT_EQ(statusOf(response), 413);
        EXPECT_NE(bodyOf(response).find("/problems/payload-too-large"), std::string::npos);
    }
    // A chunked body is read as the same order.
    {
        RawConnection connection(server.port());
        std::string chunked = "POST /orders HTTP/1.1\r\nHost: x\r\n" + headers +
            "Idempotency-Key: \"chunked\"\r\nTransfer-Encoding: chunked\r\n\r\n";
        auto chunk = [](const std::string& data) {
            char size[16];
            std::snprintf(size, sizeof size, "%zx\r\n", data.size());
            return size + data + "\r\n";
        };
        chunked += chunk(body.substr(0, 20)) + chunk(body.substr(20)) + "0\r\n\r\n";
        ASSERT_TRUE(connection.send(chunked));
        const std::string response = connection.readResponse();
        EXPECT_EQ(statusOf(response), 201) << response;
        EXPECT_NE(bodyOf(response).find("\"kniha\""), std::string::npos);
    }
    // Two requests in one write (pipelined) are both answered, in order.
    {
        RawConnection connection(server.port());
        ASSERT_TRUE(connection.send(kHealthz + "GET /nowhere HTTP/1.1\r\nHost: x\r\n\r\n"));
        EXPECT_EQ(statusOf(connection.readResponse()), 200);
        EXPECT_EQ(statusOf(connection.readResponse()), 404);
    }
    EXPECT_EQ(server.stop(), 0);
}

TEST(ServerConnectionsTest, AGracefulStopAnswersTheRequestInFlightAndClosesIdleConnectionsAtOnce)
{
    TempDir dir;
    ServerProcess server({"--db", dir.file("server.db"), "--debug-endpoints"});
    auto http = server.client();
    ASSERT_EQ(postJson(*http, "/_debug/faults", R"({"fault":"delay","delay_ms":1500})").status, 200);

    RawConnection idle(server.port());
    ASSERT_TRUE(idle.send(kHealthz));
    ASSERT_EQ(statusOf(idle.readResponse()), 200);
    RawConnection silent(server.port());
    ASSERT_TRUE(silent.send("GET /healthz HTTP/1.1\r\nHo"));

    RawConnection inFlight(server.port());
    ASSERT_TRUE(inFlight.send(rawOrder(
        {"Authorization: Bearer demo-key-A", "Idempotency-Key: \"in-flight\"", "Content-Type: application/json"})));
    // The request is with its handler once it has taken the armed fault.
    const auto armed = Clock::now();
    auto taken = [&] {
        const std::string state = get(*http, "/_debug/state").body;
        return state.find("\"fault\":{\"fault\":\"none\"") != std::string::npos ||
            state.find("\"remaining\":0") != std::string::npos;
    };
    while (!taken()) {
        ASSERT_LT(millisecondsSince(armed), 5000.0) << "the request never reached its handler";
    }

    const auto stopping = Clock::now();
    EXPECT_EQ(server.stop(), 0);
    const double stopMs = millisecondsSince(stopping);
    const std::string answer = inFlight.readResponse(1s);
    EXPECT_EQ(statusOf(answer), 201) << "the request in flight was answered";
    EXPECT_NE(answer.find("Connection: close"), std::string::npos);
    EXPECT_TRUE(idle.closedWithin(0ms));
    EXPECT_TRUE(silent.closedWithin(0ms));
    std::printf("graceful stop with one request in its handler (1.5 s delay): %.0f ms\n", stopMs);
    EXPECT_LT(stopMs, 5000.0) << "neither the idle nor the half-sent connection holds the stop up";
}
