// The read side on a fresh SQLite file: how many SQL statements a listing runs, counted by SQLite itself
// (sqlite3_trace_v2), so a page of orders and their lines costs the same few queries however long it is.
#include "orders/OrderQueries.h"
#include "orders/OrderService.h"
#include "storage/sqlite/Store.h"
#include "support/Http.h"
#include "support/ServerProcess.h"
#include "teaching/TeachingLessons.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

using namespace onceorder::server;
using onceorder::test::TempDir;

namespace {

class OrderQueriesTest : public ::testing::Test
{
protected:
    TempDir dir;
    // One connection, so every lease is the connection the trace is installed on.
    Store store {dir.file("server.db"), Synchronous::Normal, 1};
    Faults faults;
    ManualClock clock {1'790'000'000'000};
    OrderService service {store.sql(), std::make_unique<TeachingLessons>(faults), clock, std::chrono::seconds(3600)};
    OrderQueries queries {store.sql()};
    Client a {"A", false};
    int placed = 0;

    void place(int count)
    {
        queries.setStock("propiska", 1'000'000);
        queries.setStock("hrnek", 1'000'000);
        for (int i = 0; i < count; ++i, ++placed) {
            auto command = parseOrderCommand(
                placed % 2 ? R"({"items":[{"product":"propiska","quantity":1},{"product":"hrnek","quantity":1}]})"
                           : R"({"product":"propiska","quantity":1})");
            ASSERT_EQ(service.placeOrder(a, "k" + std::to_string(placed), std::get<OrderCommand>(command)).status, 201);
            clock.advanceMs(1);
        }
    }

    // The SQL statements `read` runs on the store's connection.
    template<typename Fn>
    int statementsRunBy(Fn&& read)
    {
        int count = 0;
        auto onStatement = [](unsigned, void* counter, void*, void*) {
            ++*static_cast<int*>(counter);
            return 0;
        };
        {
            auto db = store.lease();
            sqlite3_trace_v2(db->getHandle(), SQLITE_TRACE_STMT, onStatement, &count);
        }
        read();
        auto db = store.lease();
        sqlite3_trace_v2(db->getHandle(), 0, nullptr, nullptr);
        return count;
    }
};

} // namespace

TEST_F(OrderQueriesTest, ListingOrdersRunsTheSameNumberOfQueriesForThreeOrForThreeHundredOrders)
{
    place(3);
    std::string three;
    const int few = statementsRunBy([&] { three = queries.ordersJson("A", std::nullopt, 1000); });
    // The listing really holds the three orders (the counts below compare like with like), the two-line
    // orders with both lines.
    EXPECT_EQ(onceorder::test::countOf(three, "\"order_id\":"), 3) << three;
    EXPECT_EQ(three.rfind("[{\"order_id\":3,", 0), 0u) << three;
    EXPECT_EQ(onceorder::test::countOf(three, "\"product\":\"hrnek\""), 1) << three;
    place(297);
    std::string page;
    const int many = statementsRunBy([&] { page = queries.ordersJson("A", std::nullopt, 1000); });
    const int unlimited = statementsRunBy([&] { queries.ordersJson("A", std::nullopt, std::nullopt); });
    EXPECT_EQ(many, few);
    EXPECT_EQ(unlimited, few);
    EXPECT_LE(few, 3) << "BEGIN, the one SELECT, COMMIT";
    EXPECT_EQ(page.rfind("[{\"order_id\":300,", 0), 0u) << "newest first";
    EXPECT_EQ(onceorder::test::countOf(page, "\"order_id\":"), 300);
}

TEST_F(OrderQueriesTest, DebugStateRunsTheSameNumberOfQueriesHoweverManyRowsItLists)
{
    place(2);
    const int few = statementsRunBy([&] { queries.debugState(faults, std::nullopt); });
    place(150);
    const int many = statementsRunBy([&] { queries.debugState(faults, std::nullopt); });
    const int capped = statementsRunBy([&] { queries.debugState(faults, 10); });
    EXPECT_EQ(many, few);
    EXPECT_EQ(capped, few);
}
