// PostgresDatabase: a fresh database on the PostgreSQL cluster that libpq's environment names (PGHOST, PGPORT,
// PGUSER, PGPASSWORD), created through the maintenance connection and dropped (with any connection left to it) at
// the end, for the end-to-end tests that run the server with `--db postgresql://…`. scripts/test runs every test
// inside `pg_virtualenv`, which starts a throwaway cluster and sets exactly those variables.
#pragma once

#include <gtest/gtest.h>
#include <pqxx/pqxx>

#include <cstdio>
#include <cstdlib>
#include <optional>
#include <random>
#include <string>
#include <unistd.h>
#include <utility>

namespace onceorder::test {

// Why the PostgreSQL tests cannot run here, or nothing if they can. With ONCEORDER_REQUIRE_POSTGRES set a test
// fails for it instead of skipping (see requirePostgres in the fixtures).
inline std::optional<std::string> postgresMissing()
{
    if (std::getenv("PGHOST")) {
        return std::nullopt;
    }
    if (std::getenv("ONCEORDER_REQUIRE_POSTGRES")) {
        return "ONCEORDER_REQUIRE_POSTGRES is set but PGHOST is not: the run was meant to have PostgreSQL";
    }
    return "no PostgreSQL: PGHOST is not set (scripts/test runs these tests inside pg_virtualenv, which sets PGHOST, "
           "PGPORT, PGUSER and PGPASSWORD)";
}

// In a fixture's SetUp: skips the test without PostgreSQL, or fails it if PostgreSQL was required.
#define ONCEORDER_REQUIRE_POSTGRES_OR_SKIP()                                                                           \
    do {                                                                                                               \
        if (const auto missing = ::onceorder::test::postgresMissing()) {                                               \
            if (std::getenv("ONCEORDER_REQUIRE_POSTGRES")) {                                                           \
                FAIL() << *missing;                                                                                    \
            }                                                                                                          \
            GTEST_SKIP() << *missing;                                                                                  \
        }                                                                                                              \
    } while (false)

class TestDatabase
{
public:
    TestDatabase()
    {
        std::random_device random;
        m_name = "onceorder_test_" + std::to_string(getpid()) + "_" + std::to_string(random() % 1'000'000'000);
        maintenance([this](pqxx::nontransaction& tx) { tx.exec0("CREATE DATABASE " + tx.quote_name(m_name)); });
    }
    ~TestDatabase()
    {
        try {
            maintenance([this](pqxx::nontransaction& tx) {
                tx.exec0("DROP DATABASE IF EXISTS " + tx.quote_name(m_name) + " WITH (FORCE)");
            });
        } catch (const std::exception& error) {
            std::fprintf(stderr, "could not drop %s: %s\n", m_name.c_str(), error.what());
        }
    }
    TestDatabase(const TestDatabase&) = delete;
    TestDatabase& operator=(const TestDatabase&) = delete;

    const std::string& name() const { return m_name; }
    // Host, port, user and password come from the environment, as for every libpq program.
    std::string uri() const { return "postgresql:///" + m_name; }

    long long scalar(const std::string& sql) const
    {
        pqxx::connection connection(uri());
        pqxx::nontransaction tx(connection);
        return tx.exec(sql)[0][0].as<long long>();
    }
    std::string text(const std::string& sql) const
    {
        pqxx::connection connection(uri());
        pqxx::nontransaction tx(connection);
        return tx.exec(sql)[0][0].as<std::string>();
    }
    // Server sessions on this database in this state, seen from PostgreSQL itself (pg_stat_activity).
    long long sessions(const std::string& condition) const
    {
        pqxx::connection connection(uri());
        pqxx::nontransaction tx(connection);
        return tx
            .exec_params("SELECT count(*) FROM pg_stat_activity WHERE datname = $1 AND pid <> "
                         "pg_backend_pid() AND " +
                             condition,
                         m_name)[0][0]
            .as<long long>();
    }

private:
    // Behind a pooler (scripts/lib/with-pgbouncer) CREATE and DROP DATABASE go to the cluster itself, named by
    // ONCEORDER_PGADMIN_HOST and ONCEORDER_PGADMIN_PORT: a pooler holds server connections to the database.
    template<typename Fn>
    static void maintenance(Fn&& fn)
    {
        const char* database = std::getenv("PGDATABASE");
        std::string options = std::string("dbname=") + (database && *database ? database : "postgres");
        for (const auto& [variable, keyword] :
             {std::pair {"ONCEORDER_PGADMIN_HOST", " host="}, std::pair {"ONCEORDER_PGADMIN_PORT", " port="}}) {
            if (const char* value = std::getenv(variable); value && *value) {
                options += keyword + std::string(value);
            }
        }
        pqxx::connection connection(options);
        pqxx::nontransaction tx(connection);
        fn(tx);
    }

    std::string m_name;
};

} // namespace onceorder::test
