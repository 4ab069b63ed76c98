// PgWatchdog: the client side of the time budget (--db-timeout-ms). libpq waits on its socket for as long as the
// server takes, and neither TCP keepalives nor tcp_user_timeout end that wait when something between us and the
// server still acknowledges our packets (a proxy or pooler whose other side stopped moving bytes, a frozen node
// behind a live load balancer) or when the server itself simply does not answer (SIGSTOP, a lock). So every leased
// connection is watched: past its deadline its socket is shut down from this thread, libpq's wait ends with a broken
// connection (pqxx::broken_connection, a transient failure answered 503 with Retry-After), and the lease closes the
// connection instead of giving it back to the pool. PostgreSQL's own timeouts (PgPool::sessionSettings) end the
// cases it can see, a lock wait, a little earlier and more gently, keeping the connection.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <mutex>
#include <thread>

namespace onceorder::server {

class PgWatchdog
{
public:
    using SteadyClock = std::chrono::steady_clock;

    PgWatchdog();
    ~PgWatchdog();
    PgWatchdog(const PgWatchdog&) = delete;
    PgWatchdog& operator=(const PgWatchdog&) = delete;

    // Shuts `socket` down at `deadline` unless disarmed before. Returns the ticket for disarm().
    std::uint64_t arm(int socket, SteadyClock::time_point deadline);
    // Stops watching; true if the deadline had passed and the socket was shut down (the connection is useless now).
    // After it returns the socket is no longer touched, so its owner may close it.
    bool disarm(std::uint64_t ticket);
    // How many sockets were shut down so far (for the log and tests).
    std::uint64_t fired() const;

private:
    struct Watch
    {
        int socket;
        SteadyClock::time_point deadline;
        bool fired = false;
    };
    void loop();

    mutable std::mutex m_lock;
    std::condition_variable m_wake;
    std::map<std::uint64_t, Watch> m_watches;
    std::uint64_t m_next = 0;
    std::uint64_t m_fired = 0;
    bool m_stopping = false;
    std::thread m_thread; // last: started once everything it uses is there
};

} // namespace onceorder::server
