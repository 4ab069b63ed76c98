// Connection's statement cache: prepared once, lent out reset and with cleared bindings, closed before its database.
#include "storage/sqlite/Connection.h"
#include "support/ServerProcess.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <stdexcept>

using namespace onceorder::server;
using onceorder::test::TempDir;

namespace {

std::unique_ptr<Connection> connect(const std::string& path)
{
    auto db = std::make_unique<SQLite::Database>(path, SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE);
    db->exec("PRAGMA journal_mode = WAL");
    return std::make_unique<Connection>(std::move(db));
}

class ConnectionTest : public ::testing::Test
{
protected:
    void SetUp() override
    {
        connection->database().exec("CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT NOT NULL)");
        connection->database().exec("INSERT INTO items (name) VALUES ('one'), ('two')");
    }

    TempDir dir;
    std::string path = dir.file("test.db");
    std::unique_ptr<Connection> connection = connect(path);
};

TEST_F(ConnectionTest, TheSameSqlIsPreparedOnceAndLentAgain)
{
    const SQLite::Statement* first = nullptr;
    {
        auto select = connection->statement("SELECT name FROM items WHERE id = ?");
        select->bind(1, 1);
        ASSERT_TRUE(select->executeStep());
        EXPECT_EQ(select->getColumn(0).getString(), "one");
        first = &*select;
    }
    auto again = connection->statement("SELECT name FROM items WHERE id = ?");
    EXPECT_EQ(&*again, first);
    again->bind(1, 2);
    ASSERT_TRUE(again->executeStep()); // would throw if the first use had left the statement un-reset
    EXPECT_EQ(again->getColumn(0).getString(), "two");
    EXPECT_EQ(connection->cachedStatements(), 1u);

    auto other = connection->statement("SELECT count(*) FROM items");
    EXPECT_NE(&*other, first);
    EXPECT_EQ(connection->cachedStatements(), 2u);
}

TEST_F(ConnectionTest, AStatementComesBackWithItsBindingsCleared)
{
    {
        auto isNull = connection->statement("SELECT ? IS NULL");
        isNull->bind(1, 5);
        ASSERT_TRUE(isNull->executeStep());
        EXPECT_EQ(isNull->getColumn(0).getInt(), 0);
    }
    // The next user binds nothing, as code that binds only the columns it has does (a NULL cart id, for example).
    auto isNull = connection->statement("SELECT ? IS NULL");
    ASSERT_TRUE(isNull->executeStep());
    EXPECT_EQ(isNull->getColumn(0).getInt(), 1);
}

TEST_F(ConnectionTest, AHalfReadStatementKeepsNoReadTransactionOpen)
{
    {
        auto rows = connection->statement("SELECT name FROM items ORDER BY id");
        ASSERT_TRUE(rows->executeStep()); // one of two rows read, then the handle goes
    }
    // A writer on another connection, then a checkpoint: it can copy every frame back into the database only if
    // no reader still holds the snapshot from before the write.
    auto writer = connect(path);
    writer->database().exec("INSERT INTO items (name) VALUES ('three')");
    SQLite::Statement checkpoint(writer->database(), "PRAGMA wal_checkpoint(PASSIVE)");
    ASSERT_TRUE(checkpoint.executeStep());
    EXPECT_EQ(checkpoint.getColumn(0).getInt(), 0); // not busy
    EXPECT_GT(checkpoint.getColumn(1).getInt(), 0); // frames in the WAL
    EXPECT_EQ(checkpoint.getColumn(2).getInt(), checkpoint.getColumn(1).getInt()); // all of them checkpointed
}

TEST_F(ConnectionTest, TheSameSqlCannotBeLentTwiceAtOnce)
{
    {
        auto outer = connection->statement("SELECT id FROM items");
        EXPECT_THROW(connection->statement("SELECT id FROM items"), std::logic_error);
        auto moved = std::move(outer);
        EXPECT_THROW(connection->statement("SELECT id FROM items"), std::logic_error);
    }
    EXPECT_NO_THROW(connection->statement("SELECT id FROM items"));
}

TEST_F(ConnectionTest, ClosesCleanlyWithStatementsCached)
{
    {
        auto rows = connection->statement("SELECT name FROM items ORDER BY id");
        ASSERT_TRUE(rows->executeStep());
    }
    connection->statement("INSERT INTO items (name) VALUES (?)")->bind(1, "unused");
    ASSERT_TRUE(std::filesystem::exists(path + "-wal"));
    connection.reset();
    // The last connection to close checkpoints and deletes the WAL; one that could not close (a statement still
    // alive) would leave it behind.
    EXPECT_FALSE(std::filesystem::exists(path + "-wal"));
}

} // namespace
