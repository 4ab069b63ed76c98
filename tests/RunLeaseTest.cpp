// RunLease in process, on fresh SQLite files (the same SQL as on PostgreSQL): a run's lease is renewed while it runs,
// an expired one is never renewed (the process goes on as a new run), a checkout lock lives exactly as long as its
// run's lease, and an owner whose lease expired cannot write over the run that took its checkout over. A lease is
// made to expire by moving its heartbeat into the past in the database, whose clock judges it: no sleeping.
#include "storage/RunLease.h"
#include "checkout/CheckoutCompleter.h"
#include "checkout/CheckoutService.h"
#include "checkout/StubPaymentGateway.h"
#include "storage/SqlTx.h"
#include "storage/sqlite/SqliteSqlTx.h"
#include "support/LatchedGateway.h"
#include "support/ServerProcess.h"
#include "teaching/CrashPoints.h"

#include <SQLiteCpp/Database.h>
#include <gtest/gtest.h>

#include <future>
#include <thread>

using namespace onceorder::server;
using onceorder::test::LatchedGateway;
using onceorder::test::TempDir;

namespace {

constexpr std::int64_t kStart = 1'790'000'000'000;
constexpr std::chrono::seconds kTtl {3600};
constexpr std::chrono::milliseconds kLockTimeout {30'000};
constexpr const char* kOne = R"({"product":"kniha","quantity":1,"payment_method":"card"})";

class RunLeaseTest : public ::testing::Test
{
protected:
    OrderResponse checkoutWith(CheckoutService& service, const std::string& key)
    {
        auto command = parseCheckoutCommand(kOne);
        return service.checkout(a, key, std::get<CheckoutCommand>(command));
    }
    long long scalar(const std::string& sql)
    {
        auto db = store.lease();
        return db->execAndGet(sql).getInt64();
    }
    // As if the run had not beaten for an hour: by the database's clock its lease has run out.
    void expire(long long runId)
    {
        auto db = store.lease();
        SQLite::Statement age(*db, "UPDATE server_runs SET heartbeat_at = heartbeat_at - 3600000 WHERE run_id = ?");
        age.bind(1, static_cast<std::int64_t>(runId));
        ASSERT_EQ(age.exec(), 1);
    }
    std::function<long long()> runIds(long long first)
    {
        return [next = first]() mutable {
            return next++;
        };
    }

    TempDir dir;
    Store store {dir.file("server.db"), Synchronous::Full, 4};
    std::unique_ptr<SqlDatabase> database = sqliteStoreDatabase(store);
    Faults faults;
    ManualClock clock {kStart};
    StubPaymentGateway gateway {sqliteGatewayDatabase(dir.file("server.gateway.db")), faults, clock, "whsec_test"};
    Client a {"A", false};
};

} // namespace

TEST_F(RunLeaseTest, ALeaseIsRenewedWhileItRunsAndAnExpiredOneIsNeverRenewed)
{
    RunLease lease(*database, runIds(100));
    lease.begin();
    EXPECT_EQ(lease.runId(), 100);
    EXPECT_EQ(scalar("SELECT count(*) FROM server_runs WHERE run_id = 100"), 1);
    EXPECT_TRUE(lease.heartbeat());
    EXPECT_EQ(lease.runId(), 100);

    expire(100);
    EXPECT_FALSE(lease.heartbeat()) << "another instance may already have taken its locks over";
    EXPECT_EQ(lease.runId(), 101) << "the process goes on as a new run";
    EXPECT_EQ(scalar("SELECT count(*) FROM server_runs WHERE run_id = 100"), 0) << "the dead run's row is cleaned up";
    EXPECT_EQ(scalar("SELECT count(*) FROM server_runs WHERE run_id = 101"), 1);
    EXPECT_TRUE(lease.heartbeat());

    lease.end();
    EXPECT_EQ(scalar("SELECT count(*) FROM server_runs"), 0);
}

TEST_F(RunLeaseTest, ARunThatMissedItsRenewalsRenewsOrBeginsAgainBeforeItsIdIsUsed)
{
    // The process's own clock, moved by hand: how long ago the last renewal went through.
    auto now = std::chrono::steady_clock::time_point {} + std::chrono::hours(1);
    RunLease lease(*database, runIds(300), RunLease::kLeaseTime, [&now] { return now; });
    lease.setRenewBeforeUse(true); // as on PostgreSQL, where the lease has a connection of its own
    lease.begin();
    now += RunLease::kLeaseTime / 2 - std::chrono::milliseconds(1);
    EXPECT_EQ(lease.runId(), 300) << "renewed recently: used as it is";

    // The database was away for longer than the lease (every heartbeat failed), and is back: by its clock the run
    // has expired. The next checkout asks for the run id before the heartbeat thread's next beat.
    expire(300);
    now += RunLease::kLeaseTime;
    const long long run = lease.runId();
    EXPECT_EQ(run, 301) << "went on as a new run before its id was used, not as the expired run 300";
    EXPECT_EQ(scalar("SELECT count(*) FROM server_runs WHERE run_id = 301"), 1);

    // A checkout under it takes its lock and finishes: the instance does not refuse checkouts.
    CheckoutService service(store.sql(), store.instanceId(), gateway, faults, clock, kTtl, kLockTimeout);
    service.observePhases(std::make_unique<CrashPoints>(faults));
    service.setRunLease(lease);
    EXPECT_EQ(checkoutWith(service, "after-outage").status, 201);
}

TEST_F(RunLeaseTest, ALockLivesAsLongAsItsRunsLeaseNotUntilTheLockTimeout)
{
    RunLease lease(*database, runIds(7));
    lease.begin();
    CheckoutService owner(store.sql(), store.instanceId(), gateway, faults, clock, kTtl, kLockTimeout);
    owner.setRunLease(lease);
    owner.observePhases(std::make_unique<CrashPoints>(faults, [] { throw std::runtime_error("crashed"); }));
    faults.arm(ArmedFault {FaultKind::CrashAfterOrderCreated, 1, 0, 1});
    EXPECT_THROW(checkoutWith(owner, "k1"), std::runtime_error);
    EXPECT_EQ(scalar("SELECT locked_by FROM checkout_keys"), 7);

    CheckoutService other(store.sql(), store.instanceId(), gateway, faults, clock, kTtl, kLockTimeout);
    other.observePhases(std::make_unique<CrashPoints>(faults));
    EXPECT_EQ(checkoutWith(other, "k1").status, 409) << "run 7 is alive: its lock holds";
    EXPECT_EQ(CheckoutCompleter(other).completeAbandoned().completed, 0);

    expire(7);
    const OrderResponse resumed = checkoutWith(other, "k1");
    EXPECT_EQ(resumed.status, 201) << "run 7 is dead: its lock is taken over at once, the lock timeout not waited out";
    EXPECT_EQ(resumed.outcome, "resumed");
    EXPECT_EQ(gateway.chargeCount(), 1);
}

TEST_F(RunLeaseTest, AnOwnerWhoseLeaseExpiredCannotWriteOverTheRunThatTookItsCheckoutOver)
{
    RunLease lease(*database, runIds(1));
    lease.begin();
    LatchedGateway latched(gateway);
    CheckoutService owner(store.sql(), store.instanceId(), latched, faults, clock, kTtl, kLockTimeout);
    owner.observePhases(std::make_unique<CrashPoints>(faults));
    owner.setRunLease(lease);
    OrderResponse overtaken;
    std::thread first([&] { overtaken = checkoutWith(owner, "k1"); });
    latched.waitUntilEntered();

    // While run 1 stands still at the gateway, its lease runs out, and another worker takes the checkout over.
    CheckoutService other(store.sql(), store.instanceId(), gateway, faults, clock, kTtl, kLockTimeout);
    other.observePhases(std::make_unique<CrashPoints>(faults));
    EXPECT_EQ(checkoutWith(other, "k1").status, 409) << "while run 1 is alive";
    expire(1);
    const OrderResponse takeover = checkoutWith(other, "k1");
    EXPECT_EQ(takeover.status, 201);
    EXPECT_EQ(takeover.outcome, "resumed");

    latched.release();
    first.join();
    EXPECT_EQ(overtaken.status, 409) << "its next phase finds the row is no longer its own and writes nothing";
    EXPECT_EQ(gateway.chargeCount(), 1) << "both asked the gateway, under the same key";
    EXPECT_EQ(scalar("SELECT count(*) FROM payments"), 1);
    EXPECT_EQ(scalar("SELECT count(*) FROM order_status_changes WHERE to_status = 'paid'"), 1);
    EXPECT_EQ(scalar("SELECT count(*) FROM orders"), 1);
    const OrderResponse replay = checkoutWith(other, "k1");
    EXPECT_TRUE(replay.replayed);
    EXPECT_EQ(replay.body, takeover.body);
}

TEST_F(RunLeaseTest, AnOwnerWhoseLeaseExpiredStopsEvenWhenNobodyTookItsCheckoutOver)
{
    RunLease lease(*database, runIds(1));
    lease.begin();
    LatchedGateway latched(gateway);
    CheckoutService owner(store.sql(), store.instanceId(), latched, faults, clock, kTtl, kLockTimeout);
    owner.observePhases(std::make_unique<CrashPoints>(faults));
    owner.setRunLease(lease);
    OrderResponse stopped;
    std::thread first([&] { stopped = checkoutWith(owner, "k1"); });
    latched.waitUntilEntered();
    expire(1);
    latched.release();
    first.join();
    EXPECT_EQ(stopped.status, 409) << "a run that could not renew its lease must not act as the owner";
    EXPECT_EQ(scalar("SELECT count(*) FROM payments"), 0);
    EXPECT_EQ(scalar("SELECT recovery_point = 'order_created' FROM checkout_keys"), 1);

    // The process goes on as a new run; the checkout is anybody's now, its own retry's too.
    EXPECT_FALSE(lease.heartbeat());
    CheckoutService again(store.sql(), store.instanceId(), gateway, faults, clock, kTtl, kLockTimeout);
    again.observePhases(std::make_unique<CrashPoints>(faults));
    again.setRunLease(lease);
    const OrderResponse resumed = checkoutWith(again, "k1");
    EXPECT_EQ(resumed.status, 201);
    EXPECT_EQ(gateway.chargeCount(), 1);
}

TEST_F(RunLeaseTest, AStartOnADatabaseOneProcessOwnsEndsTheRunsBeforeIt)
{
    RunLease before(*database, runIds(1));
    before.begin();
    RunLease after(*database, runIds(2));
    after.begin();
    EXPECT_EQ(scalar("SELECT count(*) FROM server_runs"), 1);
    EXPECT_EQ(scalar("SELECT run_id FROM server_runs"), 2);
}
