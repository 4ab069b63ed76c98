// PgPrimaryCheckEndToEndTest: no transaction on an old primary (issue 39), with a real onceorder-server on a real
// PostgreSQL database. Two relays stand for the two nodes of a pg_auto_failover pair (both lead to the one cluster,
// so both are "read-write": the old one is a zombie that resumed before its keeper demoted it), and a stand-in for
// the monitor (pgautofailover.get_primary in the test's database, answering what the test says) names the primary.
// The server is given the nodes as pg_autoctl's multi-host URI (target_session_attrs=read-write) and the monitor with
// --db-monitor. Which node an order was written through is read from PostgreSQL itself: a trigger keeps each order's
// inet_client_port(), which is one of a relay's own ports to the cluster.
//
// Waiting for the server to see the monitor's new answer: the stand-in counts its calls, and the server asks one at a
// time, so once three calls have begun after the change, the answer of a call that began after it has been taken in.
//
// Needs PostgreSQL (PGHOST …, see support/PostgresDatabase.h); skipped without it.
#include "support/Http.h"
#include "support/PostgresDatabase.h"
#include "support/PostgresServers.h"
#include "support/ServerCommand.h"
#include "support/ServerProcess.h"
#include "support/TcpRelay.h"

#include <gtest/gtest.h>
#include <pqxx/pqxx>

#include <algorithm>
#include <cstdlib>
#include <future>
#include <set>
#include <string>
#include <vector>

using namespace onceorder::test;

namespace {

constexpr const char* kA = "demo-key-A";
constexpr const char* kOne = R"({"product":"kniha","quantity":1})";

class PgPrimaryCheckEndToEndTest : public PostgresServersFixture
{
protected:
    void SetUp() override
    {
        PostgresServersFixture::SetUp();
        if (HasFatalFailure() || IsSkipped()) {
            return;
        }
        const char* admin = std::getenv("ONCEORDER_PGADMIN_PORT");
        const char* port = admin && *admin ? admin : std::getenv("PGPORT");
        m_old = std::make_unique<TcpRelay>(std::atoi(port ? port : "5432"));
        m_new = std::make_unique<TcpRelay>(std::atoi(port ? port : "5432"));
        exec("CREATE SCHEMA pgautofailover; "
             "CREATE TABLE pgautofailover.stand_in (port int, writable boolean NOT NULL); "
             "INSERT INTO pgautofailover.stand_in VALUES (" +
             std::to_string(m_old->port()) +
             ", true); "
             // A sequence counts the calls: a call that raises keeps its count (nextval is not rolled back).
             "CREATE SEQUENCE pgautofailover.calls; "
             // slow: the monitor takes longer than the server's statement timeout to answer.
             "ALTER TABLE pgautofailover.stand_in ADD COLUMN slow boolean NOT NULL DEFAULT false; "
             "CREATE FUNCTION pgautofailover.get_primary(formation_id text DEFAULT 'default', group_id int DEFAULT 0, "
             "OUT primary_node_id bigint, OUT primary_name text, OUT primary_host text, OUT primary_port int) "
             "RETURNS record LANGUAGE plpgsql AS $$ BEGIN "
             "PERFORM nextval('pgautofailover.calls'); "
             "IF (SELECT slow FROM pgautofailover.stand_in) THEN PERFORM pg_sleep(5); END IF; "
             "SELECT 1, 'node', '127.0.0.1', port INTO primary_node_id, primary_name, primary_host, primary_port "
             "FROM pgautofailover.stand_in WHERE writable; "
             "IF NOT FOUND THEN RAISE EXCEPTION 'couldn''t find the primary node in formation \"%\", group %', "
             "formation_id, group_id; END IF; END $$; "
             "CREATE TABLE order_ports (order_id bigint, port int); "
             "CREATE FUNCTION keep_order_port() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
             "INSERT INTO order_ports VALUES (NEW.id, inet_client_port()); RETURN NEW; END $$;");
    }

    ServerProcess& startOnThePair(const std::vector<std::string>& extra = {})
    {
        std::vector<std::string> args {"--db",
                                       "postgresql://127.0.0.1:" + std::to_string(m_old->port()) +
                                           ",127.0.0.1:" + std::to_string(m_new->port()) + "/" + db->name() +
                                           "?target_session_attrs=read-write",
                                       "--db-monitor", db->uri()};
        args.insert(args.end(), extra.begin(), extra.end());
        auto& server = startServer(args);
        // The server made its tables: now each order's session port is kept.
        exec("CREATE TRIGGER keep_order_port AFTER INSERT ON orders FOR EACH ROW EXECUTE FUNCTION keep_order_port()");
        return server;
    }

    void exec(const std::string& sql) const
    {
        pqxx::connection connection(db->uri());
        pqxx::nontransaction tx(connection);
        tx.exec(sql);
    }

    // The monitor's answer changes; returns once the server has taken it in (see the file comment).
    void monitorSays(const std::string& assignment) const
    {
        const long long before = db->scalar("SELECT last_value FROM pgautofailover.calls");
        exec("UPDATE pgautofailover.stand_in SET " + assignment);
        ASSERT_TRUE(waitUntil([&] { return db->scalar("SELECT last_value FROM pgautofailover.calls") >= before + 3; },
                              std::chrono::seconds(30)))
            << "the server does not ask the monitor";
    }

    // Places `count` orders at once (several connections) and returns their ids.
    static std::vector<long long> placeAtOnce(const ServerProcess& server, const std::string& prefix, int count)
    {
        std::vector<std::future<Reply>> replies;
        for (int i = 0; i < count; ++i) {
            replies.push_back(std::async(std::launch::async, [&server, prefix, i] {
                auto http = server.client();
                return postOrder(*http, kA, prefix + std::to_string(i), kOne);
            }));
        }
        std::vector<long long> ids;
        for (auto& reply : replies) {
            const Reply r = reply.get();
            EXPECT_EQ(r.status, 201) << r.body;
            const auto at = r.body.find("\"order_id\":");
            if (r.status == 201 && at != std::string::npos) {
                ids.push_back(std::atoll(r.body.c_str() + at + 11));
            }
        }
        return ids;
    }

    // The relay each order was written through: "old", "new" or "?".
    std::vector<std::string> throughWhich(const std::vector<long long>& ids)
    {
        const auto oldPorts = m_old->upstreamPorts();
        const auto newPorts = m_new->upstreamPorts();
        std::vector<std::string> through;
        for (const long long id : ids) {
            const long long port = db->scalar(
                "SELECT coalesce((SELECT port FROM order_ports WHERE order_id = " + std::to_string(id) + "), 0)");
            const auto in = [port](const std::vector<int>& ports) {
                return std::find(ports.begin(), ports.end(), port) != ports.end();
            };
            through.push_back(in(oldPorts) ? "old" : in(newPorts) ? "new" : "?");
        }
        return through;
    }

    std::unique_ptr<TcpRelay> m_old; // the node that was primary: resumed, still read-write
    std::unique_ptr<TcpRelay> m_new; // the standby the monitor promoted
};

} // namespace

TEST_F(PgPrimaryCheckEndToEndTest, AfterTheMonitorNamesAnotherPrimaryNoOrderIsWrittenOnTheOldOne)
{
    auto& server = startOnThePair();
    const auto before = placeAtOnce(server, "before-", 6); // several pooled connections to the old primary
    EXPECT_EQ(throughWhich(before), std::vector<std::string>(before.size(), "old"));

    monitorSays("port = " + std::to_string(m_new->port()));

    const auto after = placeAtOnce(server, "after-", 6);
    std::vector<long long> oneByOne;
    auto http = server.client();
    for (int i = 0; i < 4; ++i) {
        const Reply r = postOrder(*http, kA, "one-by-one-" + std::to_string(i), kOne);
        ASSERT_EQ(r.status, 201) << r.body;
        oneByOne.push_back(std::atoll(r.body.c_str() + r.body.find("\"order_id\":") + 11));
    }
    EXPECT_EQ(throughWhich(after), std::vector<std::string>(after.size(), "new"))
        << "an order written after the failover on the old primary is lost when it rejoins as a standby";
    EXPECT_EQ(throughWhich(oneByOne), std::vector<std::string>(oneByOne.size(), "new"));
}

TEST_F(PgPrimaryCheckEndToEndTest, WhileTheMonitorNamesNoWritableNodeOrdersAre503AndNothingIsWritten)
{
    auto& server = startOnThePair();
    placeAtOnce(server, "before-", 3);
    const long long orders = db->scalar("SELECT count(*) FROM orders");

    monitorSays("writable = false");
    auto http = server.client();
    const Reply refused = postOrder(*http, kA, "during", kOne);
    EXPECT_EQ(refused.status, 503) << refused.body;
    EXPECT_FALSE(refused.header("Retry-After").empty());
    EXPECT_TRUE(waitUntil([&] { return get(*http, "/readyz").status == 503; }, std::chrono::seconds(10)))
        << "/readyz (cached for a second) does not say 503 while no node may take a write";
    EXPECT_EQ(db->scalar("SELECT count(*) FROM orders"), orders);

    monitorSays("writable = true, port = " + std::to_string(m_new->port()));
    const Reply placed = postOrder(*http, kA, "during", kOne);
    EXPECT_EQ(placed.status, 201) << placed.body;
    EXPECT_EQ(throughWhich({db->scalar("SELECT max(id) FROM orders")}), std::vector<std::string> {"new"});
}

TEST_F(PgPrimaryCheckEndToEndTest, AMonitorSlowerThanTheBudgetLeavesTheLastAnswerStanding)
{
    // A monitor that does not answer in time says nothing about the nodes: orders go on to the primary it last named.
    auto& server = startOnThePair({"--db-timeout-ms", "1000"});
    monitorSays("slow = true");
    auto http = server.client();
    for (int i = 0; i < 3; ++i) {
        const Reply r = postOrder(*http, kA, "while-slow-" + std::to_string(i), kOne);
        ASSERT_EQ(r.status, 201) << r.body;
        EXPECT_EQ(throughWhich({std::atoll(r.body.c_str() + r.body.find("\"order_id\":") + 11)}),
                  std::vector<std::string> {"old"});
    }
    exec("UPDATE pgautofailover.stand_in SET slow = false");
}

TEST_F(PgPrimaryCheckEndToEndTest, AMonitorThatIsNoneStopsTheStartWithItsReason)
{
    exec("DROP FUNCTION pgautofailover.get_primary");
    const CommandRun run =
        runServerCommand("--listen 127.0.0.1:0 --db " + db->uri() + " --db-monitor " + db->uri() + " 2>&1");
    EXPECT_EQ(run.status, 1) << run.out;
    EXPECT_NE(run.out.find("--db-monitor names no pg_auto_failover monitor"), std::string::npos) << run.out;
}
