#include "submission/CrashPoint.h"

#include <QMutex>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <unistd.h>

namespace onceorder::core {

namespace {

QMutex& lock()
{
    static QMutex mutex;
    return mutex;
}

QString& armedPoint()
{
    static QString point = qEnvironmentVariable("ONCEORDER_CRASH_AT");
    return point;
}

} // namespace

void CrashPoint::arm(const QString& point)
{
    QMutexLocker locker(&lock());
    armedPoint() = point;
}

QString CrashPoint::armed()
{
    QMutexLocker locker(&lock());
    return armedPoint();
}

void CrashPoint::reached(const char* point)
{
    if (armed() == QLatin1String(point)) {
        std::fprintf(stderr, "onceorder: crashing at %s (ONCEORDER_CRASH_AT)\n", point);
        crashNow();
    }
}

void CrashPoint::crashNow()
{
    std::fflush(nullptr);
    ::kill(::getpid(), SIGKILL);
    std::_Exit(137);
}

} // namespace onceorder::core
