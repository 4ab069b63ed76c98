// The checkout key row's lock in process, on both databases (a fresh SQLite file, or a fresh PostgreSQL database
// when PGHOST names a cluster): a commit whose reply is lost while the key is claimed does not keep the key locked
// (the claim lets its lock go, as every later phase does), and on PostgreSQL a lock's age is judged by the database's
// clock, so an instance whose clock runs ahead takes over no checkout whose owner is still at the gateway. The
// lost reply is a decorator around the real database: the COMMIT takes effect, then the driver's exception is thrown,
// as when the connection drops between COMMIT and its answer.
#include "ServerOptions.h"
#include "checkout/CheckoutCompleter.h"
#include "checkout/CheckoutService.h"
#include "checkout/StubPaymentGateway.h"
#include "storage/Backend.h"
#include "storage/SqlTx.h"
#include "support/CommitLostDatabase.h"
#include "support/LatchedGateway.h"
#include "support/TestBackends.h"
#include "teaching/CrashPoints.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <exception>
#include <memory>
#include <string>
#include <thread>

using namespace onceorder::server;
using onceorder::test::BackendDatabase;
using onceorder::test::CommitLostDatabase;
using onceorder::test::LatchedGateway;
using onceorder::test::TestBackend;

namespace {

constexpr std::chrono::seconds kTtl {3600};
constexpr std::chrono::milliseconds kLockTimeout {30'000};
constexpr const char* kOne = R"({"product":"kniha","quantity":1,"payment_method":"card"})";

std::int64_t systemNowMs()
{
    return SystemClock().nowMs();
}

// How long a checkout on its own thread may take to reach the latched gateway before the test reports that it never
// did: a deadline against a hang, not a timing the test depends on (the owner gets there in milliseconds).
constexpr std::chrono::seconds kGatewayDeadline {60};

// The owner's checkout on a thread of its own, held at a LatchedGateway. The destructor releases the gateway and joins
// the thread, so that a failed assertion (or an exception) in the test reports instead of hanging or terminating; an
// exception on the thread becomes the response's body.
class OwnerAtTheGateway
{
public:
    OwnerAtTheGateway(CheckoutService& owner, LatchedGateway& latched, const Client& client, const std::string& key,
                      const CheckoutCommand& command)
        : m_latched(latched)
        , m_thread([this, &owner, client, key, command] {
            try {
                m_response = owner.checkout(client, key, command);
            } catch (const std::exception& e) {
                m_response.body = std::string("the owner's checkout threw: ") + e.what();
            }
        })
    {
    }
    OwnerAtTheGateway(const OwnerAtTheGateway&) = delete;
    OwnerAtTheGateway& operator=(const OwnerAtTheGateway&) = delete;
    ~OwnerAtTheGateway() { finish(); }

    bool atTheGateway() { return m_latched.enteredWithin(kGatewayDeadline); }
    // Lets the owner go on from the gateway and waits for its answer.
    const OrderResponse& finish()
    {
        m_latched.release();
        if (m_thread.joinable()) {
            m_thread.join();
        }
        return m_response;
    }

private:
    LatchedGateway& m_latched;
    OrderResponse m_response;
    std::thread m_thread;
};

// A fresh database of the parameter's backend, opened in process as the server opens it (the backend registry,
// storage/Backend.h), with the server's schema and demo data (kniha: 100 in stock). No time budget: the tests are not
// about a slow database.
class LockDatabase
{
public:
    explicit LockDatabase(const TestBackend& backend)
        : m_fresh(backend.fresh())
        , m_opened(openForServing(m_fresh->db()))
    {
    }
    SqlDatabase& database() { return m_opened->sql(); }
    long long scalar(const std::string& sql)
    {
        auto tx = database().read();
        return tx->queryOne(sql)->int64(0);
    }
    void exec(const std::string& sql)
    {
        auto tx = database().write();
        tx->exec(sql, {});
        tx->commit();
    }
    // The stub gateway's books where the server keeps them on this database.
    std::unique_ptr<SqlDatabase> openGatewayDatabase() { return m_opened->openGatewayDatabase(); }

private:
    static std::unique_ptr<OpenedDatabase> openForServing(const std::string& db)
    {
        ServerOptions options;
        options.dbPath = db;
        options.dbTimeout = std::chrono::milliseconds {0};
        return backendFor(db).open(options, true);
    }

    std::unique_ptr<BackendDatabase> m_fresh;
    std::unique_ptr<OpenedDatabase> m_opened;
};

class CheckoutLocksTest : public ::testing::TestWithParam<const TestBackend*>
{
protected:
    void SetUp() override
    {
        ONCEORDER_REQUIRE_BACKEND_OR_SKIP(*GetParam());
        m_db = std::make_unique<LockDatabase>(*GetParam());
        m_lossy = std::make_unique<CommitLostDatabase>(m_db->database(), *GetParam());
        m_gateway = std::make_unique<StubPaymentGateway>(m_db->openGatewayDatabase(), faults, clock, "whsec_test");
        m_service = std::make_unique<CheckoutService>(*m_lossy, "test", *m_gateway, faults, clock, kTtl, kLockTimeout);
        m_service->observePhases(std::make_unique<CrashPoints>(faults));
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

INSTANTIATE_TEST_SUITE_P(Databases, CheckoutLocksTest, onceorder::test::kEveryDatabase, onceorder::test::backendName);

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

// A COMMIT that fails outright (a serialization failure, a busy database) took nothing into effect: no lock to let go,
// so the 503 is answered without reaching for the database again (during an outage that would be one more connect
// attempt before the answer).
TEST_P(CheckoutLocksTest, AClaimWhoseCommitFailsOutrightDoesNotReachForTheDatabaseAgain)
{
    m_lossy->refuseNextCommit();
    const int before = m_lossy->writes();
    const OrderResponse refused = checkout("k1");
    EXPECT_EQ(refused.status, 503) << refused.body;
    EXPECT_EQ(m_lossy->writes() - before, 1) << "only the claim's own transaction: its COMMIT's outcome is known";
    EXPECT_EQ(scalar("SELECT count(*) FROM checkout_keys"), 0) << "the claim rolled back";

    const OrderResponse retry = checkout("k1");
    EXPECT_EQ(retry.status, 201) << retry.body;
    EXPECT_EQ(retry.outcome, "created");
    EXPECT_EQ(m_gateway->chargeCount(), 1);
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
    if (!GetParam()->capabilities().sharedByProcesses) {
        GTEST_SKIP() << "one process has this database to itself: its own clock is the only one that stamps locks";
    }
    LatchedGateway latched(*m_gateway);
    CheckoutService owner(m_db->database(), "test", latched, faults, clock, kTtl, kLockTimeout);
    owner.observePhases(std::make_unique<CrashPoints>(faults));
    ManualClock ahead {clock.nowMs() + kLockTimeout.count() + 1000};
    CheckoutService other(m_db->database(), "test", *m_gateway, faults, ahead, kTtl, kLockTimeout);
    other.observePhases(std::make_unique<CrashPoints>(faults));
    auto command = std::get<CheckoutCommand>(parseCheckoutCommand(kOne));

    OwnerAtTheGateway first(owner, latched, a, "k1", command);
    ASSERT_TRUE(first.atTheGateway()) << "the owner's checkout never reached the gateway: " << first.finish().body;
    const CheckoutCompleter::Pass pass = CheckoutCompleter(other).completeAbandoned();
    const OrderResponse duplicate = other.checkout(a, "k1", command);
    const OrderResponse& owned = first.finish();

    EXPECT_EQ(pass.completed, 0) << "the completer took over a checkout whose owner is alive";
    EXPECT_EQ(duplicate.status, 409) << "the owner is at the gateway, its lock a moment old by the database's clock: "
                                     << duplicate.body;
    EXPECT_EQ(owned.status, 201) << owned.body;
    EXPECT_EQ(owned.outcome, "created");
    EXPECT_EQ(m_gateway->chargeCount(), 1);
    EXPECT_EQ(scalar("SELECT count(*) FROM payments"), 1);
}

// The mirror case: the owner's clock runs 31 s behind (it is the one that would stamp the lock), the judge's is right.
// Stamped with the owner's own clock, the lock would be born 31 s old and look abandoned to every other instance.
TEST_P(CheckoutLocksTest, AnOwnerWhoseClockIsBehindStampsNoLockThatLooksAbandoned)
{
    if (!GetParam()->capabilities().sharedByProcesses) {
        GTEST_SKIP() << "one process has this database to itself: its own clock is the only one that stamps locks";
    }
    LatchedGateway latched(*m_gateway);
    ManualClock behind {clock.nowMs() - kLockTimeout.count() - 1000};
    CheckoutService owner(m_db->database(), "test", latched, faults, behind, kTtl, kLockTimeout);
    owner.observePhases(std::make_unique<CrashPoints>(faults));
    CheckoutService other(m_db->database(), "test", *m_gateway, faults, clock, kTtl, kLockTimeout);
    auto command = std::get<CheckoutCommand>(parseCheckoutCommand(kOne));

    OwnerAtTheGateway first(owner, latched, a, "k1", command);
    ASSERT_TRUE(first.atTheGateway()) << "the owner's checkout never reached the gateway: " << first.finish().body;
    const CheckoutCompleter::Pass pass = CheckoutCompleter(other).completeAbandoned();
    const OrderResponse duplicate = other.checkout(a, "k1", command);
    const OrderResponse& owned = first.finish();

    EXPECT_EQ(pass.completed, 0) << "the completer took over a checkout whose owner is alive (its lock stamped by the "
                                    "owner's clock, 31 s behind?)";
    EXPECT_EQ(duplicate.status, 409) << "the owner is at the gateway, its lock a moment old by the database's clock: "
                                     << duplicate.body;
    EXPECT_EQ(owned.status, 201) << owned.body;
    EXPECT_EQ(owned.outcome, "created");
    EXPECT_EQ(m_gateway->chargeCount(), 1);
    EXPECT_EQ(scalar("SELECT count(*) FROM payments"), 1);
}

// A lock's age by the clock that judges it (the database's on PostgreSQL, the injected one on SQLite) is made older in
// the database instead of waited for: the owner is held at the gateway, its lock stamped a moment ago.

// A lock older than the lock timeout is taken over by a duplicate (which resumes and finishes the checkout); the owner,
// let go from the gateway, finds its lock gone at its next phase and answers 409.
TEST_P(CheckoutLocksTest, ALockOlderThanTheLockTimeoutIsTakenOverByADuplicate)
{
    LatchedGateway latched(*m_gateway);
    CheckoutService owner(m_db->database(), "test", latched, faults, clock, kTtl, kLockTimeout);
    owner.observePhases(std::make_unique<CrashPoints>(faults));
    auto command = std::get<CheckoutCommand>(parseCheckoutCommand(kOne));

    OwnerAtTheGateway first(owner, latched, a, "k1", command);
    ASSERT_TRUE(first.atTheGateway()) << "the owner's checkout never reached the gateway: " << first.finish().body;
    ASSERT_EQ(scalar("SELECT count(*) FROM checkout_keys WHERE locked_at IS NOT NULL"), 1);
    m_db->exec("UPDATE checkout_keys SET locked_at = locked_at - " + std::to_string(kLockTimeout.count() + 1));
    const OrderResponse duplicate = checkout("k1");
    const OrderResponse& owned = first.finish();

    EXPECT_EQ(duplicate.status, 201) << "a lock 1 ms past the lock timeout is abandoned: " << duplicate.body;
    EXPECT_EQ(duplicate.outcome, "resumed");
    EXPECT_EQ(owned.status, 409) << "the owner lost its lock while at the gateway: " << owned.body;
    EXPECT_EQ(scalar("SELECT count(*) FROM orders"), 1);
    EXPECT_EQ(scalar("SELECT count(*) FROM payments"), 1);
}

// The same for the completer: it picks the stale lock, takes it over and finishes the checkout.
TEST_P(CheckoutLocksTest, ALockOlderThanTheLockTimeoutIsTakenOverByTheCompleter)
{
    LatchedGateway latched(*m_gateway);
    CheckoutService owner(m_db->database(), "test", latched, faults, clock, kTtl, kLockTimeout);
    owner.observePhases(std::make_unique<CrashPoints>(faults));
    auto command = std::get<CheckoutCommand>(parseCheckoutCommand(kOne));

    OwnerAtTheGateway first(owner, latched, a, "k1", command);
    ASSERT_TRUE(first.atTheGateway()) << "the owner's checkout never reached the gateway: " << first.finish().body;
    m_db->exec("UPDATE checkout_keys SET locked_at = locked_at - " + std::to_string(kLockTimeout.count() + 1));
    const CheckoutCompleter::Pass pass = CheckoutCompleter(*m_service).completeAbandoned();
    const OrderResponse& owned = first.finish();

    EXPECT_EQ(pass.completed, 1) << "a lock 1 ms past the lock timeout is abandoned";
    EXPECT_EQ(owned.status, 409) << "the owner lost its lock while at the gateway: " << owned.body;
    EXPECT_EQ(scalar("SELECT count(*) FROM checkout_keys WHERE recovery_point = 'finished'"), 1);
    EXPECT_EQ(scalar("SELECT count(*) FROM payments"), 1);
}

// A lock a second younger than the lock timeout is held: neither the completer nor a duplicate takes it over, and the
// owner finishes its checkout.
TEST_P(CheckoutLocksTest, ALockYoungerThanTheLockTimeoutIsNotTakenOver)
{
    LatchedGateway latched(*m_gateway);
    CheckoutService owner(m_db->database(), "test", latched, faults, clock, kTtl, kLockTimeout);
    owner.observePhases(std::make_unique<CrashPoints>(faults));
    auto command = std::get<CheckoutCommand>(parseCheckoutCommand(kOne));

    OwnerAtTheGateway first(owner, latched, a, "k1", command);
    ASSERT_TRUE(first.atTheGateway()) << "the owner's checkout never reached the gateway: " << first.finish().body;
    const std::string age = std::to_string(kLockTimeout.count() - 1000);
    m_db->exec("UPDATE checkout_keys SET locked_at = locked_at - " + age);
    const CheckoutCompleter::Pass pass = CheckoutCompleter(*m_service).completeAbandoned();
    const OrderResponse duplicate = checkout("k1");
    // The owner knows its lock by its exact stamp: give it back, so that the owner's next phase finds its own lock.
    m_db->exec("UPDATE checkout_keys SET locked_at = locked_at + " + age);
    const OrderResponse& owned = first.finish();

    EXPECT_EQ(pass.completed, 0) << "the completer took over a lock 29 s old (the lock timeout is 30 s)";
    EXPECT_EQ(duplicate.status, 409) << "a lock 29 s old is held: " << duplicate.body;
    EXPECT_EQ(owned.status, 201) << owned.body;
    EXPECT_EQ(owned.outcome, "created");
    EXPECT_EQ(m_gateway->chargeCount(), 1);
}
