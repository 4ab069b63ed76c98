// ServerMonitor against the real onceorder-server process: what the window shows (the catalogue, this client's
// orders, the debug state) arrives as typed snapshots, whichever way the refresh is asked for.
#include "server/ServerMonitor.h"
#include "net/ServerApi.h"
#include "support/Http.h"
#include "support/ServerProcess.h"

#include <QCoreApplication>
#include <QTest>
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <optional>

using namespace onceorder::core;
using namespace onceorder::test;

namespace {

class ServerMonitorTest : public ::testing::Test
{
protected:
    static void SetUpTestSuite() { s_app = std::make_unique<QCoreApplication>(s_argc, s_argv); }
    static void TearDownTestSuite() { s_app.reset(); }

    void SetUp() override
    {
        QObject::connect(&monitor, &ServerMonitor::productsReceived,
                         [this](const QList<Product>& received) { products.append(received); });
        QObject::connect(&monitor, &ServerMonitor::ordersChanged,
                         [this](const QList<ServerOrderRow>& changed) { orders.append(changed); });
        QObject::connect(&monitor, &ServerMonitor::stateChanged,
                         [this](const ServerState& changed) { state = changed; });
    }

    void placeOrder(const std::string& apiKey, const std::string& key, const std::string& product)
    {
        auto client = server.client();
        ASSERT_EQ(postOrder(*client, apiKey, key, R"({"product":")" + product + R"(","quantity":1})").status, 201);
    }

    static inline int s_argc = 1;
    static inline char s_name[] = "ServerMonitorTest";
    static inline char* s_argv[] = {s_name, nullptr};
    static inline std::unique_ptr<QCoreApplication> s_app;

    TempDir dir;
    ServerProcess server {{"--db", dir.file("server.db"), "--debug-endpoints"}};
    ServerApi api {QUrl(QString::fromStdString(server.url())), QStringLiteral("demo-key-A")};
    ServerMonitor monitor {&api};
    QList<QList<Product>> products;
    QList<QList<ServerOrderRow>> orders;
    std::optional<ServerState> state;
};

} // namespace

TEST_F(ServerMonitorTest, RefreshAllReportsTheCatalogueAndTheDebugState)
{
    monitor.refreshAll();
    ASSERT_TRUE(QTest::qWaitFor([&] { return !products.isEmpty() && state; }, 10'000));

    const QList<Product>& catalogue = products.first();
    ASSERT_EQ(catalogue.size(), 3);
    const auto kniha = std::find_if(catalogue.cbegin(), catalogue.cend(),
                                    [](const Product& product) { return product.id == u"kniha"; });
    ASSERT_NE(kniha, catalogue.cend());
    EXPECT_EQ(kniha->stock, 100);
    EXPECT_EQ(state->stock.size(), 3);
    EXPECT_TRUE(state->orders.isEmpty());
}

TEST_F(ServerMonitorTest, RefreshAllReportsOnlyThisClientsOrders)
{
    placeOrder("demo-key-A", "a-1", "kniha");
    placeOrder("demo-key-B", "b-1", "hrnek");

    monitor.refreshAll();
    ASSERT_TRUE(QTest::qWaitFor([&] { return !orders.isEmpty() && state; }, 10'000));

    ASSERT_EQ(orders.first().size(), 1);
    EXPECT_EQ(orders.first().first().items, QStringLiteral("kniha × 1"));
    EXPECT_EQ(state->orders.size(), 2); // the debug state shows every client's
}

TEST_F(ServerMonitorTest, AScheduledRefreshAsksForTheCatalogueAndTheOrders)
{
    placeOrder("demo-key-A", "a-1", "propiska");

    // A burst of outcomes asks several times; the answers still come.
    monitor.scheduleRefresh();
    monitor.scheduleRefresh();
    monitor.scheduleRefresh();
    ASSERT_TRUE(QTest::qWaitFor([&] { return !products.isEmpty() && !orders.isEmpty() && state; }, 10'000));

    EXPECT_EQ(orders.first().first().items, QStringLiteral("propiska × 1"));
    EXPECT_EQ(state->orders.size(), 1);
}
