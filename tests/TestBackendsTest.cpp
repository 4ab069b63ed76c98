// The test parameters against the server's registry: every database the server can run on (storage/Backends.cpp) is
// a "Databases/" parameter of the end-to-end suites (tests/support/TestBackends.h), under the same name, and each
// parameter's fresh database is one the server's registry takes. A database registered in one list and not in the
// other fails here, not by running no test on it.
#include "support/TestBackends.h"
#include "storage/Backend.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

using onceorder::test::testBackends;

namespace {

std::set<std::string> serverBackendNames()
{
    std::set<std::string> names;
    for (const auto* backend : onceorder::server::backends()) {
        names.emplace(backend->name);
    }
    return names;
}

std::set<std::string> testBackendNames()
{
    std::set<std::string> names;
    for (const auto* backend : testBackends()) {
        names.emplace(backend->name());
    }
    return names;
}

} // namespace

TEST(TestBackendsTest, EveryDatabaseTheServerRegistersIsATestParameterOfTheSameName)
{
    EXPECT_EQ(testBackendNames(), serverBackendNames());
    EXPECT_EQ(testBackendNames().size(), testBackends().size()) << "two test parameters of one name";
}

TEST(TestBackendsTest, EachParametersFreshDatabaseIsTakenByTheBackendOfItsName)
{
    for (const auto* backend : testBackends()) {
        if (const auto missing = backend->missing()) {
            EXPECT_FALSE(missing->why.empty()) << backend->name();
            continue; // no database to make here (PostgreSQL without PGHOST)
        }
        const auto database = backend->fresh();
        const auto* taker = onceorder::server::findBackend(database->db());
        ASSERT_NE(taker, nullptr) << backend->name() << ": no registered backend takes " << database->db();
        EXPECT_EQ(taker->name, backend->name());
    }
}
