// SqliteTestBackend: the end-to-end suites on SQLite: a file in a fresh folder of its own, the stub gateway's books in
// the file the server keeps beside it, both read as a second process would (SqliteReads.h). It runs everywhere.
#pragma once

#include "support/ServerProcess.h"
#include "support/SqliteReads.h"
#include "support/TestBackend.h"

#include <SQLiteCpp/Database.h>
#include <SQLiteCpp/Exception.h>
#include <SQLiteCpp/Statement.h>

#include <sqlite3.h>

namespace onceorder::test {

class SqliteTestDatabase final : public BackendDatabase
{
public:
    std::string db() const override { return m_path; }
    long long scalar(const std::string& sql) const override { return sqliteScalar(m_path, sql); }
    std::string text(const std::string& sql) const override { return sqliteText(m_path, sql); }
    long long gatewayScalar(const std::string& sql) const override { return sqliteScalar(m_gatewayPath, sql); }
    std::string gatewayText(const std::string& sql) const override { return sqliteText(m_gatewayPath, sql); }
    long long tablesNamed(const std::string& table) const override
    {
        SQLite::Database db(m_path, SQLite::OPEN_READONLY, kReadBusyTimeoutMs);
        SQLite::Statement query(db, "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?");
        query.bind(1, table);
        query.executeStep();
        return query.getColumn(0).getInt64();
    }

private:
    TempDir m_dir;
    std::string m_path = m_dir.file("server.db");
    // Where the server keeps the stub gateway's file: beside its database, named after it.
    std::string m_gatewayPath = m_dir.file("server.gateway.db");
};

class SqliteTestBackend final : public TestBackend
{
public:
    std::string_view name() const override { return "sqlite"; }
    BackendCapabilities capabilities() const override
    {
        return {.sharedByProcesses = false,
                .failedStatementKeepsTransaction = true,
                .fastWriteFlags = {"--synchronous", "normal"}};
    }
    std::optional<BackendMissing> missing() const override { return std::nullopt; }
    std::unique_ptr<BackendDatabase> fresh() const override { return std::make_unique<SqliteTestDatabase>(); }
    std::exception_ptr commitLost() const override
    {
        return std::make_exception_ptr(SQLite::Exception("disk I/O error", SQLITE_IOERR));
    }
    std::exception_ptr commitRefused() const override
    {
        return std::make_exception_ptr(SQLite::Exception("database is locked", SQLITE_BUSY));
    }
};

} // namespace onceorder::test
