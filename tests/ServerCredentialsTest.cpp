// ServerCredentialsTest: API keys as SPEC §3 has them (issue 30). Keys are stored only as hashes (databases written
// before are converted at start, on SQLite and on PostgreSQL); the published demo keys are the default on loopback
// only: a server listening beyond it refuses a database that holds them unless told so, and its operator key is
// always a generated one, printed once; `onceorder-server clients add NAME` issues a client's key.
#include "auth/ApiKeys.h"
#include "auth/ClientKeys.h"
#include "support/PostgresDatabase.h"
#include "support/ServerCommand.h"
#include "support/ServerProcess.h"

#include <SQLiteCpp/Database.h>
#include <gtest/gtest.h>
#include <httplib.h>

#include <arpa/inet.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <regex>
#include <set>
#include <string>

using onceorder::test::CommandRun;
using onceorder::test::runServerCommand;
using onceorder::test::ServerProcess;
using onceorder::test::TempDir;
using onceorder::test::TestDatabase;
namespace apikeys = onceorder::server::apikeys;
using onceorder::server::Client;
using onceorder::server::ClientKeys;

namespace {

int putStock(const ServerProcess& server, const std::string& key)
{
    auto http = server.client();
    const auto result =
        http->Put("/products/kniha/stock", {{"Authorization", "Bearer " + key}}, R"({"stock":42})", "application/json");
    return result ? result->status : 0;
}

int getOrders(const ServerProcess& server, const std::string& key)
{
    auto http = server.client();
    const auto result = http->Get("/orders", {{"Authorization", "Bearer " + key}});
    return result ? result->status : 0;
}

std::string readFile(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

// The operator key a server printed on its stderr (its log file), or "".
std::string operatorKeyIn(const std::string& log)
{
    std::smatch found;
    const std::string text = readFile(log);
    return std::regex_search(text, found, std::regex(R"(operator key \(shown only now[^)]*\): (oo_[A-Za-z0-9_-]+))"))
        ? found[1].str()
        : std::string();
}

const std::vector<std::string> kEverywhere {"--listen", "0.0.0.0:0"};

// The first IPv4 address of this machine that is up and not loopback, or "" if there is none: a connection to it
// from here reaches the server from an address beyond loopback.
std::string outsideAddress()
{
    ifaddrs* all = nullptr;
    if (getifaddrs(&all) != 0) {
        return {};
    }
    std::string found;
    for (const ifaddrs* at = all; at && found.empty(); at = at->ifa_next) {
        if (at->ifa_addr && at->ifa_addr->sa_family == AF_INET && (at->ifa_flags & IFF_UP) &&
            !(at->ifa_flags & IFF_LOOPBACK)) {
            char text[INET_ADDRSTRLEN] = {};
            const auto* address = reinterpret_cast<const sockaddr_in*>(at->ifa_addr);
            if (inet_ntop(AF_INET, &address->sin_addr, text, sizeof text)) {
                found = text;
            }
        }
    }
    freeifaddrs(all);
    return found;
}

} // namespace

TEST(ApiKeysTest, KeysAreHashedGeneratedAtRandomAndComparedWhole)
{
    EXPECT_EQ(apikeys::hash("demo-key-A"), "sha256:ccf9fda3d105e856141ad20a07296f98d7ca6b816ef8dfb35f9d027ad886133d");
    EXPECT_TRUE(apikeys::isHash(apikeys::hash("x")));
    EXPECT_FALSE(apikeys::isHash("demo-key-A"));
    EXPECT_TRUE(apikeys::isPublished(apikeys::hash("demo-key-admin")));
    EXPECT_FALSE(apikeys::isPublished(apikeys::hash("demo-key-C")));
    std::set<std::string> keys;
    for (int i = 0; i < 100; ++i) {
        const std::string key = apikeys::generate();
        EXPECT_TRUE(std::regex_match(key, std::regex("oo_[A-Za-z0-9_-]{43}"))) << key;
        keys.insert(key);
    }
    EXPECT_EQ(keys.size(), 100u);
    EXPECT_TRUE(apikeys::constantTimeEquals("abc", "abc"));
    EXPECT_FALSE(apikeys::constantTimeEquals("abc", "abd"));
    EXPECT_FALSE(apikeys::constantTimeEquals("abc", "abcd"));

    ClientKeys clients;
    clients.add(apikeys::hash("demo-key-A"), Client {"A", false});
    clients.add(apikeys::hash("demo-key-admin"), Client {"admin", true});
    clients.add(apikeys::hash("own-operator"), Client {"ops", true});
    EXPECT_EQ(clients.find("demo-key-A")->id, "A");
    EXPECT_FALSE(clients.find("demo-key-a"));
    EXPECT_FALSE(clients.find(apikeys::hash("demo-key-A"))) << "the hash is no key";
    EXPECT_TRUE(clients.holdsPublishedKeys());
    clients.refusePublishedOperatorKey();
    EXPECT_FALSE(clients.find("demo-key-admin"));
    EXPECT_EQ(clients.find("own-operator")->id, "ops");
    EXPECT_EQ(clients.find("demo-key-A")->id, "A") << "only the operator's published key is refused";
}

TEST(ServerCredentialsTest, KeysStoredInClearByAnOlderServerAreHashedAtStart)
{
    TempDir dir;
    const std::string db = dir.file("old.db");
    {
        SQLite::Database old(db, SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE);
        old.exec("CREATE TABLE clients (id TEXT PRIMARY KEY, api_key TEXT NOT NULL UNIQUE, role TEXT NOT NULL "
                 "CHECK (role IN ('client', 'operator')));"
                 "INSERT INTO clients VALUES ('A', 'demo-key-A', 'client'), ('B', 'demo-key-B', 'client'), "
                 "('admin', 'demo-key-admin', 'operator'), ('shop', 'a-key-of-the-shop', 'client')");
    }
    ServerProcess server({"--db", db});
    EXPECT_EQ(getOrders(server, "a-key-of-the-shop"), 200);
    EXPECT_EQ(getOrders(server, "demo-key-B"), 200);
    EXPECT_EQ(putStock(server, "demo-key-admin"), 200);
    EXPECT_EQ(getOrders(server, "sha256:" + std::string(64, '0')), 401);
    EXPECT_EQ(server.stop(), 0);
    SQLite::Database converted(db);
    EXPECT_EQ(converted.execAndGet("SELECT count(*) FROM clients WHERE key_hash LIKE 'sha256:%'").getInt(), 4);
    EXPECT_EQ(converted.execAndGet("SELECT count(*) FROM client_limits").getInt(), 0)
        << "an old file gets client_limits (issue 38), empty: its clients keep the server's defaults";
    EXPECT_EQ(converted.execAndGet("SELECT key_hash FROM clients WHERE id = 'shop'").getString(),
              apikeys::hash("a-key-of-the-shop"));
}

TEST(ServerCredentialsTest, KeysStoredInClearInPostgresAreHashedAtStart)
{
    ONCEORDER_REQUIRE_POSTGRES_OR_SKIP();
    TestDatabase database;
    {
        pqxx::connection connection(database.uri());
        pqxx::nontransaction tx(connection);
        tx.exec0("CREATE TABLE clients (id TEXT PRIMARY KEY, api_key TEXT NOT NULL UNIQUE, role TEXT NOT NULL "
                 "CHECK (role IN ('client', 'operator')));"
                 "INSERT INTO clients VALUES ('A', 'demo-key-A', 'client'), ('admin', 'demo-key-admin', 'operator'), "
                 "('shop', 'a-key-of-the-shop', 'client')");
    }
    ServerProcess server({"--db", database.uri()});
    EXPECT_EQ(getOrders(server, "a-key-of-the-shop"), 200);
    EXPECT_EQ(putStock(server, "demo-key-admin"), 200);
    EXPECT_EQ(server.stop(), 0);
    EXPECT_EQ(database.text("SELECT key_hash FROM clients WHERE id = 'shop'"), apikeys::hash("a-key-of-the-shop"));
    EXPECT_EQ(database.scalar("SELECT count(*) FROM clients WHERE key_hash NOT LIKE 'sha256:%'"), 0);
}

TEST(ServerCredentialsTest, BeyondLoopbackADatabaseWithThePublishedKeysIsRefused)
{
    TempDir dir;
    const std::string db = dir.file("server.db");
    {
        ServerProcess loopback({"--db", db}); // the demo keys, as the window and the lesson need them
        EXPECT_EQ(getOrders(loopback, "demo-key-A"), 200);
    }
    std::vector<std::string> args = kEverywhere;
    args.insert(args.end(), {"--db", db});
    EXPECT_THROW(ServerProcess everywhere(args), std::runtime_error) << "it must not start";
    const CommandRun refused = runServerCommand("--listen 0.0.0.0:0 --db " + db + " 2>&1");
    EXPECT_NE(refused.status, 0);
    EXPECT_NE(refused.out.find("published demo keys"), std::string::npos) << refused.out;
    EXPECT_NE(refused.out.find("--allow-demo-keys"), std::string::npos) << refused.out;
}

TEST(ServerCredentialsTest, BeyondLoopbackTheOperatorKeyIsGeneratedPrintedOnceAndKept)
{
    TempDir dir;
    const std::string db = dir.file("server.db");
    std::vector<std::string> args = kEverywhere;
    args.insert(args.end(), {"--db", db});
    std::string key;
    {
        ServerProcess server(args, ONCEORDER_SERVER_BIN, dir.file("first.log"));
        key = operatorKeyIn(dir.file("first.log"));
        ASSERT_FALSE(key.empty()) << readFile(dir.file("first.log"));
        EXPECT_EQ(putStock(server, key), 200);
        EXPECT_EQ(putStock(server, "demo-key-admin"), 401);
        EXPECT_EQ(getOrders(server, "demo-key-A"), 401) << "no demo clients beyond loopback";
        EXPECT_EQ(server.stop(), 0);
    }
    EXPECT_EQ(readFile(db).find(key), std::string::npos) << "the database keeps only the key's hash";
    ServerProcess again(args, ONCEORDER_SERVER_BIN, dir.file("second.log"));
    EXPECT_EQ(operatorKeyIn(dir.file("second.log")), "") << "printed once, when it was made";
    EXPECT_EQ(putStock(again, key), 200);
    EXPECT_EQ(again.stop(), 0);
}

TEST(ServerCredentialsTest, AllowDemoKeysAcceptsTheDemoClientsButNeverTheDemoOperator)
{
    TempDir dir;
    const std::string db = dir.file("server.db");
    {
        ServerProcess loopback({"--db", db});
    }
    std::vector<std::string> args = kEverywhere;
    args.insert(args.end(), {"--db", db, "--allow-demo-keys"});
    ServerProcess server(args, ONCEORDER_SERVER_BIN, dir.file("server.log"));
    EXPECT_EQ(getOrders(server, "demo-key-A"), 200);
    EXPECT_EQ(putStock(server, "demo-key-admin"), 401);
    const std::string key = operatorKeyIn(dir.file("server.log"));
    ASSERT_FALSE(key.empty());
    EXPECT_EQ(putStock(server, key), 200);
    EXPECT_EQ(server.stop(), 0);
    // Back on loopback the demo operator is the lesson's again.
    ServerProcess loopback({"--db", db});
    EXPECT_EQ(putStock(loopback, "demo-key-admin"), 200);
}

TEST(ServerCredentialsTest, ClientsAddIssuesAKeyThatIsPrintedOnceAndStoredHashed)
{
    TempDir dir;
    const std::string db = dir.file("server.db");
    const CommandRun issued = runServerCommand("clients add shop-1 --db " + db);
    ASSERT_EQ(issued.status, 0);
    const std::string key = issued.out.substr(0, issued.out.find('\n'));
    EXPECT_TRUE(std::regex_match(key, std::regex("oo_[A-Za-z0-9_-]{43}"))) << issued.out;
    EXPECT_EQ(readFile(db).find(key), std::string::npos);
    EXPECT_EQ(runServerCommand("clients add shop-1 --db " + db + " 2>/dev/null").status, 1) << "the name is taken";
    EXPECT_EQ(runServerCommand("clients add 'two words' --db " + db + " 2>/dev/null").status, 2);
    EXPECT_EQ(runServerCommand("clients add --db " + db + " 2>/dev/null").status, 2);

    ServerProcess server({"--db", db});
    auto http = server.client();
    const auto placed = http->Post("/orders", {{"Authorization", "Bearer " + key}, {"Idempotency-Key", "\"k1\""}},
                                   R"({"product":"kniha","quantity":1})", "application/json");
    ASSERT_TRUE(placed);
    EXPECT_EQ(placed->status, 201) << placed->body;
    EXPECT_EQ(getOrders(server, "demo-key-A"), 200) << "on loopback the demo clients are there too";
    EXPECT_EQ(server.stop(), 0);
}

// Issue 38: /metrics names every client and what each was refused. Beyond loopback it needs the operator's key:
// without a key 401, with a client's 403 metrics-operator-only; on loopback it stays open (the lesson and a local
// scraper). Before, a peer beyond loopback read it with no key at all (200).
TEST(ServerCredentialsTest, BeyondLoopbackMetricsNeedTheOperatorKey)
{
    const std::string outside = outsideAddress();
    if (outside.empty()) {
        GTEST_SKIP() << "this machine has no address beyond loopback";
    }
    TempDir dir;
    const std::string db = dir.file("server.db");
    const CommandRun issued = runServerCommand("clients add shop --db " + db);
    ASSERT_EQ(issued.status, 0);
    const std::string shopKey = issued.out.substr(0, issued.out.find('\n'));
    std::vector<std::string> args = kEverywhere;
    args.insert(args.end(), {"--db", db});
    ServerProcess server(args, ONCEORDER_SERVER_BIN, dir.file("server.log"));
    const std::string operatorKey = operatorKeyIn(dir.file("server.log"));
    ASSERT_FALSE(operatorKey.empty());
    httplib::Client far(outside, server.port());
    const auto anonymous = far.Get("/metrics");
    ASSERT_TRUE(anonymous) << "cannot reach " << outside;
    EXPECT_EQ(anonymous->status, 401) << anonymous->body.substr(0, 200);
    const auto client = far.Get("/metrics", {{"Authorization", "Bearer " + shopKey}});
    ASSERT_TRUE(client);
    EXPECT_EQ(client->status, 403);
    EXPECT_NE(client->body.find("/problems/metrics-operator-only"), std::string::npos) << client->body;
    const auto byOperator = far.Get("/metrics", {{"Authorization", "Bearer " + operatorKey}});
    ASSERT_TRUE(byOperator);
    EXPECT_EQ(byOperator->status, 200);
    EXPECT_NE(byOperator->body.find("onceorder_orders_created_total"), std::string::npos);
    const auto local = server.client()->Get("/metrics");
    ASSERT_TRUE(local);
    EXPECT_EQ(local->status, 200) << "on loopback /metrics needs no key";
    EXPECT_EQ(server.stop(), 0);
}
