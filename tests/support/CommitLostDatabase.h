// CommitLostDatabase: a decorator around a real SqlDatabase whose next write transaction's COMMIT, when armed, is
// lost (it takes effect, then the driver's in-doubt failure) or refused (it does not take effect: a definite transient
// failure), each thrown as the backend's own driver throws it (TestBackend::commitLost, commitRefused). For the tests
// of what a COMMIT whose answer is lost does to checkout locks (CheckoutLocksTest) and to the key-row quota
// (OrderServiceTest).
#pragma once

#include "storage/SqlTx.h"
#include "support/TestBackend.h"

#include <atomic>
#include <exception>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

namespace onceorder::test {

using server::SqlDatabase;
using server::SqlDialect;
using server::SqlParams;
using server::SqlRow;
using server::SqlTx;

// A write transaction whose COMMIT, when armed, takes effect and then fails as the driver fails when the reply to
// COMMIT never arrives (TestBackend::commitLost: libpqxx's in_doubt_error, SQLite's I/O error).
class CommitLostTx final : public SqlTx
{
public:
    enum class Commit
    {
        Normal,
        Lost, // it takes effect, then the driver's in-doubt failure
        Refused, // it does not take effect: a definite transient failure (a serialization failure, a busy database)
    };
    CommitLostTx(std::unique_ptr<SqlTx> real, Commit commit, const TestBackend& backend)
        : m_real(std::move(real))
        , m_commit(commit)
        , m_backend(backend)
    {
    }
    const SqlDialect& sqlDialect() const override { return m_real->sqlDialect(); }
    long long exec(std::string_view sql, const SqlParams& params) override { return m_real->exec(sql, params); }
    std::vector<SqlRow> query(std::string_view sql, const SqlParams& params) override
    {
        return m_real->query(sql, params);
    }
    std::optional<long long> insertReturningId(std::string_view insertSql, const SqlParams& params) override
    {
        return m_real->insertReturningId(insertSql, params);
    }
    void commit() override
    {
        if (m_commit == Commit::Refused) {
            std::rethrow_exception(m_backend.commitRefused());
        }
        m_real->commit();
        if (m_commit == Commit::Normal) {
            return;
        }
        std::rethrow_exception(m_backend.commitLost());
    }

private:
    std::unique_ptr<SqlTx> m_real;
    Commit m_commit;
    const TestBackend& m_backend;
};

class CommitLostDatabase final : public SqlDatabase
{
public:
    CommitLostDatabase(SqlDatabase& real, const TestBackend& backend)
        : m_real(real)
        , m_backend(backend)
    {
    }
    // The next write transaction's COMMIT is lost.
    void loseNextCommit() { m_next = CommitLostTx::Commit::Lost; }
    // The next write transaction's COMMIT fails and does not take effect.
    void refuseNextCommit() { m_next = CommitLostTx::Commit::Refused; }
    // How many write transactions have been begun.
    int writes() const { return m_writes; }
    std::unique_ptr<SqlTx> write() override
    {
        ++m_writes;
        return std::make_unique<CommitLostTx>(m_real.write(), m_next.exchange(CommitLostTx::Commit::Normal), m_backend);
    }
    std::unique_ptr<SqlTx> read() override { return m_real.read(); }

private:
    SqlDatabase& m_real;
    const TestBackend& m_backend;
    std::atomic<CommitLostTx::Commit> m_next {CommitLostTx::Commit::Normal};
    std::atomic<int> m_writes {0};
};

} // namespace onceorder::test
