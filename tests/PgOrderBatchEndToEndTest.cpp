// PgOrderBatchEndToEndTest: the PostgreSQL order batch (PgOrderStore's group commit) seen from outside, with
// real onceorder-server processes on a real PostgreSQL database. The orders that arrive while a batch commits run in
// the next one, each in a savepoint of its own, under one COMMIT: so every order that shares a batch with others must
// still keep its own outcome. A burst of copies of one key gives one order and identical replays; a burst of different
// keys gives one order each and takes exactly their sum from the stock; an order refused for good (out of stock) is
// stored and replayed as its own answer; an order whose statements fail (a trigger the test installs raises a
// serialization failure for it) answers 503, is not stored, and takes nobody else down; a batch whose connection dies
// (the test terminates its backend while it waits on a row the test holds) answers 503 to all its orders and stores
// none of them.
//
// Bursts are made to share batches: the test holds a product row (SELECT … FOR UPDATE) and sends one order of that
// product first, whose batch then waits on the row (seen in pg_stat_activity) while the burst queues behind it; the
// row is let go once every request of the burst has been sent. Which order lands in which batch is not observable
// from outside, so every assertion holds whatever the batches were; the gate only makes shared batches the rule.
//
// Needs PostgreSQL (PGHOST …, see support/PostgresDatabase.h); skipped without it.
#include "support/Http.h"
#include "support/PostgresDatabase.h"
#include "support/PostgresServers.h"
#include "support/ServerProcess.h"

#include <gtest/gtest.h>
#include <pqxx/pqxx>

#include <atomic>
#include <latch>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

using namespace onceorder::test;

namespace {

constexpr const char* kA = "demo-key-A";

std::string orderOf(const std::string& product, int quantity = 1)
{
    return R"({"product":")" + product + R"(","quantity":)" + std::to_string(quantity) + "}";
}

class PgOrderBatchEndToEndTest : public PostgresServersFixture
{
protected:
    PgOrderBatchEndToEndTest()
        : PostgresServersFixture(48)
    {
    }
    void TearDown() override
    {
        gate.reset();
        PostgresServersFixture::TearDown();
    }

    // A transaction of the test's own that holds `product`'s row until letGo(): FOR UPDATE (the default), or as
    // another instance's batch taking its stock holds it (`UPDATE products`: FOR NO KEY UPDATE, which an order line's
    // foreign key check does not wait for).
    struct RowHold
    {
        explicit RowHold(const std::string& uri, const std::string& product, bool asAStockUpdate = false)
            : connection(uri)
            , tx(connection)
        {
            tx.exec_params(asAStockUpdate ? "UPDATE products SET stock = stock WHERE id = $1"
                                          : "SELECT 1 FROM products WHERE id = $1 FOR UPDATE",
                           product);
        }
        void letGo()
        {
            if (!done) {
                tx.abort();
                done = true;
            }
        }
        pqxx::connection connection;
        pqxx::work tx;
        bool done = false;
    };

    // Sends `requests` (key, body) at once to `targets` (round robin), while a gate order holds a batch waiting on
    // a row the test holds; lets the row go once every request is on its way. The gate order is answered too (its
    // key "gate").
    std::map<std::string, std::vector<Reply>> burst(const std::vector<std::pair<std::string, std::string>>& requests,
                                                    const std::vector<ServerProcess*>& targets)
    {
        gate = std::make_unique<RowHold>(db->uri(), "propiska");
        std::map<std::string, std::vector<Reply>> replies;
        std::vector<Reply> answers(requests.size());
        Reply gateReply;
        std::thread gateOrder(
            [&] { gateReply = postOrder(*targets.front()->client(), kA, "gate", orderOf("propiska")); });
        EXPECT_TRUE(waitUntil([&] { return db->sessions("wait_event_type = 'Lock'") == 1; }))
            << "the gate order's batch never waited on the held row";
        std::latch sent(static_cast<std::ptrdiff_t>(requests.size()));
        std::vector<std::thread> clients;
        for (std::size_t i = 0; i < requests.size(); ++i) {
            clients.emplace_back([&, i] {
                auto http = targets[i % targets.size()]->client();
                http->set_read_timeout(std::chrono::seconds(60));
                sent.count_down();
                answers[i] = postOrder(*http, kA, requests[i].first, requests[i].second);
            });
        }
        sent.wait();
        gate->letGo();
        gateOrder.join();
        for (auto& client : clients) {
            client.join();
        }
        EXPECT_EQ(gateReply.status, 201) << gateReply.body;
        for (std::size_t i = 0; i < requests.size(); ++i) {
            replies[requests[i].first].push_back(answers[i]);
        }
        return replies;
    }

    long long scalar(const std::string& sql) const { return db->scalar(sql); }
    long long stockOf(const std::string& product) const
    {
        return db->scalar("SELECT stock FROM products WHERE id = '" + product + "'");
    }

    std::unique_ptr<RowHold> gate;
};

} // namespace

TEST_F(PgOrderBatchEndToEndTest, CopiesOfOneKeyInOneMomentGiveOneOrderAndIdenticalReplays)
{
    auto& first = startServer();
    auto& second = startServer();
    const long long before = stockOf("kniha");
    std::vector<std::pair<std::string, std::string>> requests(40, {"one-key", orderOf("kniha")});

    const auto replies = burst(requests, {&first, &second});

    const auto& copies = replies.at("one-key");
    ASSERT_EQ(copies.size(), 40u);
    int fresh = 0;
    for (const auto& reply : copies) {
        EXPECT_EQ(reply.status, 201) << reply.body;
        EXPECT_EQ(reply.body, copies.front().body) << "every copy is answered the one stored body";
        fresh += reply.replayed() ? 0 : 1;
    }
    EXPECT_EQ(fresh, 1) << "exactly one copy placed the order, the others were replays";
    EXPECT_EQ(scalar("SELECT count(*) FROM orders WHERE idem_key = 'one-key'"), 1);
    EXPECT_EQ(stockOf("kniha"), before - 1);
}

TEST_F(PgOrderBatchEndToEndTest, DifferentKeysAtOnceGiveOneOrderEachAndTakeExactlyTheirSum)
{
    auto& server = startServer();
    const long long before = stockOf("kniha");
    std::vector<std::pair<std::string, std::string>> requests;
    int sum = 0;
    for (int i = 0; i < 40; ++i) {
        const int quantity = 1 + i % 2;
        sum += quantity;
        requests.emplace_back("k" + std::to_string(i), orderOf("kniha", quantity));
    }

    const auto replies = burst(requests, {&server});

    std::set<std::string> orderIds;
    for (const auto& [key, answers] : replies) {
        ASSERT_EQ(answers.size(), 1u);
        EXPECT_EQ(answers.front().status, 201) << key << ": " << answers.front().body;
        EXPECT_FALSE(answers.front().replayed()) << key;
        orderIds.insert(answers.front().field("order_id"));
    }
    EXPECT_EQ(orderIds.size(), 40u) << "one order of its own per key";
    EXPECT_EQ(scalar("SELECT count(*) FROM orders WHERE idem_key LIKE 'k%'"), 40);
    EXPECT_EQ(scalar("SELECT count(*) FROM idempotency_keys WHERE idem_key LIKE 'k%' AND status = 'completed'"), 40);
    EXPECT_EQ(stockOf("kniha"), before - sum);
}

TEST_F(PgOrderBatchEndToEndTest, AnOrderRefusedForGoodInABatchIsStoredAsItsOwnAnswerAndTakesNobodyDown)
{
    auto& server = startServer();
    const long long knihaBefore = stockOf("kniha");
    scalar("WITH s AS (UPDATE products SET stock = 3 WHERE id = 'hrnek' RETURNING 1) SELECT count(*) FROM s");
    std::vector<std::pair<std::string, std::string>> requests;
    for (int i = 0; i < 24; ++i) {
        // Every fourth order is one of hrnek, of which only 3 are left: three of the six get it.
        requests.emplace_back("m" + std::to_string(i), orderOf(i % 4 == 0 ? "hrnek" : "kniha"));
    }

    const auto replies = burst(requests, {&server});

    int hrnekPlaced = 0;
    int hrnekRefused = 0;
    auto http = server.client();
    for (int i = 0; i < 24; ++i) {
        const std::string key = "m" + std::to_string(i);
        const Reply& reply = replies.at(key).front();
        if (i % 4 != 0) {
            EXPECT_EQ(reply.status, 201) << key << ": " << reply.body;
            continue;
        }
        if (reply.status == 201) {
            ++hrnekPlaced;
        } else {
            ++hrnekRefused;
            EXPECT_EQ(reply.status, 422) << key << ": " << reply.body;
            EXPECT_EQ(reply.problemType(), "/problems/out-of-stock") << key;
        }
        // Its own answer, stored: the retry is answered the same, byte for byte.
        const Reply again = postOrder(*http, kA, key, orderOf("hrnek"));
        EXPECT_EQ(again.status, reply.status) << key;
        EXPECT_TRUE(again.replayed()) << key;
        EXPECT_EQ(again.body, reply.body) << key;
    }
    EXPECT_EQ(hrnekPlaced, 3);
    EXPECT_EQ(hrnekRefused, 3);
    EXPECT_EQ(stockOf("hrnek"), 0);
    EXPECT_EQ(stockOf("kniha"), knihaBefore - 18);
    EXPECT_EQ(scalar("SELECT count(*) FROM orders WHERE idem_key LIKE 'm%'"), 21) << "no order row for a refusal";
    EXPECT_EQ(scalar("SELECT count(*) FROM idempotency_keys WHERE idem_key LIKE 'm%' AND status = 'completed'"), 24);
}

TEST_F(PgOrderBatchEndToEndTest, AnOrderWhoseStatementsFailInABatchAnswers503IsNotStoredAndTakesNobodyDown)
{
    auto& server = startServer();
    const long long before = stockOf("kniha");
    // The orders of keys "poison…" fail inside the server's transaction, after their key and stock were written, as a
    // serialization failure (a transient failure: 503, retry).
    scalar("CREATE FUNCTION poison() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
           "IF NEW.idem_key LIKE 'poison%' THEN RAISE EXCEPTION 'poisoned' USING ERRCODE = '40001'; END IF; "
           "RETURN NEW; END $$; "
           "CREATE TRIGGER poison AFTER INSERT ON orders FOR EACH ROW EXECUTE FUNCTION poison(); SELECT 1");
    std::vector<std::pair<std::string, std::string>> requests;
    for (int i = 0; i < 24; ++i) {
        requests.emplace_back((i % 3 == 1 ? "poison" : "p") + std::to_string(i), orderOf("kniha"));
    }

    const auto replies = burst(requests, {&server});

    int placed = 0;
    for (const auto& [key, answers] : replies) {
        const Reply& reply = answers.front();
        if (key.rfind("poison", 0) == 0) {
            EXPECT_EQ(reply.status, 503) << key << ": " << reply.body;
            EXPECT_FALSE(reply.header("Retry-After").empty()) << key;
        } else {
            EXPECT_EQ(reply.status, 201) << key << ": " << reply.body;
            EXPECT_FALSE(reply.replayed()) << key;
            ++placed;
        }
    }
    EXPECT_EQ(placed, 16);
    EXPECT_EQ(scalar("SELECT count(*) FROM orders WHERE idem_key LIKE 'p%' AND idem_key NOT LIKE 'poison%'"), 16);
    EXPECT_EQ(scalar("SELECT count(*) FROM idempotency_keys WHERE idem_key LIKE 'poison%'"), 0) << "nothing stored";
    EXPECT_EQ(stockOf("kniha"), before - 16) << "the failed orders' stock given back";

    // Not stored: once the cause is gone, each retry places its order for the first time.
    scalar("DROP TRIGGER poison ON orders; SELECT 1");
    auto http = server.client();
    for (const auto& [key, answers] : replies) {
        if (key.rfind("poison", 0) == 0) {
            const Reply retry = postOrder(*http, kA, key, orderOf("kniha"));
            EXPECT_EQ(retry.status, 201) << key << ": " << retry.body;
            EXPECT_FALSE(retry.replayed()) << key;
        }
    }
    EXPECT_EQ(stockOf("kniha"), before - 24);
}

TEST_F(PgOrderBatchEndToEndTest, AnOrderThatFailsOutsideTheDatabaseInABatchKeepsNoneOfItsWritesAndTakesNobodyDown)
{
    auto& server = startServer();
    const long long before = stockOf("kniha");
    // For the keys "vanish…" the database silently skips every write that would complete the key row (a trigger that
    // returns NULL): the server finds its key row unchanged, "vanished", after it wrote the key, the order and its
    // stock, and fails the order with a failure of its own (a TransientFailure, no database error). Its savepoint
    // must be rolled back all the same, or its writes commit with the batch.
    scalar("CREATE FUNCTION vanish() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
           "IF NEW.idem_key LIKE 'vanish%' AND NEW.status = 'completed' THEN RETURN NULL; END IF; "
           "RETURN NEW; END $$; "
           "CREATE TRIGGER vanish BEFORE INSERT OR UPDATE ON idempotency_keys FOR EACH ROW EXECUTE FUNCTION vanish(); "
           "SELECT 1");
    std::vector<std::pair<std::string, std::string>> requests;
    for (int i = 0; i < 24; ++i) {
        requests.emplace_back((i % 3 == 1 ? "vanish" : "v") + std::to_string(i), orderOf("kniha"));
    }

    const auto replies = burst(requests, {&server});

    int placed = 0;
    for (const auto& [key, answers] : replies) {
        const Reply& reply = answers.front();
        if (key.rfind("vanish", 0) == 0) {
            EXPECT_EQ(reply.status, 503) << key << ": " << reply.body;
            EXPECT_FALSE(reply.header("Retry-After").empty()) << key;
        } else {
            EXPECT_EQ(reply.status, 201) << key << ": " << reply.body;
            ++placed;
        }
    }
    EXPECT_EQ(placed, 16);
    EXPECT_EQ(scalar("SELECT count(*) FROM idempotency_keys WHERE idem_key LIKE 'vanish%'"), 0) << "no key row kept";
    EXPECT_EQ(scalar("SELECT count(*) FROM orders WHERE idem_key LIKE 'vanish%'"), 0) << "no order row kept";
    EXPECT_EQ(stockOf("kniha"), before - 16) << "the failed orders' stock given back";

    // Nothing of them stayed: once the cause is gone, each retry places its order for the first time.
    scalar("DROP TRIGGER vanish ON idempotency_keys; SELECT 1");
    auto http = server.client();
    for (const auto& [key, answers] : replies) {
        if (key.rfind("vanish", 0) == 0) {
            const Reply retry = postOrder(*http, kA, key, orderOf("kniha"));
            EXPECT_EQ(retry.status, 201) << key << ": " << retry.body;
            EXPECT_FALSE(retry.replayed()) << key;
        }
    }
    EXPECT_EQ(stockOf("kniha"), before - 24);
}

TEST_F(PgOrderBatchEndToEndTest, ABatchWhoseConnectionDiesAnswers503ToAllItsOrdersAndStoresNone)
{
    auto& server = startServer();
    const long long before = stockOf("propiska");
    RowHold hold(db->uri(), "propiska");
    // Every order is one of propiska, whose row the test holds: every batch waits on it at its first order (after
    // writing that order's key), and the test terminates the waiting backend, batch after batch.
    constexpr int kOrders = 12;
    std::vector<Reply> answers(kOrders);
    std::atomic<int> answered {0};
    std::vector<std::thread> clients;
    for (int i = 0; i < kOrders; ++i) {
        clients.emplace_back([&, i] {
            auto http = server.client();
            http->set_read_timeout(std::chrono::seconds(60));
            answers[i] = postOrder(*http, kA, "t" + std::to_string(i), orderOf("propiska"));
            ++answered;
        });
    }
    int terminated = 0;
    while (answered < kOrders) {
        const bool waiting =
            waitUntil([&] { return answered == kOrders || db->sessions("wait_event_type = 'Lock'") > 0; });
        ASSERT_TRUE(waiting) << "no batch waited on the held row and not every order was answered";
        const std::string pids = db->text(
            "SELECT coalesce(string_agg(pid::text, ','), '') FROM pg_stat_activity WHERE datname = current_database() "
            "AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()");
        if (pids.empty()) {
            continue; // every order answered meanwhile
        }
        terminated += static_cast<int>(
            scalar("SELECT count(*) FROM unnest(ARRAY[" + pids + "]) AS p WHERE pg_terminate_backend(p)"));
        // Until PostgreSQL shows a terminated backend gone, it would count as waiting again.
        EXPECT_TRUE(waitUntil([&] { return db->sessions("pid IN (" + pids + ")") == 0; }));
    }
    for (auto& client : clients) {
        client.join();
    }
    EXPECT_GE(terminated, 1);
    for (int i = 0; i < kOrders; ++i) {
        EXPECT_EQ(answers[i].status, 503) << i << ": " << answers[i].body;
        EXPECT_FALSE(answers[i].header("Retry-After").empty()) << i;
    }
    hold.letGo();
    EXPECT_EQ(scalar("SELECT count(*) FROM orders"), 0) << "nothing of a failed batch is stored";
    EXPECT_EQ(scalar("SELECT count(*) FROM idempotency_keys"), 0);
    EXPECT_EQ(stockOf("propiska"), before);

    // Each retry places its order for the first time.
    auto http = server.client();
    for (int i = 0; i < kOrders; ++i) {
        const Reply retry = postOrder(*http, kA, "t" + std::to_string(i), orderOf("propiska"));
        EXPECT_EQ(retry.status, 201) << i << ": " << retry.body;
        EXPECT_FALSE(retry.replayed()) << i;
    }
    EXPECT_EQ(stockOf("propiska"), before - kOrders);
}

// Behind a transaction pooler the statements go unnamed (--db-prepare off): the batch is the same batch.
TEST_F(PgOrderBatchEndToEndTest, WithUnnamedStatementsTheBatchKeepsEveryOutcome)
{
    auto& server = startServer({"--db-prepare", "off"});
    const long long before = stockOf("kniha");
    scalar("WITH s AS (UPDATE products SET stock = 2 WHERE id = 'hrnek' RETURNING 1) SELECT count(*) FROM s");
    std::vector<std::pair<std::string, std::string>> requests;
    for (int i = 0; i < 20; ++i) {
        requests.emplace_back("u" + std::to_string(i), orderOf(i % 5 == 0 ? "hrnek" : "kniha"));
    }

    const auto replies = burst(requests, {&server});

    int created = 0;
    int refused = 0;
    for (const auto& [key, answers] : replies) {
        const Reply& reply = answers.front();
        created += reply.status == 201 ? 1 : 0;
        refused += reply.status == 422 ? 1 : 0;
    }
    EXPECT_EQ(created, 18);
    EXPECT_EQ(refused, 2) << "two of the four hrnek orders found no stock";
    EXPECT_EQ(stockOf("kniha"), before - 16);
    EXPECT_EQ(stockOf("hrnek"), 0);
    EXPECT_EQ(scalar("SELECT count(*) FROM orders WHERE idem_key LIKE 'u%'"), 18);
}

// A plain new order in a batch is one statement after its key (SqlDialect::placeOrderAtOnce); a cart already ordered
// is undone and answered by the steps one by one, and an order of several lines takes every line's stock and stores
// every line.
TEST_F(PgOrderBatchEndToEndTest, KeysForOneCartAndOrdersOfSeveralLinesInOneBurstKeepOneOrderPerCartAndEveryLine)
{
    auto& server = startServer();
    const long long knihaBefore = stockOf("kniha");
    const long long hrnekBefore = stockOf("hrnek");
    const std::string cart = R"({"cart_id":"cart-b","items":[{"product":"kniha","quantity":1}]})";
    const std::string twoLines = R"({"items":[{"product":"kniha","quantity":2},{"product":"hrnek","quantity":1}]})";
    std::vector<std::pair<std::string, std::string>> requests;
    for (int i = 0; i < 6; ++i) {
        requests.emplace_back("c" + std::to_string(i), cart);
        requests.emplace_back("l" + std::to_string(i), twoLines);
    }

    const auto replies = burst(requests, {&server});

    auto http = server.client();
    std::optional<std::string> cartOrder;
    int refused = 0;
    for (int i = 0; i < 6; ++i) {
        const std::string key = "c" + std::to_string(i);
        const Reply& reply = replies.at(key).front();
        if (reply.status == 201) {
            EXPECT_FALSE(cartOrder) << "a second order for one cart: " << reply.body;
            cartOrder = reply.field("order_id");
        } else {
            ++refused;
            EXPECT_EQ(reply.status, 422) << key << ": " << reply.body;
            EXPECT_EQ(reply.problemType(), "/problems/cart-already-ordered") << key;
        }
        const Reply again = postOrder(*http, kA, key, cart);
        EXPECT_EQ(again.status, reply.status) << key;
        EXPECT_TRUE(again.replayed()) << key;
        EXPECT_EQ(again.body, reply.body) << key;
    }
    ASSERT_TRUE(cartOrder);
    EXPECT_EQ(refused, 5);
    for (int i = 0; i < 6; ++i) {
        const std::string key = "c" + std::to_string(i);
        if (replies.at(key).front().status != 201) {
            EXPECT_EQ(replies.at(key).front().field("order_id"), *cartOrder) << key << " names the cart's order";
        }
        const std::string lines = "l" + std::to_string(i);
        const Reply& reply = replies.at(lines).front();
        EXPECT_EQ(reply.status, 201) << lines << ": " << reply.body;
        const Reply again = postOrder(*http, kA, lines, twoLines);
        EXPECT_TRUE(again.replayed()) << lines;
        EXPECT_EQ(again.body, reply.body) << lines;
    }
    EXPECT_EQ(scalar("SELECT count(*) FROM orders WHERE cart_id = 'cart-b'"), 1);
    EXPECT_EQ(scalar("SELECT count(*) FROM orders WHERE idem_key LIKE 'l%'"), 6);
    EXPECT_EQ(scalar("SELECT count(*) FROM order_lines AS l JOIN orders AS o ON o.id = l.order_id "
                     "WHERE o.idem_key LIKE 'l%'"),
              12);
    EXPECT_EQ(scalar("SELECT count(*) FROM idempotency_keys WHERE idem_key ~ '^[cl][0-9]$' AND status = 'completed' "
                     "AND locked_at IS NULL"),
              12);
    EXPECT_EQ(stockOf("kniha"), knihaBefore - 1 - 12);
    EXPECT_EQ(stockOf("hrnek"), hrnekBefore - 6);
}

TEST_F(PgOrderBatchEndToEndTest, ARequestWorkerIsFreeWhileItsOrdersBatchWaitsToCommit)
{
    // Issue 31: a request worker used to wait for its order's batch; with one worker, an order whose batch waits on
    // a row (another instance's batch, a long lock) kept every other request of the instance unanswered. The batch
    // answers from a thread of its own now: the one worker serves the next request meanwhile.
    auto& server = startServer({"--threads", "1"});
    gate = std::make_unique<RowHold>(db->uri(), "kniha");
    Reply held;
    std::thread order([&] {
        auto http = server.client();
        http->set_read_timeout(std::chrono::seconds(60));
        held = postOrder(*http, kA, "held-by-the-row", orderOf("kniha"));
    });
    ASSERT_TRUE(waitUntil([&] { return db->sessions("wait_event_type = 'Lock'") == 1; }))
        << "the order's batch never waited on the held row";

    auto http = server.client();
    http->set_read_timeout(std::chrono::seconds(10));
    const Reply products = get(*http, "/products");
    EXPECT_EQ(products.status, 200) << "the one worker was still waiting for the batch";
    EXPECT_EQ(get(*http, "/orders", kA).status, 200) << "and the next";
    EXPECT_EQ(held.status, 0) << "answered before its row came free";

    gate->letGo();
    order.join();
    EXPECT_EQ(held.status, 201) << held.body;
    EXPECT_EQ(scalar("SELECT count(*) FROM orders"), 1);
}

TEST_F(PgOrderBatchEndToEndTest, ABatchWritesItsKeysAndOrdersBeforeItTakesTheirStock)
{
    // Issue 31: every order takes stock from its product's row, and PostgreSQL holds that row from the UPDATE to the
    // COMMIT. A batch used to take each order's stock first, so the next batch of that product (another instance's)
    // waited from its first order on, its claims and order rows included. The batch now writes its key rows, orders
    // and stored answers first and takes the stock of all its orders in one UPDATE just before COMMIT: seen here as
    // the batch waiting on a held product row in `UPDATE products` while it already holds what it wrote in `orders`.
    auto& server = startServer();
    gate = std::make_unique<RowHold>(db->uri(), "kniha", true);
    const long long before = stockOf("kniha");
    Reply held;
    std::thread order([&] {
        auto http = server.client();
        http->set_read_timeout(std::chrono::seconds(60));
        held = postOrder(*http, kA, "stock-last", orderOf("kniha", 2));
    });
    ASSERT_TRUE(waitUntil([&] { return db->sessions("wait_event_type = 'Lock'") == 1; }))
        << "the order's batch never waited on the held row";
    EXPECT_EQ(db->sessions("wait_event_type = 'Lock' AND query LIKE 'UPDATE products%'"), 1)
        << "the batch waits in UPDATE products (the window's dock and the conditional-update lesson look for it)";
    EXPECT_EQ(scalar("SELECT count(*) FROM pg_locks AS l JOIN pg_stat_activity AS a ON a.pid = l.pid "
                     "WHERE a.datname = current_database() AND a.wait_event_type = 'Lock' AND l.granted "
                     "AND l.mode = 'RowExclusiveLock' AND l.relation IN ('orders'::regclass, "
                     "'order_lines'::regclass, 'idempotency_keys'::regclass)"),
              3)
        << "the waiting batch had not written its key row, order and lines yet: it took the stock first";

    gate->letGo();
    order.join();
    EXPECT_EQ(held.status, 201) << held.body;
    EXPECT_EQ(stockOf("kniha"), before - 2);
    EXPECT_EQ(scalar("SELECT count(*) FROM order_lines"), 1);
}

TEST_F(PgOrderBatchEndToEndTest, PlainNewOrdersAreWrittenInTheBatchsFirstPassAndLeaveNoGapInTheOrderIds)
{
    // A plain new order is one statement (SqlDialect::claimAndPlaceAtOnce) that takes its order id from the orders'
    // identity ahead. A statement that failed every time (its key row's foreign key checked before the order is
    // there, say) would still answer 201 from the batch's second pass, but every order would have drawn two ids:
    // the ids of orders placed one after another show which pass wrote them.
    auto& server = startServer();
    auto http = server.client();
    for (int i = 1; i <= 5; ++i) {
        const Reply placed = postOrder(*http, kA, "in-order-" + std::to_string(i), orderOf("kniha"));
        ASSERT_EQ(placed.status, 201) << placed.body;
        EXPECT_NE(placed.body.find(R"("order_id":)" + std::to_string(i) + ","), std::string::npos) << placed.body;
    }
    EXPECT_EQ(scalar("SELECT max(id) FROM orders"), 5);
    EXPECT_EQ(scalar("SELECT count(*) FROM idempotency_keys WHERE status = 'completed' AND order_id IS NOT NULL"), 5);
}
