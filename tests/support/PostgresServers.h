// PostgresServersFixture: the fixture of the PostgreSQL-only end-to-end suites: a fresh database of its own (skipped
// without PGHOST, see PostgresDatabase.h) and the real onceorder-server processes a test starts on it, as several
// instances of one deployment; every server is stopped before the database is dropped.
#pragma once

#include "support/PostgresDatabase.h"
#include "support/ServerProcess.h"

#include <gtest/gtest.h>

#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace onceorder::test {

class PostgresServersFixture : public ::testing::Test
{
protected:
    // `threads`: each server's --threads (a suite that holds many requests open at once needs more).
    explicit PostgresServersFixture(int threads = 8)
        : m_threads(threads)
    {
    }

    void SetUp() override
    {
        ONCEORDER_REQUIRE_POSTGRES_OR_SKIP();
        db = std::make_unique<TestDatabase>();
    }
    void TearDown() override
    {
        servers.clear(); // before the database goes
        db.reset();
    }

    // One more instance on the database, with the debug endpoints (the tests arm faults through them). Safe to call
    // from several threads at once.
    ServerProcess& startServer(const std::vector<std::string>& extra = {})
    {
        std::vector<std::string> args {"--db", db->uri(), "--debug-endpoints", "--threads", std::to_string(m_threads)};
        args.insert(args.end(), extra.begin(), extra.end());
        auto server = std::make_unique<ServerProcess>(args);
        std::lock_guard lock(m_serversLock);
        servers.push_back(std::move(server));
        return *servers.back();
    }

    std::unique_ptr<TestDatabase> db;
    std::vector<std::unique_ptr<ServerProcess>> servers;

private:
    int m_threads;
    std::mutex m_serversLock;
};

} // namespace onceorder::test
