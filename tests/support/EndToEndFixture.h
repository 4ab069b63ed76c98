// EndToEndFixture: the fixture of the suites that run every case on every database of TestBackends.h
// (INSTANTIATE_TEST_SUITE_P(Databases, Suite, kEveryDatabase, backendName)): a fresh database of the parameter's
// backend (skipped where it cannot run, see missing() in TestBackend.h), the real server started on it, and reads
// straight from it as a second process would. It never asks which database it has; a case asks capabilities().
#pragma once

#include "support/ServerProcess.h"
#include "support/TestBackends.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

namespace onceorder::test {

class EndToEndFixture : public ::testing::TestWithParam<const TestBackend*>
{
protected:
    // A suite with more to set up calls this first and stops there if IsSkipped() or HasFatalFailure().
    void SetUp() override
    {
        ONCEORDER_REQUIRE_BACKEND_OR_SKIP(backend());
        m_database = backend().fresh();
    }

    const TestBackend& backend() const { return *GetParam(); }
    BackendCapabilities capabilities() const { return backend().capabilities(); }

    // What the server's --db names for this database.
    std::string database() const { return m_database->db(); }

    // The real onceorder-server on this database with the debug endpoints (the tests arm faults through them).
    std::unique_ptr<ServerProcess> startServer(std::vector<std::string> extra = {}) const
    {
        std::vector<std::string> args {"--db", database(), "--debug-endpoints"};
        args.insert(args.end(), extra.begin(), extra.end());
        return std::make_unique<ServerProcess>(args);
    }

    long long scalar(const std::string& sql) const { return m_database->scalar(sql); }
    std::string text(const std::string& sql) const { return m_database->text(sql); }
    // The stub gateway's books, wherever the server keeps them on this database.
    long long gatewayScalar(const std::string& sql) const { return m_database->gatewayScalar(sql); }
    std::string gatewayText(const std::string& sql) const { return m_database->gatewayText(sql); }
    long long tablesNamed(const std::string& table) const { return m_database->tablesNamed(table); }

private:
    std::unique_ptr<BackendDatabase> m_database;
};

} // namespace onceorder::test
