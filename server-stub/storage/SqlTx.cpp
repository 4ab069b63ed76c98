#include "storage/SqlTx.h"

#include "storage/WriteTransaction.h"
#include "storage/postgres/PgPool.h"

#include <SQLiteCpp/Statement.h>
#include <SQLiteCpp/Transaction.h>
#include <pqxx/prepared_statement>
#include <pqxx/result>
#include <pqxx/row>
#include <pqxx/transaction>

namespace onceorder::server {

namespace {

void bindAll(SQLite::Statement& statement, const SqlParams& params)
{
    int index = 1;
    for (const SqlValue& value : params) {
        if (const auto* number = std::get_if<long long>(&value)) {
            statement.bind(index, static_cast<int64_t>(*number));
        } else if (const auto* text = std::get_if<std::string>(&value)) {
            statement.bind(index, *text);
        } else {
            statement.bind(index);
        }
        ++index;
    }
}

std::vector<SqlRow> readAll(SQLite::Statement& statement)
{
    std::vector<SqlRow> rows;
    while (statement.executeStep()) {
        std::vector<std::optional<std::string>> columns;
        for (int i = 0; i < statement.getColumnCount(); ++i) {
            const SQLite::Column column = statement.getColumn(i);
            columns.push_back(column.isNull() ? std::nullopt : std::optional<std::string>(column.getString()));
        }
        rows.emplace_back(std::move(columns));
    }
    return rows;
}

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
        auto statement = lease().statement(sql);
        bindAll(*statement, params);
        return statement->exec();
    }
    std::vector<SqlRow> query(std::string_view sql, const SqlParams& params) override
    {
        auto statement = lease().statement(sql);
        bindAll(*statement, params);
        return readAll(*statement);
    }
    void commit() override
    {
        if (m_write) {
            m_write->commit();
        }
    }
    Store::Lease* sqliteLease() override { return &lease(); }

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
        bindAll(statement, params);
        return statement.exec();
    }
    std::vector<SqlRow> query(std::string_view sql, const SqlParams& params) override
    {
        SQLite::Statement statement(m_db, std::string(sql));
        bindAll(statement, params);
        return readAll(statement);
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
        const pqxx::result result = run(sql, params);
        std::vector<SqlRow> rows;
        rows.reserve(result.size());
        for (const auto& row : result) {
            std::vector<std::optional<std::string>> columns;
            for (const auto& field : row) {
                columns.push_back(field.is_null() ? std::nullopt : std::optional<std::string>(field.c_str()));
            }
            rows.emplace_back(std::move(columns));
        }
        return rows;
    }
    void commit() override { m_work.commit(); }

private:
    pqxx::result run(std::string_view sql, const SqlParams& params)
    {
        std::vector<std::optional<std::string>> values;
        values.reserve(params.size());
        for (const SqlValue& value : params) {
            if (const auto* number = std::get_if<long long>(&value)) {
                values.emplace_back(std::to_string(*number));
            } else if (const auto* text = std::get_if<std::string>(&value)) {
                values.emplace_back(*text);
            } else {
                values.emplace_back(std::nullopt);
            }
        }
        try {
            return m_work.exec_params(numberedPlaceholders(sql), pqxx::prepare::make_dynamic_params(values));
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
