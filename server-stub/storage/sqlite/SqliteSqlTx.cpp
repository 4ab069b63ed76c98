#include "storage/sqlite/SqliteSqlTx.h"

#include "storage/Schema.h"
#include "storage/sqlite/SqliteDialect.h"
#include "storage/sqlite/SqliteLeaseTx.h"
#include "storage/sqlite/WriteTransaction.h"

#include <SQLiteCpp/Database.h>
#include <SQLiteCpp/Statement.h>
#include <SQLiteCpp/Transaction.h>

#include <filesystem>
#include <mutex>
#include <optional>

namespace onceorder::server {

namespace {

// On the server's store: cached statements on a leased connection, writes inside a WriteTransaction, a snapshot
// inside a deferred transaction (rolled back when it ends: it wrote nothing).
class SqliteStoreTx final : public SqlTx
{
public:
    enum class Kind
    {
        Read,
        Snapshot,
        Write,
    };

    SqliteStoreTx(Store& store, Kind kind)
    {
        if (kind == Kind::Write) {
            m_write.emplace(store);
        } else {
            m_read.emplace(store.lease());
            if (kind == Kind::Snapshot) {
                m_snapshot.emplace(**m_read);
            }
        }
    }
    const SqlDialect& sqlDialect() const override { return sqliteDialect(); }
    long long exec(std::string_view sql, const SqlParams& params) override
    {
        return SqliteLeaseTx(lease()).exec(sql, params);
    }
    std::vector<SqlRow> query(std::string_view sql, const SqlParams& params) override
    {
        return SqliteLeaseTx(lease()).query(sql, params);
    }
    std::optional<long long> insertReturningId(std::string_view insertSql, const SqlParams& params) override
    {
        return SqliteLeaseTx(lease()).insertReturningId(insertSql, params);
    }
    void commit() override
    {
        if (m_write) {
            m_write->commit();
        }
    }

private:
    Store::Lease& lease() { return m_write ? m_write->db() : *m_read; }

    std::optional<Store::Lease> m_read;
    std::optional<SQLite::Transaction> m_snapshot; // after the lease: ends before the connection goes back
    std::optional<WriteTransaction> m_write;
};

class SqliteStoreDatabase final : public SqlDatabase
{
public:
    explicit SqliteStoreDatabase(Store& store)
        : m_store(store)
    {
    }
    std::unique_ptr<SqlTx> write() override
    {
        return std::make_unique<SqliteStoreTx>(m_store, SqliteStoreTx::Kind::Write);
    }
    std::unique_ptr<SqlTx> read() override
    {
        return std::make_unique<SqliteStoreTx>(m_store, SqliteStoreTx::Kind::Read);
    }
    std::unique_ptr<SqlTx> snapshot() override
    {
        return std::make_unique<SqliteStoreTx>(m_store, SqliteStoreTx::Kind::Snapshot);
    }

private:
    Store& m_store;
};

// On one connection guarded by a mutex (held for the transaction's lifetime): statements prepared per use.
class SqliteConnectionTx final : public SqlTx
{
public:
    SqliteConnectionTx(SQLite::Database& db, std::mutex& lock, bool write)
        : m_db(db)
        , m_lock(lock)
    {
        if (write) {
            m_transaction.emplace(m_db, SQLite::TransactionBehavior::IMMEDIATE);
        }
    }
    const SqlDialect& sqlDialect() const override { return sqliteDialect(); }
    long long exec(std::string_view sql, const SqlParams& params) override
    {
        SQLite::Statement statement(m_db, std::string(sql));
        SqliteLeaseTx::bindAll(statement, params);
        return statement.exec();
    }
    std::vector<SqlRow> query(std::string_view sql, const SqlParams& params) override
    {
        SQLite::Statement statement(m_db, std::string(sql));
        SqliteLeaseTx::bindAll(statement, params);
        return SqliteLeaseTx::readAll(statement);
    }
    std::optional<long long> insertReturningId(std::string_view insertSql, const SqlParams& params) override
    {
        if (exec(insertSql, params) != 1) {
            return std::nullopt;
        }
        return static_cast<long long>(m_db.getLastInsertRowid());
    }
    void commit() override
    {
        if (m_transaction) {
            m_transaction->commit();
        }
    }

private:
    SQLite::Database& m_db;
    std::lock_guard<std::mutex> m_lock;
    std::optional<SQLite::Transaction> m_transaction; // after the lock: rolled back before it is let go
};

SQLite::Database openGatewayFile(const std::string& path)
{
    SQLite::Database db(path, SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE | SQLite::OPEN_FULLMUTEX);
    db.setBusyTimeout(10'000);
    db.exec("PRAGMA journal_mode = WAL");
    db.exec("PRAGMA synchronous = FULL");
    db.exec(schema::gatewayTables(sqliteDialect()));
    return db;
}

// A file of its own on one connection: one caller at a time, never held while a webhook is delivered.
class SqliteConnectionDatabase final : public SqlDatabase
{
public:
    explicit SqliteConnectionDatabase(const std::string& path)
        : m_db(openGatewayFile(path))
    {
    }
    std::unique_ptr<SqlTx> write() override { return std::make_unique<SqliteConnectionTx>(m_db, m_lock, true); }
    std::unique_ptr<SqlTx> read() override { return std::make_unique<SqliteConnectionTx>(m_db, m_lock, false); }

private:
    SQLite::Database m_db;
    std::mutex m_lock;
};

} // namespace

std::unique_ptr<SqlDatabase> sqliteStoreDatabase(Store& store)
{
    return std::make_unique<SqliteStoreDatabase>(store);
}

std::unique_ptr<SqlDatabase> sqliteGatewayDatabase(const std::string& path)
{
    return std::make_unique<SqliteConnectionDatabase>(path);
}

std::string gatewayDatabasePath(const std::string& serverDatabasePath)
{
    if (serverDatabasePath == ":memory:") {
        return serverDatabasePath;
    }
    std::filesystem::path path(serverDatabasePath);
    path.replace_extension(".gateway.db");
    return path.string();
}

} // namespace onceorder::server
