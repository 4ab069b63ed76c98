// The checkout key row's lock in process, on both databases (a fresh SQLite file, or a fresh PostgreSQL database
// when PGHOST names a cluster): a commit whose reply is lost while the key is claimed does not keep the key locked
// (the claim lets its lock go, as every later phase does), and on PostgreSQL a lock's age is judged by the database's
// clock, so an instance whose clock runs ahead takes over no checkout whose owner is still at the gateway. The
// lost reply is a decorator around the real database: the COMMIT takes effect, then the driver's exception is thrown,
// as when the connection drops between COMMIT and its answer.
#include "checkout/CheckoutService.h"
#include "checkout/StubPaymentGateway.h"
#include "storage/SqlTx.h"
#include "storage/postgres/PgPool.h"
#include "storage/postgres/PgSchema.h"
#include "storage/postgres/PgSqlTx.h"
#include "storage/sqlite/SqliteSqlTx.h"
#include "support/LatchedGateway.h"
#include "support/PostgresDatabase.h"
#include "support/ServerProcess.h"

#include <SQLiteCpp/Exception.h>
#include <gtest/gtest.h>
#include <pqxx/except>

#include <sqlite3.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <thread>

using namespace onceorder::server;
using onceorder::test::Backend;
using onceorder::test::LatchedGateway;
using onceorder::test::TempDir;
using onceorder::test::TestDatabase;

namespace {

constexpr std::chrono::seconds kTtl {3600};
constexpr std::chrono::milliseconds kLockTimeout {30'000};
constexpr const char* kOne = R"({"product":"kniha","quantity":1,"payment_method":"card"})";

std::int64_t systemNowMs()
{
    return SystemClock().nowMs();
}

// A write transaction whose COMMIT, when armed, takes effect and then fails as the driver fails when the reply to
// COMMIT never arrives: libpqxx's in_doubt_error (the outcome is unknown), SQLite's I/O error.
class CommitLostTx final : public SqlTx
{
public:
    CommitLostTx(std::unique_ptr<SqlTx> real, bool loseCommit)
        : m_real(std::move(real))
        , m_loseCommit(loseCommit)
    {
    }
    Dialect dialect() const override { return m_real->dialect(); }
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
        m_real->commit();
        if (!m_loseCommit) {
            return;
        }
        if (dialect() == Dialect::Postgres) {
            throw pqxx::in_doubt_error("connection lost while committing: the transaction's outcome is unknown");
        }
        throw SQLite::Exception("disk I/O error", SQLITE_IOERR);
    }

private:
    std::unique_ptr<SqlTx> m_real;
    bool m_loseCommit;
};

class CommitLostDatabase final : public SqlDatabase
{
public:
    explicit CommitLostDatabase(SqlDatabase& real)
        : m_real(real)
    {
    }
    // The next write transaction's COMMIT is lost.
    void loseNextCommit() { m_lose = true; }
    Dialect dialect() const override { return m_real.dialect(); }
    std::unique_ptr<SqlTx> write() override
    {
        return std::make_unique<CommitLostTx>(m_real.write(), m_lose.exchange(false));
    }
    std::unique_ptr<SqlTx> read() override { return m_real.read(); }

private:
    SqlDatabase& m_real;
    std::atomic<bool> m_lose {false};
};

// One database of either kind, with the server's schema and demo data (kniha: 100 in stock).
class LockDatabase
{
public:
    explicit LockDatabase(Backend backend)
    {
        if (backend == Backend::Sqlite) {
            m_store = std::make_unique<Store>(m_dir.file("server.db"), Synchronous::Full, 4);
            m_database = sqliteStoreDatabase(*m_store);
            return;
        }
        m_postgres = std::make_unique<TestDatabase>();
        m_pool = std::make_unique<PgPool>(m_postgres->uri(), PgPool::Settings {});
        {
            auto connection = m_pool->lease();
            pgschema::create(*connection);
        }
        m_database = postgresDatabase(*m_pool);
    }
    SqlDatabase& database() { return *m_database; }
    long long scalar(const std::string& sql)
    {
        auto tx = m_database->read();
        return tx->queryOne(sql)->int64(0);
    }
    std::string gatewayFile() const { return m_dir.file("server.gateway.db"); }

private:
    TempDir m_dir;
    std::unique_ptr<Store> m_store;
    std::unique_ptr<TestDatabase> m_postgres;
    std::unique_ptr<PgPool> m_pool;
    std::unique_ptr<SqlDatabase> m_database;
};

class CheckoutLocksTest : public ::testing::TestWithParam<Backend>
{
protected:
    void SetUp() override
    {
        if (GetParam() == Backend::Postgres) {
            ONCEORDER_REQUIRE_POSTGRES_OR_SKIP();
        }
        m_db = std::make_unique<LockDatabase>(GetParam());
        m_lossy = std::make_unique<CommitLostDatabase>(m_db->database());
        m_gateway = std::make_unique<StubPaymentGateway>(m_db->gatewayFile(), faults, clock, "whsec_test");
        m_service = std::make_unique<CheckoutService>(*m_lossy, "test", *m_gateway, faults, clock, kTtl, kLockTimeout);
    }

    OrderResponse checkout(const std::string& key)
    {
        auto command = parseCheckoutCommand(kOne);
        return m_service->checkout(a, key, std::get<CheckoutCommand>(command));
    }
    long long scalar(const std::string& sql) { return m_db->scalar(sql); }

    Faults faults;
    // Near the real time: on PostgreSQL the database's own clock judges the locks.
    ManualClock clock {systemNowMs()};
    Client a {"A", false};
    std::unique_ptr<LockDatabase> m_db;
    std::unique_ptr<CommitLostDatabase> m_lossy;
    std::unique_ptr<StubPaymentGateway> m_gateway;
    std::unique_ptr<CheckoutService> m_service;
};

} // namespace

INSTANTIATE_TEST_SUITE_P(Databases, CheckoutLocksTest, onceorder::test::kBothDatabases, onceorder::test::databaseName);

TEST_P(CheckoutLocksTest, AClaimWhoseCommitReplyIsLostLeavesTheKeyFreeForTheRetry)
{
    m_lossy->loseNextCommit();
    const OrderResponse lost = checkout("k1");
    EXPECT_EQ(lost.status, 503) << lost.body;
    EXPECT_NE(lost.body.find("/problems/transient-failure"), std::string::npos) << lost.body;
    ASSERT_EQ(scalar("SELECT count(*) FROM checkout_keys"), 1) << "the claim's COMMIT took effect";
    EXPECT_EQ(scalar("SELECT count(*) FROM checkout_keys WHERE locked_at IS NULL"), 1)
        << "the 503 says retry to continue: the lock must not hold the retry off for the lock timeout";

    const OrderResponse retry = checkout("k1");
    EXPECT_EQ(retry.status, 201) << retry.body;
    EXPECT_EQ(retry.outcome, "resumed");
    EXPECT_EQ(m_gateway->chargeCount(), 1);
    EXPECT_EQ(scalar("SELECT count(*) FROM orders"), 1);
}

TEST_P(CheckoutLocksTest, ATakeOverWhoseCommitReplyIsLostLeavesTheKeyFreeForTheNextRetry)
{
    faults.arm(ArmedFault {FaultKind::GatewayFail, 1, 0, 1});
    EXPECT_EQ(checkout("k1").status, 503) << "the gateway failed: the row waits at order_created, unlocked";
    ASSERT_EQ(scalar("SELECT count(*) FROM checkout_keys WHERE recovery_point = 'order_created' AND "
                     "locked_at IS NULL"),
              1);

    m_lossy->loseNextCommit();
    const OrderResponse lost = checkout("k1");
    EXPECT_EQ(lost.status, 503) << lost.body;
    EXPECT_EQ(scalar("SELECT count(*) FROM checkout_keys WHERE locked_at IS NULL"), 1)
        << "the retry's claim of the row committed, and let it go again";

    const OrderResponse retry = checkout("k1");
    EXPECT_EQ(retry.status, 201) << retry.body;
    EXPECT_EQ(retry.outcome, "resumed");
    EXPECT_EQ(m_gateway->chargeCount(), 1);
}

// Two instances on one PostgreSQL database, the second's clock 31 s ahead of the first's (and of the database's).
// The lock timeout is 30 s: judged by the second's own clock, the first's fresh lock already looks abandoned.
TEST_P(CheckoutLocksTest, AnInstanceWhoseClockIsAheadTakesOverNoCheckoutStillAtTheGateway)
{
    if (GetParam() == Backend::Sqlite) {
        GTEST_SKIP() << "one process has a SQLite file to itself: its own clock is the only one that stamps locks";
    }
    LatchedGateway latched(*m_gateway);
    CheckoutService owner(m_db->database(), "test", latched, faults, clock, kTtl, kLockTimeout);
    ManualClock ahead {clock.nowMs() + kLockTimeout.count() + 1000};
    CheckoutService other(m_db->database(), "test", *m_gateway, faults, ahead, kTtl, kLockTimeout);
    auto command = std::get<CheckoutCommand>(parseCheckoutCommand(kOne));

    OrderResponse first;
    std::thread atTheGateway([&] { first = owner.checkout(a, "k1", command); });
    latched.waitUntilEntered();
    const CheckoutService::CompleterPass pass = other.completeAbandoned();
    const OrderResponse duplicate = other.checkout(a, "k1", command);
    latched.release();
    atTheGateway.join();

    EXPECT_EQ(pass.completed, 0) << "the completer took over a checkout whose owner is alive";
    EXPECT_EQ(duplicate.status, 409) << "the owner is at the gateway, its lock a moment old by the database's clock: "
                                     << duplicate.body;
    EXPECT_EQ(first.status, 201) << first.body;
    EXPECT_EQ(first.outcome, "created");
    EXPECT_EQ(m_gateway->chargeCount(), 1);
    EXPECT_EQ(scalar("SELECT count(*) FROM payments"), 1);
}
