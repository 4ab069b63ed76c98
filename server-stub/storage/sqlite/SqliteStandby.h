// SqliteStandby: the failover lesson's standby on SQLite: a second file beside the database, `<db>.standby`, written
// through SQLite's online backup API (the whole database as one consistent snapshot), told of commits by the store
// (Store::onCommit).
#pragma once

#include "storage/Standby.h"

#include <memory>
#include <string>

namespace SQLite {
class Database;
}

namespace onceorder::server {

class Store;

class SqliteStandby final : public Standby
{
public:
    SqliteStandby(Store& store, std::string primaryPath);
    ~SqliteStandby() override;

    static std::string standbyPathOf(const std::string& primaryPath);

    std::string place() const override { return m_standby; }
    void copy() override;
    void onPrimaryCommit(std::function<void()> committed) override;

private:
    Store& m_store;
    const std::string m_primary;
    const std::string m_standby;
    std::unique_ptr<SQLite::Database> m_source;
    std::unique_ptr<SQLite::Database> m_destination;
};

} // namespace onceorder::server
