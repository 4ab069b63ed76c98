// POST /_debug/replication on the real server: a standby file beside the database, shipped to synchronously (before
// the 201) or asynchronously (later; held while paused), and a failover (the primary killed with SIGKILL, a new server
// started on the standby's file) that keeps or loses the acknowledged order and its key accordingly.
#include "support/Http.h"
#include "support/ServerProcess.h"

#include <gtest/gtest.h>

#include <filesystem>

using namespace onceorder::test;

namespace {

const std::string kBook = R"({"product":"kniha","quantity":1})";

// The state's "replication" object, as a Reply whose field() reads its members.
Reply replicationOf(httplib::Client& client)
{
    const Reply state = get(client, "/_debug/state");
    Reply replication;
    replication.status = state.status;
    const auto at = state.body.find("\"replication\":{");
    if (at != std::string::npos) {
        replication.body = state.body.substr(at, state.body.find('}', at) - at + 1);
    }
    return replication;
}

class ReplicationTest : public ::testing::Test
{
protected:
    std::string db() const { return dir.file("primary.db"); }
    std::string standby() const { return db() + ".standby"; }

    // The primary, killed as abruptly as a machine losing power, and a server started on the standby's file.
    std::unique_ptr<ServerProcess> failover(ServerProcess& primary)
    {
        primary.kill();
        return std::make_unique<ServerProcess>(std::vector<std::string> {"--debug-endpoints", "--db", standby()});
    }

    TempDir dir;
};

} // namespace

TEST_F(ReplicationTest, AsynchronousHeldBackLosesTheAcknowledgedOrderAndItsKeyAtFailover)
{
    ServerProcess primary({"--debug-endpoints", "--db", db()});
    httplib::Client client(primary.url());
    const Reply on = postJson(client, "/_debug/replication", R"({"mode":"async","paused":true})");
    ASSERT_EQ(on.status, 200) << on.body;
    EXPECT_EQ(on.field("mode"), "async");
    EXPECT_EQ(on.field("standby"), standby());
    EXPECT_EQ(on.field("behind"), "0");
    EXPECT_TRUE(std::filesystem::exists(standby())) << "the base backup";

    const Reply placed = postOrder(client, "demo-key-A", "k1", kBook);
    ASSERT_EQ(placed.status, 201) << placed.body;
    EXPECT_EQ(placed.field("order_id"), "1");
    const Reply held = replicationOf(client);
    ASSERT_FALSE(held.body.empty()) << "the state names the standby";
    EXPECT_GE(std::stoi(held.field("behind")), 1) << held.body;
    EXPECT_EQ(held.field("shipped"), "0") << held.body;

    auto promoted = failover(primary);
    httplib::Client after(promoted->url());
    EXPECT_EQ(get(after, "/orders/1", "demo-key-A").status, 404) << "the acknowledged order is gone";
    const Reply retry = postOrder(after, "demo-key-A", "k1", kBook);
    EXPECT_EQ(retry.status, 201) << retry.body;
    EXPECT_FALSE(retry.replayed()) << "the key went with the order: the retry places a new one";
}

TEST_F(ReplicationTest, SynchronousKeepsEveryAcknowledgedOrderAndTheRetryIsAReplay)
{
    ServerProcess primary({"--debug-endpoints", "--db", db()});
    httplib::Client client(primary.url());
    ASSERT_EQ(postJson(client, "/_debug/replication", R"({"mode":"sync"})").status, 200);
    for (const std::string key : {"s1", "s2", "s3"}) {
        ASSERT_EQ(postOrder(client, "demo-key-A", key, kBook).status, 201);
    }
    const Reply shipped = replicationOf(client);
    EXPECT_EQ(shipped.field("mode"), "sync");
    EXPECT_EQ(shipped.field("behind"), "0") << shipped.body;
    EXPECT_GE(std::stoi(shipped.field("shipped")), 3) << shipped.body;

    auto promoted = failover(primary);
    httplib::Client after(promoted->url());
    for (const std::string id : {"1", "2", "3"}) {
        EXPECT_EQ(get(after, "/orders/" + id, "demo-key-A").status, 200) << "order " << id;
    }
    const Reply retry = postOrder(after, "demo-key-A", "s3", kBook);
    EXPECT_EQ(retry.status, 201);
    EXPECT_TRUE(retry.replayed());
    EXPECT_EQ(retry.field("order_id"), "3");
}

TEST_F(ReplicationTest, ReleasedShipperCatchesUpAndSwitchingToSyncShipsWhatIsBehind)
{
    ServerProcess primary({"--debug-endpoints", "--db", db()});
    httplib::Client client(primary.url());
    ASSERT_EQ(postJson(client, "/_debug/replication", R"({"mode":"async","paused":true})").status, 200);
    ASSERT_EQ(postOrder(client, "demo-key-A", "a1", kBook).status, 201);
    ASSERT_GE(std::stoi(replicationOf(client).field("behind")), 1);

    const Reply released = postJson(client, "/_debug/replication", R"({"mode":"async"})");
    ASSERT_EQ(released.status, 200) << released.body;
    EXPECT_NE(released.body.find("\"paused\":false"), std::string::npos) << released.body;
    EXPECT_TRUE(waitUntil([&] { return replicationOf(client).field("behind") == "0"; })) << replicationOf(client).body;

    ASSERT_EQ(postJson(client, "/_debug/replication", R"({"mode":"async","paused":true})").status, 200);
    ASSERT_EQ(postOrder(client, "demo-key-A", "a2", kBook).status, 201);
    const Reply sync = postJson(client, "/_debug/replication", R"({"mode":"sync"})");
    EXPECT_EQ(sync.field("behind"), "0") << "switching to sync ships what was behind first: " << sync.body;

    auto promoted = failover(primary);
    httplib::Client after(promoted->url());
    EXPECT_EQ(get(after, "/orders/1", "demo-key-A").status, 200);
    EXPECT_EQ(get(after, "/orders/2", "demo-key-A").status, 200);
}

TEST_F(ReplicationTest, OffShipsNothingAfterwards)
{
    ServerProcess primary({"--debug-endpoints", "--db", db()});
    httplib::Client client(primary.url());
    ASSERT_EQ(postJson(client, "/_debug/replication", R"({"mode":"sync"})").status, 200);
    ASSERT_EQ(postOrder(client, "demo-key-A", "o1", kBook).status, 201);
    const Reply off = postJson(client, "/_debug/replication", R"({"mode":"off"})");
    EXPECT_EQ(off.field("mode"), "off");
    ASSERT_EQ(postOrder(client, "demo-key-A", "o2", kBook).status, 201);

    auto promoted = failover(primary);
    httplib::Client after(promoted->url());
    EXPECT_EQ(get(after, "/orders/1", "demo-key-A").status, 200);
    EXPECT_EQ(get(after, "/orders/2", "demo-key-A").status, 404);
}

TEST_F(ReplicationTest, SettingsItDoesNotUnderstandAreRefusedAndChangeNothing)
{
    ServerProcess primary({"--debug-endpoints", "--db", db()});
    httplib::Client client(primary.url());
    for (const std::string body : {R"({"mode":"semi"})", R"({"mode":"sync","paused":true})", R"({"paused":true})",
                                   R"({"mode":true})", R"({"mode":"sync","lag_ms":5})", "[]"}) {
        const Reply refused = postJson(client, "/_debug/replication", body);
        EXPECT_EQ(refused.status, 400) << body;
        EXPECT_EQ(refused.problemType(), "/problems/invalid-replication") << body << " → " << refused.body;
    }
    EXPECT_EQ(postJson(client, "/_debug/replication", "{").problemType(), "/problems/malformed-json");
    EXPECT_EQ(toReply(client.Post("/_debug/replication", R"({"mode":"sync"})", "text/plain")).status, 415);
    EXPECT_EQ(replicationOf(client).field("mode"), "off");
    EXPECT_FALSE(std::filesystem::exists(standby()));
}

TEST_F(ReplicationTest, AStandbyThatCannotBeWrittenIsA503AndReplicationStaysOff)
{
    std::filesystem::create_directory(standby()); // a folder where the standby's file would go
    ServerProcess primary({"--debug-endpoints", "--db", db()});
    httplib::Client client(primary.url());
    const Reply refused = postJson(client, "/_debug/replication", R"({"mode":"sync"})");
    EXPECT_EQ(refused.status, 503) << refused.body;
    EXPECT_EQ(refused.problemType(), "/problems/database-unavailable");
    EXPECT_EQ(replicationOf(client).field("mode"), "off");
    EXPECT_EQ(postOrder(client, "demo-key-A", "d1", kBook).status, 201) << "the primary serves on";
}

TEST(ReplicationWithoutAFileTest, AnInMemoryDatabaseHasNoStandby)
{
    ServerProcess server({"--debug-endpoints", "--db", ":memory:"});
    httplib::Client client(server.url());
    const Reply refused = postJson(client, "/_debug/replication", R"({"mode":"sync"})");
    EXPECT_EQ(refused.status, 404);
    EXPECT_EQ(refused.problemType(), "/problems/not-found");
    EXPECT_EQ(get(client, "/_debug/state").body.find("\"replication\""), std::string::npos);
}

TEST(ReplicationWithoutAFileTest, WithoutDebugEndpointsTheRouteIsNotThere)
{
    TempDir dir;
    ServerProcess server({"--db", dir.file("plain.db")});
    httplib::Client client(server.url());
    EXPECT_EQ(postJson(client, "/_debug/replication", R"({"mode":"sync"})").status, 404);
    EXPECT_FALSE(std::filesystem::exists(dir.file("plain.db.standby")));
}
