#include "storage/SqlTx.h"

#include "storage/postgres/PgPool.h"
#include "storage/postgres/PgWorkTx.h"
#include "storage/sqlite/SqliteLeaseTx.h"
#include "storage/sqlite/WriteTransaction.h"

#include <SQLiteCpp/Statement.h>
#include <SQLiteCpp/Transaction.h>
#include <pqxx/transaction>

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

class PostgresTx final : public SqlTx
{
public:
    explicit PostgresTx(PgPool& pool)
        : m_lease(pool.lease())
        , m_work(*m_lease)
    {
    }
    Dialect dialect() const override { return Dialect::Postgres; }
    long long exec(std::string_view sql, const SqlParams& params) override
    {
        return static_cast<long long>(run(sql, params).affected_rows());
    }
    std::vector<SqlRow> query(std::string_view sql, const SqlParams& params) override
    {
        return PgWorkTx::rowsOf(run(sql, params));
    }
    std::optional<long long> insertReturningId(std::string_view insertSql, const SqlParams& params) override
    {
        return PgWorkTx::idOf(run(std::string(insertSql) + " RETURNING id", params));
    }
    void commit() override { m_work.commit(); }

private:
    pqxx::result run(std::string_view sql, const SqlParams& params)
    {
        try {
            return PgWorkTx::run(m_work, sql, params);
        } catch (const pqxx::broken_connection&) {
            m_lease.discard();
            throw;
        }
    }

    PgPool::Lease m_lease;
    pqxx::work m_work; // after the lease: rolled back (unless committed) before the connection goes back
};

class PostgresDatabase final : public SqlDatabase
{
public:
    explicit PostgresDatabase(PgPool& pool)
        : m_pool(pool)
    {
    }
    Dialect dialect() const override { return Dialect::Postgres; }
    std::unique_ptr<SqlTx> write() override { return std::make_unique<PostgresTx>(m_pool); }
    std::unique_ptr<SqlTx> read() override { return std::make_unique<PostgresTx>(m_pool); }

private:
    PgPool& m_pool;
};

} // namespace

void SqlTx::emptyTables(std::initializer_list<std::string_view> tables)
{
    switch (dialect()) {
    case Dialect::Postgres: {
        std::string truncate = "TRUNCATE ";
        for (const std::string_view table : tables) {
            truncate.append(table).append(", ");
        }
        truncate.resize(truncate.size() - 2);
        exec(truncate + " RESTART IDENTITY");
        return;
    }
    case Dialect::Sqlite:
        for (const std::string_view table : tables) {
            exec("DELETE FROM " + std::string(table));
        }
        for (const std::string_view table : tables) {
            exec("DELETE FROM sqlite_sequence WHERE name = ?", {std::string(table)});
        }
        return;
    }
}

std::unique_ptr<SqlDatabase> sqliteStoreDatabase(Store& store)
{
    return std::make_unique<SqliteStoreDatabase>(store);
}

std::unique_ptr<SqlDatabase> sqliteConnectionDatabase(SQLite::Database& db, std::mutex& lock)
{
    return std::make_unique<SqliteConnectionDatabase>(db, lock);
}

std::unique_ptr<SqlDatabase> postgresDatabase(PgPool& pool)
{
    return std::make_unique<PostgresDatabase>(pool);
}

std::string numberedPlaceholders(std::string_view sql)
{
    std::string numbered;
    numbered.reserve(sql.size() + 16);
    int next = 1;
    for (const char c : sql) {
        if (c == '?') {
            numbered += '$' + std::to_string(next++);
        } else {
            numbered += c;
        }
    }
    return numbered;
}

} // namespace onceorder::server
