// EndToEndFixture: the fixture of the suites that run every case on both databases (INSTANTIATE_TEST_SUITE_P with
// kBothDatabases): a SQLite file in a fresh folder or a fresh PostgreSQL database (skipped without PGHOST, see
// PostgresDatabase.h), the real server started on it, and reads straight from it as a second process would.
#pragma once

#include "support/PostgresDatabase.h"
#include "support/ServerProcess.h"
#include "support/SqliteReads.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

namespace onceorder::test {

class EndToEndFixture : public ::testing::TestWithParam<Backend>
{
protected:
    // A suite with more to set up calls this first and stops there if IsSkipped() or HasFatalFailure().
    void SetUp() override
    {
        if (GetParam() == Backend::Postgres) {
            ONCEORDER_REQUIRE_POSTGRES_OR_SKIP();
            pg = std::make_unique<TestDatabase>();
        }
    }

    // What the server's --db names: the SQLite file or the PostgreSQL database's URI.
    std::string database() const { return pg ? pg->uri() : dbPath; }

    // The real onceorder-server on this database with the debug endpoints (the tests arm faults through them).
    std::unique_ptr<ServerProcess> startServer(std::vector<std::string> extra = {}) const
    {
        std::vector<std::string> args {"--db", database(), "--debug-endpoints"};
        args.insert(args.end(), extra.begin(), extra.end());
        return std::make_unique<ServerProcess>(args);
    }

    long long scalar(const std::string& sql) const { return pg ? pg->scalar(sql) : sqliteScalar(dbPath, sql); }
    std::string text(const std::string& sql) const { return pg ? pg->text(sql) : sqliteText(dbPath, sql); }

    // The stub gateway's books: its own SQLite file beside the server's, or its tables in the one PostgreSQL database.
    long long gatewayScalar(const std::string& sql) const
    {
        return pg ? pg->scalar(sql) : sqliteScalar(dir.file("server.gateway.db"), sql);
    }
    std::string gatewayText(const std::string& sql) const
    {
        return pg ? pg->text(sql) : sqliteText(dir.file("server.gateway.db"), sql);
    }

    TempDir dir;
    std::string dbPath = dir.file("server.db");
    std::unique_ptr<TestDatabase> pg; // only on Backend::Postgres
};

} // namespace onceorder::test
