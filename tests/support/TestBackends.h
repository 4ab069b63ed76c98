// TestBackends: the one list of the databases the "Databases/" suites run every case on. A new database is one header
// beside SqliteTestBackend.h implementing TestBackend (TestBackend.h) and one line in testBackends(); every suite
// instantiated with kEveryDatabase then runs on it too, its cases named …/<name>:
//     INSTANTIATE_TEST_SUITE_P(Databases, Suite, kEveryDatabase, backendName);
#pragma once

#include "support/PostgresTestBackend.h"
#include "support/SqliteTestBackend.h"
#include "support/TestBackend.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace onceorder::test {

inline const std::vector<const TestBackend*>& testBackends()
{
    static const SqliteTestBackend sqlite;
    static const PostgresTestBackend postgres;
    static const std::vector<const TestBackend*> registered {&sqlite, &postgres};
    return registered;
}

inline const auto kEveryDatabase = ::testing::ValuesIn(testBackends());

inline std::string backendName(const ::testing::TestParamInfo<const TestBackend*>& param)
{
    return std::string(param.param->name());
}

} // namespace onceorder::test
