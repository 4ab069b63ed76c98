// StorageGuard: the engine's steps run under it, so an outbox error never leaves a step (nor reaches the event loop).
// An error that waiting mends (the outbox locked by another process past its busy timeout) is reported and the
// submission's step is scheduled again; any other (a full disk, a file size limit, a read-only or damaged file) stops
// the engine for good: from then on no step runs, so what is stored stays as it was. A child of the engine, on its
// thread; its signals are the engine's storageBroken() and storageFailed().
#pragma once

#include <QObject>
#include <QString>

#include <exception>
#include <functional>

namespace onceorder::core {

class AttemptScheduler;

class StorageGuard : public QObject
{
    Q_OBJECT

public:
    // `scheduler` runs a step again after an error that passes with time, and is stopped by one that does not.
    StorageGuard(AttemptScheduler& scheduler, QObject* parent);

    // Runs one step of the engine for submission `id` (0: none to schedule again), unless the engine has stopped.
    void run(qint64 id, const std::function<void()>& step);
    // A storage error caught outside run() (a submit): stops the engine unless it passes with time, reports it, and
    // returns the reason for the caller's refusal. The scheduler is left running (a submit schedules nothing).
    QString report(const std::exception& error);
    // Whether broken() was emitted: the engine has stopped.
    bool isBroken() const { return m_broken; }

Q_SIGNALS:
    // Waiting does not mend it: the engine has stopped. Emitted once, before failed() for the same error.
    void broken(const QString& reason);
    void failed(const QString& reason);

private:
    QString reasonFor(const std::exception& error) const;

    AttemptScheduler& m_scheduler;
    bool m_broken = false;
};

} // namespace onceorder::core
