// The server's transaction, in process, on a fresh SQLite file per test, with an injected clock.
#include "orders/OrderService.h"
#include "orders/OrderQueries.h"
#include "storage/sqlite/Store.h"
#include "support/CommitLostDatabase.h"
#include "support/ServerProcess.h"
#include "support/SqliteTestBackend.h"
#include "teaching/TeachingLessons.h"

#include <SQLiteCpp/Database.h>
#include <SQLiteCpp/Exception.h>
#include <SQLiteCpp/Statement.h>
#include <gtest/gtest.h>

using namespace onceorder::server;
using onceorder::test::TempDir;

namespace {

constexpr std::int64_t kStart = 1'790'000'000'000; // some day in 2026
constexpr std::chrono::seconds kTtl {3600};

class OrderServiceTest : public ::testing::Test
{
protected:
    TempDir dir;
    Store store {dir.file("server.db"), Synchronous::Full, 2};
    Faults faults;
    ManualClock clock {kStart};
    OrderService service {store.sql(), std::make_unique<TeachingLessons>(faults), clock, kTtl};
    Client a {"A", false};
    Client b {"B", false};

    OrderResponse place(const Client& client, const std::string& key, std::string_view body)
    {
        auto command = parseOrderCommand(body);
        EXPECT_TRUE(std::holds_alternative<OrderCommand>(command)) << body;
        return service.placeOrder(client, key, std::get<OrderCommand>(command));
    }

    long long scalar(const std::string& sql)
    {
        auto db = store.lease();
        return db->execAndGet(sql).getInt64();
    }
    long long orders() { return scalar("SELECT count(*) FROM orders"); }
    long long keys() { return scalar("SELECT count(*) FROM idempotency_keys"); }
    long long stock(const std::string& product)
    {
        auto db = store.lease();
        SQLite::Statement query(*db, "SELECT stock FROM products WHERE id = ?");
        query.bind(1, product);
        query.executeStep();
        return query.getColumn(0).getInt64();
    }
};

constexpr const char* kOne = R"({"product":"kniha","quantity":1})";

} // namespace

TEST(IsoTimeTest, WritesUtcWithMilliseconds)
{
    EXPECT_EQ(isoTime(0), "1970-01-01T00:00:00.000Z");
    EXPECT_EQ(isoTime(1'764'681'212'345), "2025-12-02T13:13:32.345Z");
    EXPECT_EQ(isoTime(951'782'400'007), "2000-02-29T00:00:00.007Z");
    EXPECT_EQ(isoTime(253'402'300'799'999), "9999-12-31T23:59:59.999Z");
}

TEST_F(OrderServiceTest, FirstRequestCreatesAndARetryReplaysByteForByte)
{
    const OrderResponse first = place(a, "k1", kOne);
    EXPECT_EQ(first.status, 201);
    EXPECT_FALSE(first.replayed);
    EXPECT_EQ(first.outcome, "created");
    clock.advanceMs(5000);
    const OrderResponse retry = place(a, "k1", R"({"quantity":1.0, "product":"kniha"})");
    EXPECT_EQ(retry.status, 201);
    EXPECT_TRUE(retry.replayed);
    EXPECT_EQ(retry.body, first.body);
    EXPECT_EQ(orders(), 1);
    EXPECT_EQ(stock("kniha"), 99);
}

TEST_F(OrderServiceTest, SameKeyWithAnotherPayloadIs422AndChangesNothing)
{
    place(a, "k1", kOne);
    const OrderResponse other = place(a, "k1", R"({"product":"kniha","quantity":2})");
    EXPECT_EQ(other.status, 422);
    EXPECT_EQ(other.outcome, "mismatch");
    EXPECT_EQ(orders(), 1);
    EXPECT_EQ(stock("kniha"), 99);
}

TEST_F(OrderServiceTest, KeysAreScopedPerClient)
{
    const OrderResponse fromA = place(a, "k1", kOne);
    const OrderResponse fromB = place(b, "k1", kOne);
    EXPECT_EQ(fromB.status, 201);
    EXPECT_FALSE(fromB.replayed);
    EXPECT_NE(fromB.orderId, fromA.orderId);
    EXPECT_EQ(orders(), 2);
}

TEST_F(OrderServiceTest, OutOfStockIsADefinitiveAnswerStoredAndReplayed)
{
    const OrderResponse refused =
        place(a, "k1", R"({"items":[{"product":"kniha","quantity":1},{"product":"hrnek","quantity":51}]})");
    EXPECT_EQ(refused.status, 422);
    EXPECT_EQ(refused.outcome, "out-of-stock");
    EXPECT_EQ(orders(), 0);
    EXPECT_EQ(stock("kniha"), 100) << "the partial effect of the first line is undone";
    EXPECT_EQ(keys(), 1) << "the refusal is stored";
    const OrderResponse again =
        place(a, "k1", R"({"items":[{"product":"hrnek","quantity":51},{"product":"kniha","quantity":1}]})");
    EXPECT_TRUE(again.replayed);
    EXPECT_EQ(again.status, 422);
    EXPECT_EQ(again.body, refused.body);
}

TEST_F(OrderServiceTest, BusinessKeyCatchesACartOrderedUnderAnotherKey)
{
    const std::string cart = R"({"cart_id":"cart-1","items":[{"product":"kniha","quantity":1}]})";
    const OrderResponse first = place(a, "k1", cart);
    const OrderResponse second = place(a, "k2", cart);
    EXPECT_EQ(second.status, 422);
    EXPECT_EQ(second.outcome, "cart-already-ordered");
    EXPECT_NE(second.body.find("\"order_id\":" + std::to_string(*first.orderId)), std::string::npos);
    EXPECT_EQ(orders(), 1);
    EXPECT_EQ(place(a, "k2", cart).body, second.body) << "stored and replayed";
    EXPECT_EQ(place(b, "k3", cart).status, 201) << "cart ids are per client too";
}

TEST_F(OrderServiceTest, BusinessKeyOffLetsANewKeyPerRetryDuplicate)
{
    faults.setModes(TeachingModes {false, false, false, true});
    const std::string cart = R"({"cart_id":"cart-1","items":[{"product":"kniha","quantity":1}]})";
    EXPECT_EQ(place(a, "k1", cart).status, 201);
    EXPECT_EQ(place(a, "k2", cart).status, 201);
    EXPECT_EQ(orders(), 2) << "the mistake is real";
}

TEST_F(OrderServiceTest, AnExpiredKeyCountsAsAbsent)
{
    place(a, "k1", kOne);
    clock.advanceMs(std::chrono::milliseconds(kTtl).count() - 1);
    EXPECT_TRUE(place(a, "k1", kOne).replayed);
    clock.advanceMs(1);
    const OrderResponse late = place(a, "k1", kOne);
    EXPECT_FALSE(late.replayed);
    EXPECT_EQ(late.status, 201);
    EXPECT_EQ(orders(), 2) << "a retry later than the key TTL is a new order: the client's window must be shorter";
}

TEST_F(OrderServiceTest, ReaperDeletesOnlyExpiredKeysInBatches)
{
    for (int i = 0; i < 7; ++i) {
        place(a, "old-" + std::to_string(i), kOne);
    }
    clock.advanceMs(std::chrono::milliseconds(kTtl).count() / 2);
    place(a, "young", kOne);
    clock.advanceMs(std::chrono::milliseconds(kTtl).count() / 2);
    OrderQueries reaper(store.sql());
    EXPECT_EQ(reaper.reapExpiredKeys(clock.nowMs(), 5), 5);
    EXPECT_EQ(reaper.reapExpiredKeys(clock.nowMs(), 5), 2);
    EXPECT_EQ(reaper.reapExpiredKeys(clock.nowMs(), 5), 0);
    EXPECT_EQ(keys(), 1);
    EXPECT_EQ(orders(), 8) << "orders are never reaped";
}

TEST_F(OrderServiceTest, TransientFailureRollsEverythingBackAndTheRetrySucceeds)
{
    faults.arm(ArmedFault {FaultKind::FailBeforeCommit, 1, 0, 1});
    const OrderResponse failed = place(a, "k1", kOne);
    EXPECT_EQ(failed.status, 503);
    EXPECT_EQ(failed.retryAfterSeconds, 1);
    EXPECT_EQ(keys(), 0);
    EXPECT_EQ(orders(), 0);
    EXPECT_EQ(stock("kniha"), 100);
    const OrderResponse retry = place(a, "k1", kOne);
    EXPECT_EQ(retry.status, 201);
    EXPECT_FALSE(retry.replayed);
    EXPECT_EQ(orders(), 1);
}

TEST_F(OrderServiceTest, StoringTransientFailuresLeavesTheClientStuck)
{
    faults.setModes(TeachingModes {false, false, true, false});
    faults.arm(ArmedFault {FaultKind::FailBeforeCommit, 1, 0, 1});
    EXPECT_EQ(place(a, "k1", kOne).status, 503);
    const OrderResponse retry = place(a, "k1", kOne);
    EXPECT_EQ(retry.status, 503);
    EXPECT_TRUE(retry.replayed) << "the mistake: a transient error replayed until the key expires";
    EXPECT_EQ(orders(), 0);
}

TEST_F(OrderServiceTest, UnscopedKeysLeakAnotherClientsResponse)
{
    faults.setModes(TeachingModes {false, true, false, false});
    const OrderResponse fromA = place(a, "k1", kOne);
    const OrderResponse fromB = place(b, "k1", kOne);
    EXPECT_TRUE(fromB.replayed);
    EXPECT_EQ(fromB.body, fromA.body) << "the mistake: B receives A's order";
    EXPECT_EQ(orders(), 1);
}

TEST_F(OrderServiceTest, UnavailableFaultTouchesNothing)
{
    faults.arm(ArmedFault {FaultKind::Unavailable, 2, 0, 7});
    EXPECT_EQ(place(a, "k1", kOne).retryAfterSeconds, 7);
    EXPECT_EQ(place(a, "k1", kOne).status, 503);
    EXPECT_EQ(keys(), 0);
    EXPECT_EQ(place(a, "k1", kOne).status, 201) << "armed for two requests only";
}

// The statements are prepared once per connection and reused (Connection): what one request bound or half read
// must not reach the next.
TEST_F(OrderServiceTest, AnOrderWithoutCartDoesNotInheritThePreviousOrdersCartId)
{
    ASSERT_EQ(place(a, "k1", R"({"cart_id":"cart-1","items":[{"product":"kniha","quantity":1}]})").status, 201);
    const OrderResponse plain = place(a, "k2", kOne);
    EXPECT_EQ(plain.status, 201) << plain.body;
    EXPECT_EQ(scalar("SELECT count(*) FROM orders WHERE idem_key = 'k2' AND cart_id IS NULL AND cart_key IS NULL"), 1);
}

TEST_F(OrderServiceTest, AReplayLeavesNoReadTransactionOpen)
{
    place(a, "k1", kOne);
    auto writer = store.lease(); // the replay gets the store's other connection
    EXPECT_TRUE(place(a, "k1", kOne).replayed);
    // A write, then a checkpoint: it copies every frame back only if no connection still reads an older snapshot.
    writer->exec("UPDATE products SET stock = 7 WHERE id = 'hrnek'");
    SQLite::Statement checkpoint(*writer, "PRAGMA wal_checkpoint(PASSIVE)");
    ASSERT_TRUE(checkpoint.executeStep());
    EXPECT_EQ(checkpoint.getColumn(0).getInt(), 0);
    EXPECT_EQ(checkpoint.getColumn(2).getInt(), checkpoint.getColumn(1).getInt()) << "frames checkpointed of all";
}

TEST_F(OrderServiceTest, AnExpiredKeyReusedWithAnotherPayloadIsANewOrderNotA422)
{
    place(a, "k1", kOne);
    clock.advanceMs(std::chrono::milliseconds(kTtl).count() - 1);
    EXPECT_EQ(place(a, "k1", R"({"product":"hrnek","quantity":1})").status, 422) << "still remembered";
    clock.advanceMs(1);
    const OrderResponse reused = place(a, "k1", R"({"product":"hrnek","quantity":1})");
    EXPECT_EQ(reused.status, 201) << "forgotten: the old fingerprint no longer binds the key";
    EXPECT_FALSE(reused.replayed);
    EXPECT_EQ(orders(), 2);
    EXPECT_EQ(keys(), 1) << "the expired row was replaced, not kept beside the new one";
    EXPECT_EQ(stock("hrnek"), 49);
}

namespace {

// One pooled connection, so the test can reach the very connection the service writes through.
class OrderServiceStorageErrorTest : public ::testing::Test
{
protected:
    TempDir dir;
    Store store {dir.file("server.db"), Synchronous::Full, 1};
    Faults faults;
    ManualClock clock {kStart};
    OrderService service {store.sql(), std::make_unique<TeachingLessons>(faults), clock, kTtl};
    Client a {"A", false};

    OrderResponse place(const std::string& key)
    {
        return service.placeOrder(a, key, std::get<OrderCommand>(parseOrderCommand(kOne)));
    }
    long long scalar(const std::string& sql)
    {
        auto db = store.lease();
        return db->execAndGet(sql).getInt64();
    }
};

} // namespace

TEST_F(OrderServiceStorageErrorTest, ADatabaseBusyWithAnotherWriterIsA503ThatStoresNothing)
{
    store.lease()->setBusyTimeout(0); // fail at once instead of after ten seconds
    SQLite::Database other(dir.file("server.db"), SQLite::OPEN_READWRITE);
    other.exec("BEGIN IMMEDIATE"); // another process (a second server, the sqlite3 shell) holds the write lock
    const OrderResponse busy = place("k1");
    EXPECT_EQ(busy.status, 503);
    EXPECT_EQ(busy.outcome, "transient-failure");
    EXPECT_EQ(busy.retryAfterSeconds, 1);
    EXPECT_NE(busy.body.find("/problems/transient-failure"), std::string::npos) << busy.body;
    other.exec("ROLLBACK");
    EXPECT_EQ(scalar("SELECT count(*) FROM idempotency_keys"), 0) << "the key was not consumed";
    const OrderResponse retry = place("k1");
    EXPECT_EQ(retry.status, 201) << "the retry with the same key places the order";
    EXPECT_FALSE(retry.replayed);
    EXPECT_EQ(scalar("SELECT count(*) FROM orders"), 1);
}

TEST_F(OrderServiceStorageErrorTest, AReadOnlyDatabaseIsA503AndTheKeyStaysUsable)
{
    store.lease()->exec("PRAGMA query_only = ON"); // every write fails as on a read-only file
    const OrderResponse refused = place("k1");
    EXPECT_EQ(refused.status, 503);
    EXPECT_EQ(refused.outcome, "transient-failure");
    store.lease()->exec("PRAGMA query_only = OFF");
    EXPECT_EQ(scalar("SELECT count(*) FROM idempotency_keys"), 0);
    EXPECT_EQ(place("k1").status, 201);
    EXPECT_EQ(scalar("SELECT count(*) FROM orders"), 1);
}

TEST_F(OrderServiceStorageErrorTest, ReadOnlyInCheckThenInsertModeIsA503Too)
{
    faults.setModes(TeachingModes {.checkThenInsert = true});
    store.lease()->exec("PRAGMA query_only = ON");
    EXPECT_EQ(place("k1").status, 503);
    store.lease()->exec("PRAGMA query_only = OFF");
    EXPECT_EQ(place("k1").status, 201);
    EXPECT_EQ(scalar("SELECT count(*) FROM orders"), 1);
}

namespace {

// The key-row quota (auth/KeyRowQuota) at one row a day, on the transaction of the order's own.
class OrderServiceQuotaTest : public ::testing::Test
{
protected:
    OrderServiceQuotaTest() { service.countKeyRows(quota); }

    TempDir dir;
    Store store {dir.file("server.db"), Synchronous::Full, 2};
    onceorder::test::SqliteTestBackend sqlite;
    onceorder::test::CommitLostDatabase faulty {store.sql(), sqlite};
    Faults faults;
    ManualClock clock {kStart};
    KeyRowQuota quota {1, clock};
    OrderService service {faulty, std::make_unique<TeachingLessons>(faults), clock, kTtl};
    Client a {"A", false};

    OrderResponse place(const std::string& key)
    {
        return service.placeOrder(a, key, std::get<OrderCommand>(parseOrderCommand(kOne)));
    }
    long long keys()
    {
        auto db = store.lease();
        return db->execAndGet("SELECT count(*) FROM idempotency_keys").getInt64();
    }
};

} // namespace

TEST_F(OrderServiceQuotaTest, ACommitWhoseOutcomeIsUnknownKeepsItsRowCounted)
{
    // The COMMIT took effect, but the server cannot know: the row stays counted, or the client could pass its quota.
    faulty.loseNextCommit();
    EXPECT_EQ(place("k1").status, 503);
    ASSERT_EQ(keys(), 1) << "the lost COMMIT stored the key row";
    const OrderResponse next = place("k2");
    EXPECT_EQ(next.status, 429) << next.body;
    EXPECT_EQ(keys(), 1) << "no more rows than the quota";
}

TEST_F(OrderServiceQuotaTest, ACommitThatFailedGivesItsRowBack)
{
    faulty.refuseNextCommit();
    EXPECT_EQ(place("k1").status, 503);
    ASSERT_EQ(keys(), 0) << "the refused COMMIT stored nothing";
    EXPECT_EQ(place("k2").status, 201) << "the row the refused COMMIT counted was given back";
    EXPECT_EQ(keys(), 1);
}
