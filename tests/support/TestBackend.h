// TestBackend: one database the end-to-end suites run on, as the tests see it: a fresh database of its own for each
// test, the --db string the server is started with, reads straight from it afterwards (as a second process would),
// whether it can run on this machine, and what a test may legitimately ask about it (capabilities, never its name).
// One header per database (SqliteTestBackend.h, PostgresTestBackend.h) implements it; TestBackends.h lists them.
#pragma once

#include <exception>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace onceorder::test {

// One fresh database for one test, dropped (or deleted) when it goes.
class BackendDatabase
{
public:
    virtual ~BackendDatabase() = default;

    // What the server's --db names for it.
    virtual std::string db() const = 0;
    // One value read from the server's tables.
    virtual long long scalar(const std::string& sql) const = 0;
    virtual std::string text(const std::string& sql) const = 0;
    // The same from the stub gateway's books (in a file beside the server's, or in the same database).
    virtual long long gatewayScalar(const std::string& sql) const = 0;
    virtual std::string gatewayText(const std::string& sql) const = 0;
    // How many tables of this name the database's own catalogue holds.
    virtual long long tablesNamed(const std::string& table) const = 0;
};

// What a test may ask about a database: the reason a case runs or is skipped on it, as data.
struct BackendCapabilities
{
    // Several server processes run on one database at once, each with its own clock; a lock's age is judged by the
    // database's clock. Without it one process has the database to itself and its clock alone stamps locks.
    bool sharedByProcesses = false;
    // A failed statement ends only that statement: a caught unique violation leaves the transaction usable.
    bool failedStatementKeepsTransaction = false;
    // Server flags that trade durability for speed, for tests that place many orders and are not about durability.
    std::vector<std::string> fastWriteFlags;
};

// Why a database cannot run on this machine, and whether the run was meant to have it (then the test fails instead of
// skipping).
struct BackendMissing
{
    std::string why;
    bool required = false;
};

class TestBackend
{
public:
    virtual ~TestBackend() = default;

    // The test parameter's name: the cases are …/<name>, as the server's registry names the backend.
    virtual std::string_view name() const = 0;
    virtual BackendCapabilities capabilities() const = 0;
    // Nothing if the database can run here.
    virtual std::optional<BackendMissing> missing() const = 0;
    // A fresh, empty database (the server makes its schema when it opens it).
    virtual std::unique_ptr<BackendDatabase> fresh() const = 0;
    // What this database's driver throws when the reply to a COMMIT is lost (the outcome unknown), and when a commit
    // is refused and did not take effect (a definite transient failure: a serialization failure, a busy database).
    virtual std::exception_ptr commitLost() const = 0;
    virtual std::exception_ptr commitRefused() const = 0;
};

// How GoogleTest prints the parameter (ctest's names end "# GetParam() = sqlite"): the name, not an address that
// changes from build to build.
inline void PrintTo(const TestBackend* backend, std::ostream* out)
{
    *out << backend->name();
}

} // namespace onceorder::test

// In a fixture's SetUp: skips the test where `backend` cannot run, or fails it if the run was meant to have it.
#define ONCEORDER_REQUIRE_BACKEND_OR_SKIP(backend)                                                                     \
    do {                                                                                                               \
        if (const auto absent = (backend).missing()) {                                                                 \
            if (absent->required) {                                                                                    \
                FAIL() << absent->why;                                                                                 \
            }                                                                                                          \
            GTEST_SKIP() << absent->why;                                                                               \
        }                                                                                                              \
    } while (false)
