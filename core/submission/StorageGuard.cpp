// StorageGuard: what an outbox error does to the engine, told apart by whether waiting mends it.
#include "submission/StorageGuard.h"

#include "submission/AttemptScheduler.h"

#include <SQLiteCpp/Exception.h>
#include <sqlite3.h>

namespace onceorder::core {

namespace {

// How often a storage step that failed (the outbox locked too long) is tried again.
constexpr qint64 kStorageRetryMs = 1000;

// A storage failure that waiting mends: the outbox locked by another process for longer than the busy timeout.
bool passesWithTime(const std::exception& error)
{
    const auto* sqlite = dynamic_cast<const SQLite::Exception*>(&error);
    return sqlite && (sqlite->getErrorCode() == SQLITE_BUSY || sqlite->getErrorCode() == SQLITE_LOCKED);
}

} // namespace

StorageGuard::StorageGuard(AttemptScheduler& scheduler, QObject* parent)
    : QObject(parent)
    , m_scheduler(scheduler)
{
}

QString StorageGuard::reasonFor(const std::exception& error) const
{
    return tr("the client's state database failed: %1").arg(QString::fromUtf8(error.what()));
}

void StorageGuard::run(qint64 id, const std::function<void()>& step)
{
    if (m_broken) {
        return; // fail closed: nothing sent, nothing given up, nothing written after the outbox failed
    }
    try {
        step();
    } catch (const std::exception& error) {
        const QString reason = reasonFor(error);
        qWarning("onceorder: %s", qPrintable(reason));
        if (passesWithTime(error)) {
            Q_EMIT failed(reason);
            if (id > 0) {
                m_scheduler.schedule(id, kStorageRetryMs);
            }
            return;
        }
        // A full disk, a file size limit, a read-only or damaged file: trying again every second would loop for
        // ever, and some writes may still succeed between failures (a page reused in place), leaving the outbox
        // half-written: a give-up committed where the 201 before it was not. So the engine stops here.
        m_broken = true;
        m_scheduler.stop();
        Q_EMIT broken(reason);
        Q_EMIT failed(reason);
    }
}

QString StorageGuard::report(const std::exception& error)
{
    const QString reason = reasonFor(error);
    if (!passesWithTime(error)) {
        m_broken = true; // as in run(): nothing more is sent from an outbox that cannot record it
        Q_EMIT broken(reason);
    }
    Q_EMIT failed(reason);
    return reason;
}

} // namespace onceorder::core
