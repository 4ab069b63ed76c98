// StateFolderLock (issue 40): a second window on the same state folder is told so instead of starting silently with
// its own server on the same database file.
#include "session/StateFolderLock.h"

#include <QCoreApplication>
#include <QDir>
#include <QTemporaryDir>

#include <gtest/gtest.h>

using onceorder::core::StateFolderLock;

TEST(StateFolderLockTest, ASecondHolderOfTheSameFolderIsRefusedWithAReasonNamingTheFolder)
{
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString state = dir.filePath(QStringLiteral("state")); // not made yet: the first start makes it
    StateFolderLock first(state);
    EXPECT_EQ(first.acquire(), QString());
    EXPECT_TRUE(QDir(state).exists());

    StateFolderLock second(state);
    const QString refusal = second.acquire();
    EXPECT_TRUE(refusal.contains(QDir::toNativeSeparators(state))) << refusal.toStdString();
    EXPECT_TRUE(refusal.contains(QString::number(QCoreApplication::applicationPid()))) << refusal.toStdString();
    EXPECT_TRUE(refusal.contains(QStringLiteral("--state"))) << refusal.toStdString();
}

TEST(StateFolderLockTest, TheFolderIsFreeAgainOnceTheFirstHolderIsGoneAndOtherFoldersAreFree)
{
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    {
        StateFolderLock first(dir.path());
        EXPECT_EQ(first.acquire(), QString());
        StateFolderLock elsewhere(dir.filePath(QStringLiteral("client-b")));
        EXPECT_EQ(elsewhere.acquire(), QString());
    }
    StateFolderLock next(dir.path());
    EXPECT_EQ(next.acquire(), QString());
}
