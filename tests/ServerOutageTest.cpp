// ServerOutageTest: a database that goes away under a running server (SPEC §3, issue 31's first point). While
// PostgreSQL refuses the server's connections, every route that needs it answers 503 with Retry-After and a problem
// that names no host, port or SQL (they answered 500 with libpq's words before); GET /healthz stays 200 (the process
// is alive) and GET /readyz says 503 (send the traffic elsewhere); once the database is back, both serve again with
// no restart. On SQLite, a full disk: GET /readyz says 503 while no order can be written, and 200 once there is room;
// behind an order that holds the writer for a minute, GET /readyz still answers (200) while that order is written.
#include "ServerOptions.h"
#include "storage/postgres/PgPool.h"
#include "storage/postgres/PgPrimaryCheck.h"
#include "support/Http.h"
#include "support/PostgresDatabase.h"
#include "support/ServerProcess.h"

#include <SQLiteCpp/Database.h>
#include <SQLiteCpp/Exception.h>
#include <gtest/gtest.h>
#include <httplib.h>
#include <pqxx/pqxx>

#include <fcntl.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>
#include <thread>

using onceorder::test::ServerProcess;
using onceorder::test::TempDir;
using onceorder::test::TestDatabase;

namespace {

struct Answer
{
    int status = 0;
    std::string body;
    std::string retryAfter;
};

Answer get(const ServerProcess& server, const std::string& path)
{
    auto http = server.client();
    const auto result = http->Get(path, {{"Authorization", "Bearer demo-key-A"}, {"Host", "127.0.0.1"}});
    if (!result) {
        return {};
    }
    return {result->status, result->body, result->get_header_value("Retry-After")};
}

// Turns the server's database away: no new connections, and the server's open ones ended.
void takeAway(const TestDatabase& database, bool away)
{
    const char* maintenance = std::getenv("PGDATABASE");
    pqxx::connection connection(std::string("dbname=") + (maintenance && *maintenance ? maintenance : "postgres"));
    pqxx::nontransaction tx(connection);
    tx.exec0("ALTER DATABASE " + tx.quote_name(database.name()) + " ALLOW_CONNECTIONS " + (away ? "false" : "true"));
    if (away) {
        tx.exec_params("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1", database.name());
    }
}

} // namespace

TEST(ServerOutageTest, WhileTheDatabaseIsAwayEveryRouteAnswers503AndReadyzSaysSo)
{
    ONCEORDER_REQUIRE_POSTGRES_OR_SKIP();
    TestDatabase database;
    ServerProcess server({"--db", database.uri(), "--debug-endpoints"});
    ASSERT_EQ(get(server, "/readyz").status, 200);
    ASSERT_EQ(get(server, "/products").status, 200);

    takeAway(database, true);
    for (const char* path : {"/products", "/orders", "/orders/1", "/_debug/state"}) {
        const Answer answer = get(server, path);
        EXPECT_EQ(answer.status, 503) << path << ": " << answer.body;
        EXPECT_EQ(answer.retryAfter, "1") << path;
        EXPECT_NE(answer.body.find("/problems/database-unavailable"), std::string::npos) << path << ": " << answer.body;
        for (const std::string& secret : {std::string(std::getenv("PGPORT") ? std::getenv("PGPORT") : "5432"),
                                          std::string("SELECT"), database.name()}) {
            EXPECT_EQ(answer.body.find(secret), std::string::npos)
                << path << " names " << secret << ": " << answer.body;
        }
    }
    auto http = server.client();
    const auto order = http->Post("/orders", {{"Authorization", "Bearer demo-key-A"}, {"Idempotency-Key", "\"k\""}},
                                  R"({"product":"kniha","quantity":1})", "application/json");
    ASSERT_TRUE(order);
    EXPECT_EQ(order->status, 503) << order->body;
    EXPECT_EQ(get(server, "/healthz").status, 200) << "the process is alive";
    // /readyz answers from a probe at most a second old (PgOrderStore::ready): 503 within 5 s of the trouble.
    const auto readyzWithin5s = [&](int status) {
        Answer answer;
        const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(5);
        do {
            answer = get(server, "/readyz");
        } while (answer.status != status && std::chrono::steady_clock::now() < until);
        return answer;
    };
    const Answer notReady = readyzWithin5s(503);
    EXPECT_EQ(notReady.status, 503);
    EXPECT_NE(notReady.body.find("/problems/not-ready"), std::string::npos) << notReady.body;

    takeAway(database, false);
    EXPECT_EQ(readyzWithin5s(200).status, 200);
    EXPECT_EQ(get(server, "/products").status, 200);
    const auto placed = http->Post("/orders", {{"Authorization", "Bearer demo-key-A"}, {"Idempotency-Key", "\"k\""}},
                                   R"({"product":"kniha","quantity":1})", "application/json");
    ASSERT_TRUE(placed);
    EXPECT_EQ(placed->status, 201) << "nothing of the failed attempt was kept: " << placed->body;
    EXPECT_EQ(server.stop(), 0);
}

TEST(ServerOutageTest, ReadyzIsReadyOnSqlite)
{
    onceorder::test::TempDir dir;
    ServerProcess server({"--db", dir.file("server.db")});
    EXPECT_EQ(get(server, "/readyz").status, 200);
    EXPECT_NE(get(server, "/readyz").body.find("ready"), std::string::npos);
    EXPECT_EQ(server.stop(), 0);
}

// Whether another writer holds the SQLite file's write lock (an IMMEDIATE transaction open): a BEGIN IMMEDIATE of
// our own, without waiting, is refused.
bool writerBusy(const std::string& path)
{
    SQLite::Database db(path, SQLite::OPEN_READWRITE);
    try {
        db.exec("BEGIN IMMEDIATE");
    } catch (const SQLite::Exception&) {
        return true;
    }
    db.exec("ROLLBACK");
    return false;
}

TEST(ServerOutageTest, OnSqliteReadyzAnswersWhileALongOrderHoldsTheWriter)
{
    TempDir dir;
    const std::string path = dir.file("server.db");
    ServerProcess server({"--db", path, "--debug-endpoints"});
    auto http = server.client();
    http->set_read_timeout(std::chrono::seconds(120));
    // The order holds the writer (its transaction open) for a minute: far longer than /readyz may take.
    ASSERT_EQ(onceorder::test::postJson(*http, "/_debug/faults", R"({"fault":"delay","delay_ms":60000})").status, 200);
    std::thread order(
        [&] { onceorder::test::postOrder(*http, "demo-key-A", "slow", R"({"product":"kniha","quantity":1})"); });
    ASSERT_TRUE(onceorder::test::waitUntil([&] { return writerBusy(path); }, std::chrono::seconds(30)));
    // The first probe of this server (no earlier answer to repeat): the writer is busy for the next minute.
    const Answer ready = get(server, "/readyz");
    const bool orderStillWriting = writerBusy(path);
    server.kill(); // the order's minute is not waited out
    order.join();

    EXPECT_EQ(ready.status, 200) << "a long order means the database is in use, not that it is away";
    EXPECT_TRUE(orderStillWriting) << "/readyz answered only after the order's transaction ended: it waited for the "
                                      "writer without a bound";
}

TEST(ServerOutageTest, APostgresUriGetsTheTimeBudgetsNetworkBoundsUnlessItNamesThem)
{
    using onceorder::server::parseServerOptions;
    using onceorder::server::PgPool;
    using onceorder::server::ServerOptions;
    using std::chrono::milliseconds;
    const auto options = [](std::vector<std::string> args) {
        return std::get<ServerOptions>(parseServerOptions(args));
    };
    EXPECT_EQ(options({"--db", "postgresql:///shop"}).dbPath, "postgresql:///shop") << "as given; bounded when opened";
    ::unsetenv("ONCEORDER_DB_TIMEOUT_MS"); // the test environment's default for the servers it starts
    EXPECT_EQ(options({}).dbTimeout, milliseconds(3000));
    EXPECT_EQ(options({"--db-timeout-ms", "1500"}).dbTimeout, milliseconds(1500));
    EXPECT_TRUE(std::holds_alternative<onceorder::server::OptionsError>(parseServerOptions({"--db-timeout-ms", "5"})));

    EXPECT_EQ(PgPool::withTimeBudget("postgresql:///shop", milliseconds(3000)),
              "postgresql:///shop?connect_timeout=3&keepalives=1&keepalives_idle=1&keepalives_interval=1&"
              "keepalives_count=3&tcp_user_timeout=3000");
    EXPECT_EQ(PgPool::withTimeBudget("postgresql://h:1,h:2/shop?target_session_attrs=read-write", milliseconds(500)),
              "postgresql://h:1,h:2/shop?target_session_attrs=read-write&connect_timeout=2&keepalives=1&"
              "keepalives_idle=1&keepalives_interval=1&keepalives_count=2&tcp_user_timeout=500")
        << "libpq's connect_timeout is whole seconds, at least 2";
    EXPECT_EQ(PgPool::withTimeBudget("postgres:///shop?connect_timeout=3&keepalives=0&tcp_user_timeout=9",
                                     milliseconds(1000)),
              "postgres:///shop?connect_timeout=3&keepalives=0&tcp_user_timeout=9&keepalives_idle=1&"
              "keepalives_interval=1&keepalives_count=2")
        << "what the URI names stays as it is";
    EXPECT_EQ(PgPool::withTimeBudget("postgres:///shop", milliseconds(0)), "postgres:///shop");
    EXPECT_EQ(PgPool::sessionSettings(milliseconds(3000)),
              "SET lock_timeout = 3000; SET idle_in_transaction_session_timeout = 6000; SET statement_timeout = 6000");
    EXPECT_EQ(options({"--db", "/tmp/shop.db"}).dbPath, "/tmp/shop.db");
}

TEST(ServerOutageTest, TheMonitorsPrimaryTakesThePlaceOfTheUrisHosts)
{
    using onceorder::server::OptionsError;
    using onceorder::server::parseServerOptions;
    using onceorder::server::PgPrimaryCheck;
    using onceorder::server::ServerOptions;
    const auto parsed = parseServerOptions({"--db-monitor", "postgres://autoctl_node@m:5541/pg_auto_failover"});
    ASSERT_TRUE(std::holds_alternative<ServerOptions>(parsed));
    EXPECT_EQ(std::get<ServerOptions>(parsed).dbMonitor, "postgres://autoctl_node@m:5541/pg_auto_failover");
    EXPECT_TRUE(std::get<ServerOptions>(parseServerOptions({})).dbMonitor.empty());
    EXPECT_TRUE(std::holds_alternative<OptionsError>(parseServerOptions({"--db-monitor", "monitor.example:5541"})));

    // libpq takes the last value of a parameter: host= and port= after the URI's own hosts win over them.
    EXPECT_EQ(PgPrimaryCheck::pointedAt("postgresql://p@h:1,h:2/shop?target_session_attrs=read-write&connect_timeout=3",
                                        "10.0.0.2", "5543"),
              "postgresql://p@h:1,h:2/shop?target_session_attrs=read-write&connect_timeout=3&host=10.0.0.2&port=5543");
    EXPECT_EQ(PgPrimaryCheck::pointedAt("postgresql:///shop", "/run/postgresql", "5432"),
              "postgresql:///shop?host=%2Frun%2Fpostgresql&port=5432");
}

TEST(ServerOutageTest, SigtermEndsAServerWaitingForADatabaseThatNeverAnswers)
{
    // A "database" that accepts the connection and then says nothing (a half-dead host, a firewall that eats packets).
    const int listener = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address {};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ASSERT_EQ(::bind(listener, reinterpret_cast<sockaddr*>(&address), sizeof address), 0);
    ASSERT_EQ(::listen(listener, 4), 0);
    socklen_t length = sizeof address;
    ::getsockname(listener, reinterpret_cast<sockaddr*>(&address), &length);
    const std::string uri = "postgresql://onceorder@127.0.0.1:" + std::to_string(ntohs(address.sin_port)) + "/silent";

    std::vector<std::string> args {ONCEORDER_SERVER_BIN, "--listen", "127.0.0.1:0", "--db", uri};
    std::vector<char*> argv;
    for (auto& arg : args) {
        argv.push_back(arg.data());
    }
    argv.push_back(nullptr);
    posix_spawn_file_actions_t files;
    posix_spawn_file_actions_init(&files);
    posix_spawn_file_actions_addopen(&files, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
    pid_t pid = 0;
    ASSERT_EQ(posix_spawn(&pid, argv[0], &files, nullptr, argv.data(), environ), 0);
    posix_spawn_file_actions_destroy(&files);

    // Once the server's connection has arrived, it is waiting inside libpq.
    pollfd incoming {listener, POLLIN, 0};
    ASSERT_EQ(::poll(&incoming, 1, 10'000), 1) << "the server never tried to connect";
    const int silent = ::accept(listener, nullptr, nullptr);
    ASSERT_GE(silent, 0);
    ::kill(pid, SIGTERM);
    int status = 0;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    pid_t ended = 0;
    while ((ended = ::waitpid(pid, &status, WNOHANG)) == 0 && std::chrono::steady_clock::now() < deadline) {
        pollfd none {-1, 0, 0};
        ::poll(&none, 0, 20); // waitpid has no timeout: look again every 20 ms
    }
    if (ended == 0) {
        ::kill(pid, SIGKILL);
        ::waitpid(pid, &status, 0);
    }
    ::close(silent);
    ::close(listener);
    EXPECT_EQ(ended, pid) << "SIGTERM was ignored while the server waited for its database";
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

TEST(ServerOutageTest, OnSqliteReadyzIs503WhileTheDiskIsFullAnd200Again)
{
    if (geteuid() != 0) {
        GTEST_SKIP() << "mounting a small disk needs root";
    }
    TempDir disk;
    if (mount("tmpfs", disk.path().c_str(), "tmpfs", 0, "size=4m") != 0) {
        GTEST_SKIP() << "cannot mount a tmpfs: " << std::strerror(errno);
    }
    struct Unmount
    {
        ~Unmount() { umount2(path.c_str(), MNT_DETACH); }
        std::filesystem::path path;
    } unmount {disk.path()};
    const std::string fill = disk.file("fill");
    {
        ServerProcess server({"--db", disk.file("orders.db")});
        ASSERT_EQ(get(server, "/readyz").status, 200);

        std::FILE* file = std::fopen(fill.c_str(), "wb");
        ASSERT_NE(file, nullptr);
        const std::string block(64 * 1024, 'x');
        while (std::fwrite(block.data(), 1, block.size(), file) == block.size() && std::fflush(file) == 0) { }
        std::fclose(file);
        // The next commit needs room in the WAL file, which the disk no longer has: orders are answered 503.
        const bool readyzFailed =
            onceorder::test::waitUntil([&] { return get(server, "/readyz").status == 503; }, std::chrono::seconds(30));
        std::filesystem::remove(fill);

        EXPECT_TRUE(readyzFailed) << "the disk is full, and /readyz said 200 throughout";
        EXPECT_TRUE(
            onceorder::test::waitUntil([&] { return get(server, "/readyz").status == 200; }, std::chrono::seconds(30)));
    }
}
