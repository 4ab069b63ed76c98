// PostgresTestBackend: the end-to-end suites on PostgreSQL: a fresh database on the cluster that libpq's environment
// names (PostgresDatabase.h), the stub gateway's tables in it too, read over a connection of the test's own. Missing
// without PGHOST; required (a failure, not a skip) with ONCEORDER_REQUIRE_POSTGRES.
#pragma once

#include "support/PostgresDatabase.h"
#include "support/TestBackend.h"

#include <pqxx/pqxx>

#include <cstdlib>

namespace onceorder::test {

class PostgresTestDatabase final : public BackendDatabase
{
public:
    std::string db() const override { return m_database.uri(); }
    long long scalar(const std::string& sql) const override { return m_database.scalar(sql); }
    std::string text(const std::string& sql) const override { return m_database.text(sql); }
    // The gateway's tables live in the one database (one gateway for every instance).
    long long gatewayScalar(const std::string& sql) const override { return m_database.scalar(sql); }
    std::string gatewayText(const std::string& sql) const override { return m_database.text(sql); }
    long long tablesNamed(const std::string& table) const override
    {
        pqxx::connection connection(m_database.uri());
        pqxx::nontransaction tx(connection);
        return tx.exec_params("SELECT count(*) FROM pg_tables WHERE tablename = $1", table)[0][0].as<long long>();
    }

private:
    TestDatabase m_database;
};

class PostgresTestBackend final : public TestBackend
{
public:
    std::string_view name() const override { return "postgresql"; }
    BackendCapabilities capabilities() const override
    {
        // A caught violation aborts the whole transaction (the scenario postgres-catch-the-error); durability is not
        // traded by a server flag.
        return {.sharedByProcesses = true, .failedStatementKeepsTransaction = false, .fastWriteFlags = {}};
    }
    std::optional<BackendMissing> missing() const override
    {
        if (const auto why = postgresMissing()) {
            return BackendMissing {.why = *why, .required = std::getenv("ONCEORDER_REQUIRE_POSTGRES") != nullptr};
        }
        return std::nullopt;
    }
    std::unique_ptr<BackendDatabase> fresh() const override { return std::make_unique<PostgresTestDatabase>(); }
    std::exception_ptr commitLost() const override
    {
        return std::make_exception_ptr(
            pqxx::in_doubt_error("connection lost while committing: the transaction's outcome is unknown"));
    }
    std::exception_ptr commitRefused() const override
    {
        return std::make_exception_ptr(
            pqxx::serialization_failure("could not serialize access due to concurrent update"));
    }
};

} // namespace onceorder::test
