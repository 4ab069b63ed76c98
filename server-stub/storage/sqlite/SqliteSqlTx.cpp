#include "storage/sqlite/SqliteSqlTx.h"

#include "storage/sqlite/SqliteLeaseTx.h"
#include "storage/sqlite/WriteTransaction.h"

#include <SQLiteCpp/Statement.h>
#include <SQLiteCpp/Transaction.h>

#include <optional>

namespace onceorder::server {

namespace {

// On the server's store: cached statements on a leased connection, writes inside a WriteTransaction.
class SqliteStoreTx final : public SqlTx
{
public:
    SqliteStoreTx(Store& store, bool write)
    {
        if (write) {
            m_write.emplace(store);
        } else {
            m_read.emplace(store.lease());
        }
    }
    Dialect dialect() const override { return Dialect::Sqlite; }
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
    std::optional<WriteTransaction> m_write;
};

class SqliteStoreDatabase final : public SqlDatabase
{
public:
    explicit SqliteStoreDatabase(Store& store)
        : m_store(store)
    {
    }
    Dialect dialect() const override { return Dialect::Sqlite; }
    std::unique_ptr<SqlTx> write() override { return std::make_unique<SqliteStoreTx>(m_store, true); }
    std::unique_ptr<SqlTx> read() override { return std::make_unique<SqliteStoreTx>(m_store, false); }

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
    Dialect dialect() const override { return Dialect::Sqlite; }
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

class SqliteConnectionDatabase final : public SqlDatabase
{
public:
    SqliteConnectionDatabase(SQLite::Database& db, std::mutex& lock)
        : m_db(db)
        , m_lock(lock)
    {
    }
    Dialect dialect() const override { return Dialect::Sqlite; }
    std::unique_ptr<SqlTx> write() override { return std::make_unique<SqliteConnectionTx>(m_db, m_lock, true); }
    std::unique_ptr<SqlTx> read() override { return std::make_unique<SqliteConnectionTx>(m_db, m_lock, false); }

private:
    SQLite::Database& m_db;
    std::mutex& m_lock;
};

} // namespace

std::unique_ptr<SqlDatabase> sqliteStoreDatabase(Store& store)
{
    return std::make_unique<SqliteStoreDatabase>(store);
}

std::unique_ptr<SqlDatabase> sqliteConnectionDatabase(SQLite::Database& db, std::mutex& lock)
{
    return std::make_unique<SqliteConnectionDatabase>(db, lock);
}

} // namespace onceorder::server
