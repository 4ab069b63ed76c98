#include "teaching/Replication.h"

#include <SQLiteCpp/Backup.h>
#include <SQLiteCpp/Database.h>

#include <algorithm>
#include <cstdio>
#include <stdexcept>

namespace onceorder::server {

namespace {

constexpr int kBusyTimeoutMs = 10'000;

} // namespace

Replication::Replication(std::string primaryPath)
    : m_primary(std::move(primaryPath))
    , m_standby(standbyPathOf(m_primary))
    , m_shipper([this] { shipperLoop(); })
{
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

std::string Replication::standbyPathOf(const std::string& primaryPath)
{
    return primaryPath + ".standby";
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
    try {
        if (!m_source) {
            m_source = std::make_unique<SQLite::Database>(m_primary, SQLite::OPEN_READONLY);
            m_source->setBusyTimeout(kBusyTimeoutMs);
        }
        if (!m_destination) {
            m_destination = std::make_unique<SQLite::Database>(m_standby, SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE);
            m_destination->setBusyTimeout(kBusyTimeoutMs);
            // As the primary keeps its own file: what a ship wrote survives the process (kill -9) and is read by the
            // server that is started on this file after a failover.
            m_destination->exec("PRAGMA journal_mode = WAL");
            m_destination->exec("PRAGMA synchronous = FULL");
        }
        // One step over every page: one read transaction on the primary, so the copy is one consistent snapshot.
        SQLite::Backup backup(*m_destination, *m_source);
        backup.executeStep(-1);
    } catch (...) {
        m_source.reset();
        m_destination.reset();
        throw;
    }
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
