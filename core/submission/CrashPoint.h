// CrashPoint: lets a test (ONCEORDER_CRASH_AT=<point>) or the debug panel kill the client abruptly at a named
// point of a submission's life, as kill -9 or a power cut would. Points: after-persist (the key is stored, nothing
// sent), after-send (the request is on the wire, the response not read), after-response (the response is read,
// its result not stored).
#pragma once

#include <QString>

namespace onceorder::core {

class CrashPoint
{
public:
    // Arms a point for this process (the debug panel); an empty name disarms. The environment variable
    // ONCEORDER_CRASH_AT arms one at start.
    static void arm(const QString& point);
    static QString armed();
    // Dies here, without destructors or flushing anything but stdio, if this point is armed.
    static void reached(const char* point);
    // Dies now (the debug panel's "crash the app now").
    [[noreturn]] static void crashNow();
};

} // namespace onceorder::core
