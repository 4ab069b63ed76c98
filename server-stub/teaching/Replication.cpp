#include "teaching/Replication.h"

#include "storage/Standby.h"

#include <algorithm>
#include <cstdio>
#include <stdexcept>

namespace onceorder::server {

Replication::Replication(std::unique_ptr<Standby> standby)
    : m_standbyCopy(std::move(standby))
    , m_standby(m_standbyCopy->place())
    , m_shipper([this] { shipperLoop(); })
{
    m_standbyCopy->onPrimaryCommit([this] { committed(); });
}

Replication::~Replication()
{
    {
        std::lock_guard lock(m_lock);
        m_stopping = true;
    }
    m_wake.notify_all();
    m_shipper.join();
}

std::optional<Replication::Mode> Replication::modeFromName(std::string_view name)
{
    for (Mode mode : {Mode::Off, Mode::Sync, Mode::Async}) {
        if (modeName(mode) == name) {
            return mode;
        }
    }
    return std::nullopt;
}

std::string_view Replication::modeName(Mode mode)
{
    switch (mode) {
    case Mode::Sync:
        return "sync";
    case Mode::Async:
        return "async";
    case Mode::Off:
        break;
    }
    return "off";
}

Replication::Status Replication::configure(Mode mode, bool paused)
{
    std::unique_lock lock(m_lock);
    const Mode before = m_mode;
    const bool catchUp = mode == Mode::Sync && m_shipped < m_commits;
    if (before == Mode::Off && mode != Mode::Off) {
        // Counted from here: every commit after this point is either in the base backup or counted for a ship.
        m_commits = 0;
        m_shipped = 0;
        m_failures = 0;
    }
    m_mode = mode;
    m_failedAt.reset();
    m_paused = mode == Mode::Async && paused;
    lock.unlock();
    if ((before == Mode::Off && mode != Mode::Off) || catchUp) {
        std::lock_guard ship(m_shipLock);
        lock.lock();
        const std::uint64_t covered = m_commits;
        lock.unlock();
        try {
            shipLocked();
        } catch (const std::exception& error) {
            lock.lock();
            if (before == Mode::Off) {
                m_mode = Mode::Off;
                m_paused = false;
            }
            throw std::runtime_error("the standby " + m_standby + " cannot be written: " + error.what());
        }
        lock.lock();
        m_shipped = std::max(m_shipped, covered);
        lock.unlock();
    }
    m_wake.notify_all();
    return status();
}

Replication::Status Replication::status() const
{
    std::lock_guard lock(m_lock);
    return Status {m_mode, m_paused, m_commits, m_shipped, m_failures, m_standby};
}

void Replication::committed() noexcept
{
    std::unique_lock lock(m_lock);
    if (m_mode == Mode::Off) {
        return;
    }
    ++m_commits;
    if (m_mode == Mode::Async) {
        lock.unlock();
        m_wake.notify_all();
        return;
    }
    lock.unlock();
    // Sync: the writer that committed waits here, so nobody hears of this commit before the standby holds it.
    shipCounting();
}

void Replication::shipCounting()
{
    std::lock_guard ship(m_shipLock);
    std::unique_lock lock(m_lock);
    const std::uint64_t covered = m_commits; // counted after their COMMIT: the copy taken now holds them all
    lock.unlock();
    try {
        shipLocked();
        lock.lock();
        m_shipped = std::max(m_shipped, covered);
        m_failedAt.reset();
    } catch (const std::exception& error) {
        lock.lock();
        ++m_failures;
        m_failedAt = covered;
        std::fprintf(stderr, "replication: the standby %s cannot be written: %s\n", m_standby.c_str(), error.what());
    }
}

void Replication::shipLocked()
{
    m_standbyCopy->copy();
}

void Replication::shipperLoop()
{
    std::unique_lock lock(m_lock);
    while (true) {
        m_wake.wait(lock, [this] {
            // After a failed ship, the next try waits for another commit (or a configure), not a spinning loop.
            return m_stopping ||
                (m_mode == Mode::Async && !m_paused && m_shipped < m_commits && m_failedAt != m_commits);
        });
        if (m_stopping) {
            return;
        }
        lock.unlock();
        shipCounting();
        lock.lock();
    }
}

} // namespace onceorder::server
