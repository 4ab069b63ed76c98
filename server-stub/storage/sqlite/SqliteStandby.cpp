#include "storage/sqlite/SqliteStandby.h"

#include "storage/sqlite/Store.h"

#include <SQLiteCpp/Backup.h>
#include <SQLiteCpp/Database.h>

namespace onceorder::server {

namespace {

constexpr int kBusyTimeoutMs = 10'000;

} // namespace

SqliteStandby::SqliteStandby(Store& store, std::string primaryPath)
    : m_store(store)
    , m_primary(std::move(primaryPath))
    , m_standby(standbyPathOf(m_primary))
{
}

SqliteStandby::~SqliteStandby() = default;

std::string SqliteStandby::standbyPathOf(const std::string& primaryPath)
{
    return primaryPath + ".standby";
}

void SqliteStandby::copy()
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

void SqliteStandby::onPrimaryCommit(std::function<void()> committed)
{
    m_store.onCommit(std::move(committed));
}

} // namespace onceorder::server
