// PgTimeBudgetEndToEndTest: PostgreSQL trouble answered in bounded time (issue 39), with real onceorder-server
// processes on a real PostgreSQL database. Every database call keeps to --db-timeout-ms: an order that waits on a
// table an administrator locked, or on a database behind a partition (a relay that stops moving bytes, so neither
// side's TCP notices), is answered 503 with Retry-After instead of waiting for the trouble to end; once it ends,
// orders go through again. GET /readyz says 503 in each case, on a read-only database and on a full data disk (the
// key table's tablespace on a small tmpfs, filled with a file; needs root to mount, skipped otherwise), and 200 again
// after.
//
// No timing is asserted: the HTTP client's own read timeout (far above the budget) is what a hung request would meet,
// and then the reply has no status and the test fails.
//
// Needs PostgreSQL (PGHOST …, see support/PostgresDatabase.h); skipped without it.
#include "support/Http.h"
#include "support/PostgresDatabase.h"
#include "support/PostgresServers.h"
#include "support/ServerProcess.h"
#include "support/TcpRelay.h"

#include <gtest/gtest.h>
#include <pqxx/pqxx>

#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>

using namespace onceorder::test;

namespace {

constexpr const char* kA = "demo-key-A";
constexpr const char* kOne = R"({"product":"kniha","quantity":1})";
// The budget the servers here run with; a request that outlasts the client's timeout far above it hung.
const std::vector<std::string> kBudget {"--db-timeout-ms", "1000"};
constexpr auto kClientTimeout = std::chrono::seconds(30);

class PgTimeBudgetEndToEndTest : public PostgresServersFixture
{
protected:
    std::unique_ptr<httplib::Client> clientOf(const ServerProcess& server) const
    {
        auto http = server.client();
        http->set_read_timeout(kClientTimeout);
        return http;
    }

    // A transaction of the test's own holding `lock` on a table until letGo(), as an administrator's would.
    struct TableLock
    {
        TableLock(const std::string& uri, const std::string& lockStatement)
            : connection(uri)
            , tx(connection)
        {
            tx.exec(lockStatement);
        }
        void letGo() { tx.abort(); }
        pqxx::connection connection;
        pqxx::work tx;
    };

    // A session on the cluster itself, not through a pooler (scripts/lib/with-pgbouncer names it): ending sessions
    // from behind a pooler would spare the one it gave us, which it hands to a server next.
    std::string clusterUri() const
    {
        std::string uri = "dbname=" + db->name();
        for (const auto& [variable, keyword] :
             {std::pair {"ONCEORDER_PGADMIN_HOST", " host="}, std::pair {"ONCEORDER_PGADMIN_PORT", " port="}}) {
            if (const char* value = std::getenv(variable); value && *value) {
                uri += keyword + std::string(value);
            }
        }
        return uri;
    }

    // The server's sessions end (their next statement meets a closed connection), so that the next ones start with
    // the database's settings as they are now.
    void endServerSessions() const
    {
        pqxx::connection connection(clusterUri());
        pqxx::nontransaction tx(connection);
        tx.exec_params("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> "
                       "pg_backend_pid()",
                       db->name());
    }
    void setDatabase(const std::string& setting) const
    {
        pqxx::connection connection(clusterUri());
        // In a transaction of its own that may write: this session too may start on a read-only database, and a
        // session SET would stay on the server connection a pooler hands to the servers next.
        pqxx::work tx(connection);
        tx.exec("SET TRANSACTION READ WRITE");
        tx.exec("ALTER DATABASE " + tx.quote_name(db->name()) + " " + setting);
        tx.commit();
    }

    // Orders until one is placed (201) or `attempts` were answered otherwise; each attempt is bounded.
    static Reply placeOnceItWorks(httplib::Client& http, const std::string& key, int attempts = 200)
    {
        Reply reply;
        for (int i = 0; i < attempts; ++i) {
            reply = postOrder(http, kA, key, kOne);
            if (reply.status == 201) {
                break;
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
        }
        return reply;
    }
    // A small disk (tmpfs, 8 MB) the cluster's own user may write, as the tablespace `name`; the test's database's
    // key table is moved onto it. Undone in the destructor: the table back, the tablespace dropped, the disk gone.
    // Mounting needs root: `skipReason` says why not otherwise.
    struct SmallDisk
    {
        SmallDisk(const PgTimeBudgetEndToEndTest& fixture, const std::string& tablespace)
            : test(fixture)
            , name(tablespace)
        {
            if (geteuid() != 0) {
                skipReason = "mounting a small disk needs root";
                return;
            }
            path = std::filesystem::temp_directory_path() / ("onceorder-disk-" + std::to_string(getpid()));
            std::filesystem::create_directories(path);
            if (mount("tmpfs", path.c_str(), "tmpfs", 0, "size=8m") != 0) {
                skipReason = std::string("cannot mount a tmpfs: ") + std::strerror(errno);
                return;
            }
            mounted = true;
            pqxx::connection connection(test.clusterUri());
            pqxx::nontransaction admin(connection);
            struct stat data
            {
            };
            if (stat(admin.exec("SHOW data_directory")[0][0].c_str(), &data) != 0 ||
                chown(path.c_str(), data.st_uid, data.st_gid) != 0) {
                skipReason = "the cluster's data directory cannot be read here (another machine?)";
                return;
            }
            admin.exec("CREATE TABLESPACE " + admin.quote_name(name) + " LOCATION " + admin.quote(path.string()));
            created = true;
            admin.exec("ALTER TABLE idempotency_keys SET TABLESPACE " + admin.quote_name(name));
        }
        ~SmallDisk()
        {
            std::error_code ignored;
            std::filesystem::remove(path / "fill", ignored);
            if (created) {
                pqxx::connection connection(test.clusterUri());
                pqxx::nontransaction admin(connection);
                admin.exec("ALTER TABLE idempotency_keys SET TABLESPACE pg_default");
                admin.exec("DROP TABLESPACE " + admin.quote_name(name));
            }
            if (mounted) {
                umount2(path.c_str(), MNT_DETACH);
            }
            std::filesystem::remove(path, ignored);
        }
        // Writes a file until the disk has no room left.
        void fill() const
        {
            std::FILE* file = std::fopen((path / "fill").c_str(), "wb");
            ASSERT_NE(file, nullptr);
            const std::string block(64 * 1024, 'x');
            while (std::fwrite(block.data(), 1, block.size(), file) == block.size() && std::fflush(file) == 0) { }
            std::fclose(file);
        }
        void makeRoom() const { std::filesystem::remove(path / "fill"); }

        const PgTimeBudgetEndToEndTest& test;
        std::string name;
        std::filesystem::path path;
        std::string skipReason;
        bool mounted = false;
        bool created = false;
    };

    static bool readyzSays(httplib::Client& http, int status)
    {
        return waitUntil([&] { return get(http, "/readyz").status == status; }, std::chrono::seconds(30));
    }
};

} // namespace

TEST_F(PgTimeBudgetEndToEndTest, AnOrderWaitingOnALockedKeyTableIsAnswered503AndItsRetryPlacesIt)
{
    auto& server = startServer(kBudget);
    auto http = clientOf(server);
    ASSERT_EQ(postOrder(*http, kA, "before", kOne).status, 201);
    const long long before = db->scalar("SELECT stock FROM products WHERE id = 'kniha'");

    TableLock lock(db->uri(), "LOCK TABLE idempotency_keys IN ACCESS EXCLUSIVE MODE");
    std::vector<Reply> replies(4);
    std::vector<std::thread> clients;
    for (std::size_t i = 0; i < replies.size(); ++i) {
        clients.emplace_back([&, i] {
            auto own = clientOf(server);
            replies[i] = postOrder(*own, kA, "locked" + std::to_string(i), kOne);
        });
    }
    for (auto& client : clients) {
        client.join();
    }
    const Reply readyz = get(*http, "/readyz");
    lock.letGo();

    for (const auto& reply : replies) {
        EXPECT_EQ(reply.status, 503) << "answered within the budget, not when the lock went: " << reply.body;
        EXPECT_FALSE(reply.header("Retry-After").empty());
    }
    EXPECT_EQ(readyz.status, 503) << "no order can be placed while the key table is locked";
    EXPECT_EQ(db->scalar("SELECT count(*) FROM idempotency_keys WHERE idem_key LIKE 'locked%'"), 0);
    EXPECT_EQ(db->scalar("SELECT stock FROM products WHERE id = 'kniha'"), before) << "nothing of them stayed";
    for (std::size_t i = 0; i < replies.size(); ++i) {
        const Reply retry = placeOnceItWorks(*http, "locked" + std::to_string(i));
        EXPECT_EQ(retry.status, 201) << retry.body;
        EXPECT_FALSE(retry.replayed());
    }
    EXPECT_TRUE(readyzSays(*http, 200));
}

TEST_F(PgTimeBudgetEndToEndTest, OrdersDuringAPartitionAreAnswered503AndServingResumesAfterIt)
{
    const char* port = std::getenv("PGPORT");
    ASSERT_NE(port, nullptr);
    TcpRelay relay(std::atoi(port));
    auto& server = startServer({"--db", "postgresql://127.0.0.1:" + std::to_string(relay.port()) + "/" + db->name(),
                                "--db-timeout-ms", "1000"});
    auto http = clientOf(server);
    ASSERT_EQ(postOrder(*http, kA, "before", kOne).status, 201);
    ASSERT_EQ(get(*http, "/readyz").status, 200);

    relay.blackhole(true);
    // Several at once: the batch committer stuck on the partition must not leave the ones queued behind it waiting.
    std::vector<Reply> replies(6);
    std::vector<std::thread> clients;
    for (std::size_t i = 0; i < replies.size(); ++i) {
        clients.emplace_back([&, i] {
            auto own = clientOf(server);
            replies[i] = postOrder(*own, kA, "cut" + std::to_string(i), kOne);
        });
    }
    for (auto& client : clients) {
        client.join();
    }
    // And after those: a new connection meets the partition as it connects.
    const Reply later = postOrder(*http, kA, "cut-later", kOne);
    const Reply listing = get(*http, "/orders", kA);
    const bool readyzFailed = readyzSays(*http, 503);
    relay.blackhole(false);

    for (const auto& reply : replies) {
        EXPECT_EQ(reply.status, 503) << reply.body;
        EXPECT_FALSE(reply.header("Retry-After").empty());
    }
    EXPECT_EQ(later.status, 503) << later.body;
    EXPECT_EQ(listing.status, 503) << listing.body;
    EXPECT_FALSE(listing.header("Retry-After").empty());
    EXPECT_TRUE(readyzFailed) << "/readyz did not say 503 during the partition";

    EXPECT_EQ(placeOnceItWorks(*http, "after").status, 201);
    EXPECT_TRUE(readyzSays(*http, 200));
}

TEST_F(PgTimeBudgetEndToEndTest, ReadyzIs503OnAReadOnlyDatabaseAnd200Again)
{
    auto& server = startServer(kBudget);
    auto http = clientOf(server);
    ASSERT_EQ(get(*http, "/readyz").status, 200);

    setDatabase("SET default_transaction_read_only = on");
    endServerSessions();
    // Reads still work on a read-only database: once two in a row do, the server's connections are new sessions,
    // read-only ones.
    ASSERT_TRUE(
        waitUntil([&] { return get(*http, "/products").status == 200 && get(*http, "/products").status == 200; }));
    const bool readyzFailed = readyzSays(*http, 503);
    const Reply order = postOrder(*http, kA, "read-only", kOne);
    setDatabase("RESET default_transaction_read_only");
    endServerSessions();

    EXPECT_TRUE(readyzFailed) << "a read-only database takes no order, and /readyz said 200 throughout";
    EXPECT_EQ(order.status, 503) << order.body;
    EXPECT_TRUE(readyzSays(*http, 200));
    EXPECT_EQ(placeOnceItWorks(*http, "read-only").status, 201);
}

TEST_F(PgTimeBudgetEndToEndTest, ReadyzIs503WhileTheKeyTablesDiskIsFullAnd200Again)
{
    auto& server = startServer(kBudget);
    auto http = clientOf(server);
    // A name that needs quoting (upper case), as an administrator may choose: the probe names it as it is.
    const SmallDisk disk(*this, "OnceOrderSmall_" + std::to_string(getpid()));
    if (!disk.skipReason.empty()) {
        GTEST_SKIP() << disk.skipReason;
    }
    ASSERT_EQ(postOrder(*http, kA, "before", kOne).status, 201);
    ASSERT_TRUE(readyzSays(*http, 200));

    disk.fill();
    // A key row still fits in the table's last page, but the next page cannot be had: an order that needs it fails.
    const bool readyzFailed = readyzSays(*http, 503);
    disk.makeRoom();

    EXPECT_TRUE(readyzFailed) << "the key table's disk is full, and /readyz said 200 throughout";
    EXPECT_TRUE(readyzSays(*http, 200));
    EXPECT_EQ(placeOnceItWorks(*http, "after").status, 201);
}

TEST_F(PgTimeBudgetEndToEndTest, AfterTheDatabaseEndedEverySessionOneRequestAtMostMeetsAStaleConnection)
{
    auto& server = startServer(kBudget);
    auto http = clientOf(server);
    // Several connections in the server's pool: four reads held at once behind a lock on products, then let go.
    {
        TableLock lock(db->uri(), "LOCK TABLE products IN ACCESS EXCLUSIVE MODE");
        std::vector<std::thread> readers;
        for (int i = 0; i < 4; ++i) {
            readers.emplace_back([&] {
                auto own = server.client();
                own->set_read_timeout(kClientTimeout);
                get(*own, "/products");
            });
        }
        EXPECT_TRUE(waitUntil([&] { return db->sessions("wait_event_type = 'Lock'") >= 4; }));
        lock.letGo();
        for (auto& reader : readers) {
            reader.join();
        }
    }
    ASSERT_GE(db->sessions("state = 'idle'"), 4);

    // As a restart or a failover does: every session of the server ends.
    endServerSessions();
    int failed = 0;
    for (int i = 0; i < 6; ++i) {
        failed += get(*http, "/products").status == 200 ? 0 : 1;
    }
    EXPECT_LE(failed, 1) << "each idle connection left in the pool after the first broke cost a request a 503";
}
