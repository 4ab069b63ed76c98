// StateFolderLock: one window per state folder. A second `onceorder` on the same folder would start its own bundled
// server on the same database file and show the same outbox as a second "Client A"; it is told so instead. The lock
// is a QLockFile in the folder: it goes with the process, so a crashed window leaves no lock behind that counts.
#pragma once

#include <QString>

#include <memory>

class QLockFile;

namespace onceorder::core {

class StateFolderLock
{
public:
    explicit StateFolderLock(QString stateDir);
    ~StateFolderLock();
    StateFolderLock(const StateFolderLock&) = delete;
    StateFolderLock& operator=(const StateFolderLock&) = delete;

    // Makes the folder if needed and takes it for this process, without waiting. Empty when taken; otherwise what to
    // tell the user (which process holds it, and how to start a second client beside it).
    QString acquire();

private:
    QString m_stateDir;
    std::unique_ptr<QLockFile> m_lock;
};

} // namespace onceorder::core
