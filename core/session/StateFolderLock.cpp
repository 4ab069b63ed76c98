#include "session/StateFolderLock.h"

#include <QCoreApplication>
#include <QDir>
#include <QLockFile>

namespace onceorder::core {

StateFolderLock::StateFolderLock(QString stateDir)
    : m_stateDir(std::move(stateDir))
{
}

StateFolderLock::~StateFolderLock() = default;

QString StateFolderLock::acquire()
{
    const QString folder = QDir::toNativeSeparators(m_stateDir);
    if (!QDir().mkpath(m_stateDir)) {
        return QCoreApplication::translate("StateFolderLock", "Cannot create the state folder %1.").arg(folder);
    }
    m_lock = std::make_unique<QLockFile>(QDir(m_stateDir).filePath(QStringLiteral("onceorder-window.lock")));
    m_lock->setStaleLockTime(0); // held as long as its process lives, however long the class runs
    if (m_lock->tryLock(0)) {
        return {};
    }
    if (m_lock->error() != QLockFile::LockFailedError) {
        const QString reason = QCoreApplication::translate("StateFolderLock",
                                                           "Cannot write a lock file in the state "
                                                           "folder %1.")
                                   .arg(folder);
        m_lock.reset();
        return reason;
    }
    qint64 pid = 0;
    QString host;
    QString application;
    m_lock->getLockInfo(&pid, &host, &application);
    m_lock.reset();
    return QCoreApplication::translate("StateFolderLock",
                                       "Another OnceOrder window (process %1) is already using the state folder %2: "
                                       "two windows on one folder would share one outbox and one server database. "
                                       "Switch to that window, or start this one with a folder of its own, e.g. "
                                       "--state %2-B --api-key demo-key-B for client B.")
        .arg(pid)
        .arg(folder);
}

} // namespace onceorder::core
