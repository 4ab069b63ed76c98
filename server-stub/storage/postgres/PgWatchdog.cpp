#include "storage/postgres/PgWatchdog.h"

#include <sys/socket.h>

#include <algorithm>

namespace onceorder::server {

PgWatchdog::PgWatchdog()
    : m_thread([this] { loop(); })
{
}

PgWatchdog::~PgWatchdog()
{
    {
        std::lock_guard lock(m_lock);
        m_stopping = true;
    }
    m_wake.notify_all();
    m_thread.join();
}

std::uint64_t PgWatchdog::arm(int socket, SteadyClock::time_point deadline)
{
    std::uint64_t ticket = 0;
    bool earliest = false;
    {
        std::lock_guard lock(m_lock);
        ticket = ++m_next;
        earliest = std::all_of(m_watches.begin(), m_watches.end(),
                               [&](const auto& watch) { return watch.second.deadline > deadline; });
        m_watches.emplace(ticket, Watch {socket, deadline});
    }
    if (earliest) {
        m_wake.notify_all();
    }
    return ticket;
}

bool PgWatchdog::disarm(std::uint64_t ticket)
{
    std::lock_guard lock(m_lock);
    const auto at = m_watches.find(ticket);
    if (at == m_watches.end()) {
        return false;
    }
    const bool fired = at->second.fired;
    m_watches.erase(at);
    return fired;
}

std::uint64_t PgWatchdog::fired() const
{
    std::lock_guard lock(m_lock);
    return m_fired;
}

void PgWatchdog::loop()
{
    std::unique_lock lock(m_lock);
    while (!m_stopping) {
        const auto now = SteadyClock::now();
        auto next = SteadyClock::time_point::max();
        for (auto& [ticket, watch] : m_watches) {
            if (watch.fired) {
                continue;
            }
            if (watch.deadline <= now) {
                // Under the lock: disarm() waits for it, so the socket is still its owner's, not closed and reused.
                ::shutdown(watch.socket, SHUT_RDWR);
                watch.fired = true;
                ++m_fired;
            } else {
                next = std::min(next, watch.deadline);
            }
        }
        if (next == SteadyClock::time_point::max()) {
            m_wake.wait(lock);
        } else {
            m_wake.wait_until(lock, next);
        }
    }
}

} // namespace onceorder::server
