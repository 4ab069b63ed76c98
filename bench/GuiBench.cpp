// GuiBench: the window's event loop under retries, and the memory of the window and of its bundled server.
//
// Starts the client as app/main.cpp does: a ClientSession with the network conditioner, the MainWindow shown (live
// tables polling, debug panel), the real bundled onceorder-server as a child process. A 1 ms timer measures the
// gaps between its ticks (a gap longer than 1 ms is time the event loop could not react to input or paint).
//   1. rest: the window idles; then the GUI's and the server's VmRSS / VmHWM are read from /proc.
//   2. run: the debug panel's network is set to "flaky" (its own combo box and spin box), N carts, each with its own
//      cart id, go into the window's SubmissionEngine one every --spacing-ms (as the Order button does, which only
//      lets a user order the current cart), and run until every one has settled; the window updates its timeline,
//      orders list and counters from the engine's signals as in the application.
// Then it checks that every submission is Placed with its own order id and that the server's database holds
// exactly one order per cart, and prints a Markdown report. --server-db starts the bundled server on a copy of a
// given database (e.g. one with 100,000 orders). Not a test: run it with bench/run-client or bench/run.
#include "MainWindow.h"
#include "ServerTableModel.h"
#include "ServerTablesDock.h"
#include "net/NetworkConditioner.h"
#include "session/ClientSession.h"
#include "session/Translations.h"
#include "submission/Cart.h"
#include "submission/Outbox.h"
#include "submission/SubmissionEngine.h"

#include <SQLiteCpp/Database.h>
#include <SQLiteCpp/Statement.h>
#include <SQLiteCpp/Transaction.h>

#include <QApplication>
#include <QComboBox>
#include <QCommandLineParser>
#include <QDateTime>
#include <QDir>
#include <QDoubleSpinBox>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QMap>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QPaintEvent>
#include <QSet>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QThread>
#include <QTimer>
#include <QUuid>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <ctime>
#include <deque>
#include <fcntl.h>
#include <functional>
#include <memory>
#include <pthread.h>
#include <sched.h>
#include <sys/resource.h>
#include <thread>
#include <unistd.h>
#include <utility>
#include <vector>

using namespace onceorder;

namespace {

QString benchRoot()
{
    const QByteArray base = qgetenv("ONCEORDER_BENCH_DIR");
    return base.isEmpty() ? QDir::tempPath() : QString::fromLocal8Bit(base);
}

struct Memory
{
    qint64 rssKb = 0;
    qint64 hwmKb = 0;
};

Memory memoryOf(qint64 pid)
{
    Memory memory;
    QFile status(QStringLiteral("/proc/%1/status").arg(pid));
    if (!status.open(QIODevice::ReadOnly)) {
        return memory;
    }
    for (const QByteArray& line : status.readAll().split('\n')) {
        const QList<QByteArray> fields = line.simplified().split(' ');
        if (fields.size() >= 2 && fields[0] == "VmRSS:") {
            memory.rssKb = fields[1].toLongLong();
        } else if (fields.size() >= 2 && fields[0] == "VmHWM:") {
            memory.hwmKb = fields[1].toLongLong();
        }
    }
    return memory;
}

// User + system CPU of a process so far, in milliseconds (fields 14 and 15 of /proc/PID/stat).
double cpuMs(qint64 pid)
{
    QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
    if (!stat.open(QIODevice::ReadOnly)) {
        return 0;
    }
    const QByteArray text = stat.readAll();
    // The command name (field 2) may contain spaces; the fields after it start after the last ')'.
    const QList<QByteArray> fields = text.mid(text.lastIndexOf(')') + 2).split(' ');
    const double ticks = fields.value(11).toDouble() + fields.value(12).toDouble();
    return ticks * 1000.0 / static_cast<double>(sysconf(_SC_CLK_TCK));
}

// The bundled server: the child process of this one (BundledServer keeps its QProcess to itself).
qint64 childPid()
{
    const qint64 self = QCoreApplication::applicationPid();
    const QStringList entries = QDir(QStringLiteral("/proc")).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    for (const QString& entry : entries) {
        bool numeric = false;
        const qint64 pid = entry.toLongLong(&numeric);
        QFile stat(QStringLiteral("/proc/%1/stat").arg(entry));
        if (!numeric || !stat.open(QIODevice::ReadOnly)) {
            continue;
        }
        const QByteArray text = stat.readAll();
        const QList<QByteArray> fields = text.mid(text.lastIndexOf(')') + 2).split(' ');
        if (fields.value(1).toLongLong() == self) {
            return pid;
        }
    }
    return 0;
}

// Runs the event loop (a real QEventLoop, as QApplication::exec does; no sleeping between polls) until done() holds
// or timeoutMs passes. Returns whether done() held.
bool runUntil(const std::function<bool()>& done, int timeoutMs)
{
    if (done()) {
        return true;
    }
    QEventLoop loop;
    QTimer check;
    check.setInterval(20);
    QObject::connect(&check, &QTimer::timeout, &loop, [&] {
        if (done()) {
            loop.exit(0);
        }
    });
    QTimer::singleShot(timeoutMs, &loop, [&loop] { loop.exit(1); });
    check.start();
    return loop.exec() == 0;
}

void idle(int ms)
{
    runUntil([] { return false; }, ms);
}

qint64 monotonicNs()
{
    timespec now {};
    clock_gettime(CLOCK_MONOTONIC, &now);
    return static_cast<qint64>(now.tv_sec) * 1'000'000'000 + now.tv_nsec;
}

qint64 threadCpuNs()
{
    timespec cpu {};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &cpu);
    return static_cast<qint64>(cpu.tv_sec) * 1'000'000'000 + cpu.tv_nsec;
}

// How long the calling thread has been runnable without a CPU so far (Linux: the second field of
// /proc/thread-self/schedstat, the time it spent on a run queue; 0 where the kernel does not keep it). The file is
// opened once per thread and read again from its start.
qint64 threadRunDelayNs()
{
    thread_local const int fd = ::open("/proc/thread-self/schedstat", O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        return 0;
    }
    char text[96] = {};
    if (::pread(fd, text, sizeof text - 1, 0) <= 0) {
        return 0;
    }
    unsigned long long cpuNs = 0;
    unsigned long long delayNs = 0;
    return std::sscanf(text, "%llu %llu", &cpuNs, &delayNs) == 2 ? static_cast<qint64>(delayNs) : 0;
}

// What the calling thread has had of the CPU so far, how long it waited for one while runnable, and how often it
// gave it up: voluntarily (it waited for something: a lock, I/O, the event loop's poll) or not (the scheduler
// preempted it for another thread).
struct ThreadClock
{
    qint64 cpuNs = 0;
    qint64 runDelayNs = 0;
    long voluntary = 0;
    long involuntary = 0;

    static ThreadClock now()
    {
        ThreadClock clock;
        clock.cpuNs = threadCpuNs();
        clock.runDelayNs = threadRunDelayNs();
        rusage usage {};
        getrusage(RUSAGE_THREAD, &usage);
        clock.voluntary = usage.ru_nvcsw;
        clock.involuntary = usage.ru_nivcsw;
        return clock;
    }
};

// The window's thread's event deliveries that took long (--trace-ms): which object got which event, for how long
// and with how much of the CPU. Only outermost deliveries count (a delivery inside another is part of it).
class TracingApplication : public QApplication
{
public:
    struct Delivery
    {
        qint64 startNs; // monotonic
        qint64 ns;
        qint64 cpuNs;
        QByteArray what; // "ClassName(objectName) EventType"
    };

    using QApplication::QApplication;

    struct Painted
    {
        qint64 paints = 0;
        qint64 pixels = 0;
    };

    void setThresholdNs(qint64 ns) { m_thresholdNs = ns; }
    const std::vector<Delivery>& deliveries() const { return m_deliveries; }
    // Paint events per widget since the last call, then forgotten.
    QMap<QByteArray, Painted> takePainted() { return std::exchange(m_painted, {}); }

    bool notify(QObject* receiver, QEvent* event) override
    {
        if (m_thresholdNs > 0 && event->type() == QEvent::Paint && receiver->isWidgetType()) {
            // What gets repainted, and how much of it: pixels per widget class and object name.
            const QRegion& region = static_cast<QPaintEvent*>(event)->region();
            qint64 pixels = 0;
            for (const QRect& rect : region) {
                pixels += static_cast<qint64>(rect.width()) * rect.height();
            }
            Painted& painted = m_painted[describe(receiver)];
            ++painted.paints;
            painted.pixels += pixels;
        }
        if (m_thresholdNs <= 0 || QThread::currentThread() != thread() || m_depth > 0) {
            return QApplication::notify(receiver, event);
        }
        const qint64 start = monotonicNs();
        const qint64 cpu = threadCpuNs();
        const int type = event->type();
        ++m_depth;
        const bool result = QApplication::notify(receiver, event);
        --m_depth;
        const qint64 ns = monotonicNs() - start;
        if (ns >= m_thresholdNs) {
            // The receiver may have deleted itself (deleteLater): only its address is safe to keep until then, so
            // the name is taken only when it still exists (a QPointer would cost on every delivery).
            QByteArray what = type == QEvent::DeferredDelete ? QByteArray("(deleted)") : describe(receiver);
            what += ' ' + eventName(type);
            m_deliveries.push_back(Delivery {start, ns, threadCpuNs() - cpu, what});
        }
        return result;
    }

private:
    static QByteArray describe(QObject* receiver)
    {
        QByteArray name = receiver->metaObject()->className();
        if (!receiver->objectName().isEmpty()) {
            name += '(' + receiver->objectName().toUtf8() + ')';
        }
        return name;
    }
    static QByteArray eventName(int type)
    {
        switch (type) {
        case QEvent::MetaCall:
            return "MetaCall (a queued signal or invokeMethod)";
        case QEvent::Timer:
            return "Timer";
        case QEvent::UpdateRequest:
            return "UpdateRequest (paint)";
        case QEvent::Paint:
            return "Paint";
        case QEvent::LayoutRequest:
            return "LayoutRequest";
        case QEvent::SockAct:
            return "SockAct (socket readable)";
        case QEvent::DeferredDelete:
            return "DeferredDelete";
        default:
            return "event " + QByteArray::number(type);
        }
    }

    qint64 m_thresholdNs = 0;
    int m_depth = 0;
    std::vector<Delivery> m_deliveries;
    QMap<QByteArray, Painted> m_painted;
};

// Measures the event loop: a 1 ms timer records the time between consecutive ticks, and how much of the CPU the
// window's thread had in between.
class StallMeter : public QObject
{
public:
    struct Gap
    {
        qint64 atNs; // when the late tick came, from start()
        qint64 ns; // time since the tick before it
        qint64 cpuNs; // the window's thread's CPU time in the gap
        qint64 runDelayNs; // runnable in the gap but without a CPU (the gap less this and its CPU: it slept)
        long voluntary; // times it waited (poll, lock, I/O) in the gap
        long involuntary; // times the scheduler preempted it in the gap
        qint64 monotonicEndNs; // the tick, on the clock TracingApplication uses
        int cpu; // the CPU the window's thread ran the tick on (where it woke)
        int cpuBefore; // the CPU of the tick before (where it went to sleep, if it slept)
    };

    StallMeter()
    {
        m_timer.setTimerType(Qt::PreciseTimer);
        m_timer.setInterval(1);
        connect(&m_timer, &QTimer::timeout, this, [this] {
            const qint64 now = m_clock.nsecsElapsed();
            const ThreadClock clock = ThreadClock::now();
            const int cpu = sched_getcpu();
            m_gaps.push_back(Gap {now, now - m_last, clock.cpuNs - m_lastClock.cpuNs,
                                  clock.runDelayNs - m_lastClock.runDelayNs, clock.voluntary - m_lastClock.voluntary,
                                  clock.involuntary - m_lastClock.involuntary, monotonicNs(), cpu, m_lastCpu});
            m_last = now;
            m_lastClock = clock;
            m_lastCpu = cpu;
        });
    }
    void start()
    {
        m_clock.start();
        m_last = 0;
        m_lastClock = ThreadClock::now();
        m_lastCpu = sched_getcpu();
        m_timer.start();
    }
    void stop() { m_timer.stop(); }
    qint64 nowNs() const { return m_clock.nsecsElapsed(); }
    std::vector<Gap> between(qint64 fromNs, qint64 toNs) const
    {
        std::vector<Gap> gaps;
        for (const Gap& gap : m_gaps) {
            if (gap.atNs > fromNs && gap.atNs <= toNs) {
                gaps.push_back(gap);
            }
        }
        return gaps;
    }

private:
    QTimer m_timer;
    QElapsedTimer m_clock;
    qint64 m_last = 0;
    ThreadClock m_lastClock;
    int m_lastCpu = -1;
    // A deque, not a vector: a vector's doubling copied every gap so far inside one tick (12 ms at 65,536 ticks, 52 ms
    // at 262,144), a stall of the meter's own that looked like the window's at 33, 69, 141 and 285 s of a run. About
    // 64 bytes a tick, in the GUI's VmRSS after a run (6.4 MB for 100 s).
    std::deque<Gap> m_gaps;
};

// The machine's own floor: one thread of this process per CPU, pinned to it, that does nothing but sleep 1 ms at a
// time (nice 0, as the window's thread) and keeps every wake-up that came more than 1 ms late. A window gap during
// which the idle thread of a CPU was also held off (a VM's vCPU not running, its timer delivered late) is not the
// window's doing; the rest of it is. One per CPU, because a late timer on one vCPU leaves the other's thread on time:
// the window's thread, asleep in its event loop's poll on the first, wakes late with it.
class IdleProbe
{
public:
    struct Late
    {
        qint64 fromNs; // when it should have woken (CLOCK_MONOTONIC)
        qint64 toNs; // when it did
    };

    IdleProbe()
    {
        const int cpus = std::max(1, static_cast<int>(sysconf(_SC_NPROCESSORS_ONLN)));
        m_late.resize(static_cast<size_t>(cpus));
        for (int cpu = 0; cpu < cpus; ++cpu) {
            m_threads.emplace_back([this, cpu] { run(cpu); });
        }
    }
    ~IdleProbe() { stop(); }
    void stop()
    {
        m_stop = true;
        for (std::thread& thread : m_threads) {
            if (thread.joinable()) {
                thread.join();
            }
        }
    }
    int cpus() const { return static_cast<int>(m_late.size()); }
    // After stop(): how long the idle thread of a CPU (all CPUs: -1) was held off within [fromNs, toNs]
    // (CLOCK_MONOTONIC), at most.
    qint64 heldOffWithin(qint64 fromNs, qint64 toNs, int cpu = -1) const
    {
        qint64 longest = 0;
        for (int i = 0; i < cpus(); ++i) {
            if (cpu >= 0 && i != cpu) {
                continue;
            }
            for (const Late& late : m_late[static_cast<size_t>(i)]) {
                longest = std::max(longest, std::min(late.toNs, toNs) - std::max(late.fromNs, fromNs));
            }
        }
        return longest;
    }

private:
    void run(int cpu)
    {
        cpu_set_t set;
        CPU_ZERO(&set);
        CPU_SET(cpu, &set);
        pthread_setaffinity_np(pthread_self(), sizeof set, &set); // if refused, it measures wherever it runs
        std::vector<Late>& late = m_late[static_cast<size_t>(cpu)];
        const timespec oneMs {0, 1'000'000};
        qint64 before = monotonicNs();
        while (!m_stop) {
            nanosleep(&oneMs, nullptr);
            const qint64 now = monotonicNs();
            if (now - before > 2'000'000) {
                late.push_back(Late {before + 1'000'000, now});
            }
            before = now;
        }
    }

    std::atomic<bool> m_stop {false};
    std::vector<std::vector<Late>> m_late; // per CPU; each written by its thread alone, read only after stop()
    std::vector<std::thread> m_threads;
};

double percentileMs(std::vector<qint64> ns, double p)
{
    if (ns.empty()) {
        return 0;
    }
    std::sort(ns.begin(), ns.end());
    const auto index = static_cast<size_t>(p * static_cast<double>(ns.size() - 1) + 0.5);
    return static_cast<double>(ns[std::min(index, ns.size() - 1)]) / 1e6;
}

// A gap less the longest the machine held off, within it, the idle thread of a CPU the window's thread was on (the
// one it went to sleep on and the one it woke on; a late timer on the first can wake it on the second): what is left
// is the window's process's own (its work, its waits, its other threads' CPU).
qint64 ownShareNs(const StallMeter::Gap& gap, const IdleProbe& idle)
{
    const qint64 from = gap.monotonicEndNs - gap.ns;
    qint64 held = 0;
    for (const int cpu : {gap.cpuBefore, gap.cpu}) {
        held = std::max(held, idle.heldOffWithin(from, gap.monotonicEndNs, cpu >= 0 && cpu < idle.cpus() ? cpu : -1));
    }
    return gap.ns - held;
}

void printGapRow(const char* phase, const std::vector<StallMeter::Gap>& gaps, qint64 fromNs, qint64 toNs,
                 const IdleProbe& idle)
{
    std::vector<qint64> ns;
    int over16 = 0;
    int over100 = 0;
    qint64 workMax = 0;
    qint64 idleMax = 0;
    qint64 ownMax = 0;
    for (const auto& gap : gaps) {
        ns.push_back(gap.ns);
        over16 += gap.ns > 16'000'000 ? 1 : 0;
        over100 += gap.ns > 100'000'000 ? 1 : 0;
        workMax = std::max(workMax, gap.cpuNs);
        idleMax = std::max(idleMax, idle.heldOffWithin(gap.monotonicEndNs - gap.ns, gap.monotonicEndNs));
        ownMax = std::max(ownMax, ownShareNs(gap, idle));
    }
    std::printf("| %s | %.1f | %zu | %.2f | %.2f | %.2f | %.1f | %d | %d | %.1f | %.1f | %.1f |\n", phase,
                static_cast<double>(toNs - fromNs) / 1e9, ns.size(), percentileMs(ns, 0.5), percentileMs(ns, 0.99),
                percentileMs(ns, 0.999), percentileMs(ns, 1.0), over16, over100, static_cast<double>(workMax) / 1e6,
                static_cast<double>(idleMax) / 1e6, static_cast<double>(ownMax) / 1e6);
}

// The longest gaps (sorted, longest first) with what the window's thread did in them: its CPU time, how often it
// waited or was preempted, and the event deliveries that overlapped the gap (TracingApplication, --trace-ms).
void printLongestGaps(const std::vector<StallMeter::Gap>& worst, qint64 runFromNs,
                      const std::vector<TracingApplication::Delivery>& deliveries, const IdleProbe& idle)
{
    std::printf("\nThe longest gaps of the run: the window's thread's CPU in the gap, how long it was runnable but had "
                "no CPU (its run-queue wait, /proc/thread-self/schedstat; the rest of the gap it slept: in the event "
                "loop's poll, on a lock or on I/O), how often it waited (voluntary switches) or was preempted "
                "(involuntary), its event deliveries that overlapped the gap (duration / CPU, ms), and how long the "
                "idle thread pinned to each CPU was held off in it (CPU 0 / CPU 1 / ...):\n\n");
    std::printf("| at s | gap ms | thread CPU ms | runnable without a CPU ms | waited | preempted | "
                "CPU at the tick before / at this one | idle thread held off ms | gap less the machine's hold ms | "
                "deliveries in the gap | ends at (CLOCK_MONOTONIC, s; for perf record -k CLOCK_MONOTONIC) |\n");
    std::printf("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|\n");
    for (size_t i = 0; i < std::min<size_t>(12, worst.size()); ++i) {
        const StallMeter::Gap& gap = worst[i];
        const qint64 from = gap.monotonicEndNs - gap.ns;
        QStringList inGap;
        for (const auto& delivery : deliveries) {
            if (delivery.startNs < gap.monotonicEndNs && delivery.startNs + delivery.ns > from) {
                inGap.append(QStringLiteral("%1 / %2 %3")
                                 .arg(static_cast<double>(delivery.ns) / 1e6, 0, 'f', 1)
                                 .arg(static_cast<double>(delivery.cpuNs) / 1e6, 0, 'f', 1)
                                 .arg(QString::fromUtf8(delivery.what)));
            }
        }
        QStringList heldOff;
        for (int cpu = 0; cpu < idle.cpus(); ++cpu) {
            heldOff.append(
                QString::number(static_cast<double>(idle.heldOffWithin(from, gap.monotonicEndNs, cpu)) / 1e6, 'f', 1));
        }
        std::printf("| %.2f | %.1f | %.1f | %.1f | %ld | %ld | %d / %d | %s | %.1f | %s | %.6f |\n",
                    static_cast<double>(gap.atNs - runFromNs) / 1e9, static_cast<double>(gap.ns) / 1e6,
                    static_cast<double>(gap.cpuNs) / 1e6, static_cast<double>(gap.runDelayNs) / 1e6, gap.voluntary,
                    gap.involuntary, gap.cpuBefore, gap.cpu, qPrintable(heldOff.join(u" / ")),
                    static_cast<double>(ownShareNs(gap, idle)) / 1e6,
                    inGap.isEmpty() ? "none over the threshold" : qPrintable(inGap.join(u"; ")),
                    static_cast<double>(gap.monotonicEndNs) / 1e9);
    }
}

// The operator sets an absolute stock (SPEC: PUT /products/{id}/stock), so a hundred carts never run a product dry.
bool raiseStock(const QUrl& server, const QStringList& products)
{
    QNetworkAccessManager network;
    int answered = 0;
    int ok = 0;
    for (const QString& product : products) {
        QUrl url = server;
        url.setPath(QStringLiteral("/products/%1/stock").arg(product));
        QNetworkRequest request(url);
        request.setRawHeader("Authorization", "Bearer demo-key-admin");
        request.setHeader(QNetworkRequest::ContentTypeHeader, QStringLiteral("application/json"));
        QNetworkReply* reply = network.put(request, QByteArray(R"({"stock":1000000000})"));
        QObject::connect(reply, &QNetworkReply::finished, reply, [&answered, &ok, reply] {
            ++answered;
            ok += reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt() == 200 ? 1 : 0;
            reply->deleteLater();
        });
    }
    runUntil([&] { return answered == products.size(); }, 10'000);
    return ok == products.size();
}

// What the window asked the server during a phase: requests per method and path, from the bundled server's request
// log (one JSON line per request, beside its database), read from `offset` on.
QMap<QString, int> requestsInLog(const QString& logPath, qint64 offset)
{
    QMap<QString, int> counts;
    QFile log(logPath);
    if (!log.open(QIODevice::ReadOnly) || !log.seek(offset)) {
        return counts;
    }
    for (const QByteArray& line : log.readAll().split('\n')) {
        const QJsonObject entry = QJsonDocument::fromJson(line).object();
        if (!entry.isEmpty()) {
            ++counts[entry.value("method").toString() + u' ' + entry.value("path").toString()];
        }
    }
    return counts;
}

QString kb(qint64 value)
{
    return QStringLiteral("%1 MB").arg(static_cast<double>(value) / 1024.0, 0, 'f', 1);
}

} // namespace

int main(int argc, char** argv)
{
    QElapsedTimer sinceMain;
    sinceMain.start();
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) {
        qputenv("QT_QPA_PLATFORM", "offscreen");
    }
    TracingApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("onceorder-gui-bench"));
    core::Translations::install(app, QString()); // as app/main.cpp does (the system locale)

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("The window's longest event-loop stall while submissions retry "
                                                    "through a flaky network, and the memory of window and server."));
    parser.addHelpOption();
    const QCommandLineOption submissionsOption(QStringLiteral("submissions"), QStringLiteral("carts to order (100)"),
                                               QStringLiteral("N"), QStringLiteral("100"));
    const QCommandLineOption dropOption(QStringLiteral("drop"),
                                        QStringLiteral("the flaky network's failure probability in % (50)"),
                                        QStringLiteral("PERCENT"), QStringLiteral("50"));
    const QCommandLineOption spacingOption(QStringLiteral("spacing-ms"),
                                           QStringLiteral("time between two new carts (20; 0: all in one go)"),
                                           QStringLiteral("MS"), QStringLiteral("20"));
    const QCommandLineOption restOption(QStringLiteral("rest-ms"), QStringLiteral("idle time before measuring (5000)"),
                                        QStringLiteral("MS"), QStringLiteral("5000"));
    const QCommandLineOption timeoutOption(QStringLiteral("timeout-s"),
                                           QStringLiteral("give up if not all settled after this (900)"),
                                           QStringLiteral("S"), QStringLiteral("900"));
    const QCommandLineOption serverDbOption(QStringLiteral("server-db"),
                                            QStringLiteral("start the bundled server on a copy of this database"),
                                            QStringLiteral("PATH"));
    const QCommandLineOption pendingOption(
        QStringLiteral("pending"),
        QStringLiteral("pending submissions an earlier run left in the outbox, resumed at start-up (0)"),
        QStringLiteral("N"), QStringLiteral("0"));
    const QCommandLineOption traceOption(
        QStringLiteral("trace-ms"),
        QStringLiteral("name the window's event deliveries that took this long, beside the longest gaps (3; 0: off)"),
        QStringLiteral("MS"), QStringLiteral("3"));
    parser.addOptions({submissionsOption, dropOption, spacingOption, restOption, timeoutOption, serverDbOption,
                       pendingOption, traceOption});
    parser.process(app);
    const int submissions = parser.value(submissionsOption).toInt();
    const double dropPercent = parser.value(dropOption).toDouble();
    const int spacingMs = parser.value(spacingOption).toInt();
    const int restMs = parser.value(restOption).toInt();
    const int timeoutS = parser.value(timeoutOption).toInt();
    app.setThresholdNs(static_cast<qint64>(parser.value(traceOption).toDouble() * 1e6));

    QTemporaryDir state(benchRoot() + QStringLiteral("/onceorder-gui-bench-XXXXXX"));
    const QString serverDb = QDir(state.path()).filePath(QStringLiteral("server.db"));
    if (parser.isSet(serverDbOption) && !QFile::copy(parser.value(serverDbOption), serverDb)) {
        std::fprintf(stderr, "gui-bench: cannot copy %s\n", qPrintable(parser.value(serverDbOption)));
        return 2;
    }

    core::ClientOptions options;
    options.stateDir = state.path();
    const QStringList products = {QStringLiteral("kniha"), QStringLiteral("hrnek"), QStringLiteral("propiska")};
    const int leftPending = parser.value(pendingOption).toInt();
    if (leftPending > 0) {
        // As a crashed run leaves them: pending for the bundled server, never attempted; one commit for all.
        core::Outbox outbox(state.path());
        const auto batch = outbox.batch();
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        for (int i = 0; i < leftPending; ++i) {
            core::Cart cart(core::Cart::newCartId());
            cart.add(products.at(i % products.size()), 1);
            core::Submission submission;
            submission.key = QUuid::createUuid().toString(QUuid::WithoutBraces);
            submission.cartId = cart.cartId();
            submission.body = cart.toRequestBody();
            submission.path = cart.requestPath();
            submission.target = QUrl(QStringLiteral("bundled"));
            submission.createdMs = now;
            submission.deadlineMs = now + 600'000;
            outbox.create(submission, options.apiKey);
        }
        batch->commit();
    }
    const qint64 sessionFromMs = sinceMain.elapsed();
    core::ClientSession session(options);
    session.enableConditioner(); // as app/main.cpp: the debug panel's network controls act on it
    session.useWorkerThread(); // as app/main.cpp: the engine and the conditioner off the window's thread
    ui::MainWindow window(&session);
    window.show();
    qint64 firstTickMs = -1;
    QTimer::singleShot(0, &window, [&] { firstTickMs = sinceMain.elapsed(); });

    StallMeter meter;
    meter.start();
    IdleProbe idleThread;
    bool ready = false;
    QObject::connect(&session, &core::ClientSession::serverReady, &window, [&ready] { ready = true; });
    session.start();
    auto* productCombo = window.findChild<QComboBox*>(QStringLiteral("productCombo"));
    if (!runUntil([&] { return ready && productCombo->count() == 3; }, 60'000)) {
        std::fprintf(stderr, "gui-bench: the window did not load the catalogue\n");
        return 1;
    }
    const qint64 startedNs = meter.nowNs();
    const qint64 catalogueMs = sinceMain.elapsed();
    const QUrl serverUrl = session.bundledServer()->url();
    if (!raiseStock(serverUrl, products)) {
        std::fprintf(stderr, "gui-bench: cannot set the stock\n");
        return 1;
    }
    const qint64 self = QCoreApplication::applicationPid();
    const qint64 server = childPid();
    const double serverRestCpu = cpuMs(server);

    // 1. Rest: the window is up, the live tables poll, nothing is ordered.
    const qint64 restFromNs = meter.nowNs();
    idle(restMs);
    const qint64 restToNs = meter.nowNs();
    const QString pendingAtRest = window.findChild<QLabel*>(QStringLiteral("pendingLabel"))->text();
    const Memory guiRest = memoryOf(self);
    const Memory serverRest = memoryOf(server);
    const double serverIdleCpuMs = cpuMs(server) - serverRestCpu;

    // 2. Run: the debug panel's network goes flaky, the carts go into the window's engine.
    auto* probability = window.findChild<QDoubleSpinBox*>(QStringLiteral("networkProbabilitySpin"));
    auto* modeCombo = window.findChild<QComboBox*>(QStringLiteral("networkModeCombo"));
    auto* conditionerLabel = window.findChild<QLabel*>(QStringLiteral("conditionerLabel"));
    const QString passLabel = conditionerLabel->text();
    const qint64 switchFromNs = meter.nowNs();
    probability->setValue(dropPercent);
    modeCombo->setCurrentIndex(modeCombo->findData(QStringLiteral("flaky")));
    // The conditioner runs on the engine's thread: its mode and counters are read there (outside the measurement).
    core::NetworkConditioner* conditioner = session.conditioner();
    if (!runUntil(
            [&] {
                return session.onEngineThread([conditioner] { return conditioner->mode(); }) ==
                    core::ConditionerMode::Flaky;
            },
            5000)) {
        std::fprintf(stderr, "gui-bench: the network did not go flaky\n");
        return 1;
    }
    // The window hears the switch (its status bar, the debug panel) before the carts go in: a teacher's click, measured
    // on its own row rather than inside the first cart's.
    runUntil([&] { return conditionerLabel->text() != passLabel; }, 5000);
    idle(500);
    const qint64 switchToNs = meter.nowNs();
    session.onEngineThread([conditioner] { conditioner->resetCounters(); });
    // What settles is heard as the window hears it: the engine's signals, queued to this thread. Only our carts
    // count (pending ones an earlier run left, --pending, settle too).
    QSet<QString> cartIds;
    QList<qint64> ids;
    int settled = 0;
    QObject::connect(&session, &core::ClientSession::settled, &window, [&](const core::Submission& submission) {
        if (cartIds.contains(submission.cartId) && !ids.contains(submission.id)) {
            ids.append(submission.id);
            ++settled;
        }
    });
    int submitted = 0;
    const QString serverLog = QDir(state.path()).filePath(QStringLiteral("server.log"));
    const qint64 logOffset = QFileInfo(serverLog).size();
    const double guiCpuBefore = cpuMs(self);
    const double serverCpuBefore = cpuMs(server);
    const qint64 runFromNs = meter.nowNs();
    app.takePainted(); // what the start and the rest painted: not the run's
    qint64 submittedNs = runFromNs;
    QTimer submitter;
    submitter.setInterval(spacingMs);
    QObject::connect(&submitter, &QTimer::timeout, &window, [&] {
        // With --spacing-ms 0 every cart goes in from one callback: the burst a resume of N carts would make.
        do {
            const int i = submitted++;
            core::Cart cart(core::Cart::newCartId());
            cart.add(products.at(i % products.size()), 1 + i % 2);
            cartIds.insert(cart.cartId());
            session.submit(cart); // queued to the engine's thread, as the Order button does
        } while (spacingMs == 0 && submitted < submissions);
        if (submitted >= submissions) {
            submitter.stop();
            submittedNs = meter.nowNs();
        }
    });
    if (submissions > 0) {
        submitter.start();
    }
    const bool allSettled =
        runUntil([&] { return submitted >= submissions && settled >= submissions; }, timeoutS * 1000);
    const qint64 settledNs = meter.nowNs();
    const QMap<QByteArray, TracingApplication::Painted> painted = app.takePainted();
    const double guiCpuRun = cpuMs(self) - guiCpuBefore;
    const double serverCpuRun = cpuMs(server) - serverCpuBefore;
    // The window refreshes its orders list, the catalogue and the live tables after the last outcome: let them land.
    idle(2000);
    const qint64 runToNs = meter.nowNs();
    meter.stop();
    idleThread.stop();
    const Memory guiAfter = memoryOf(self);
    const Memory serverAfter = memoryOf(server);

    // Checks: every submission placed with its own order id; one order per cart in the server's database.
    int placed = 0;
    int replayed = 0;
    int attempts = 0;
    int maxAttempts = 0;
    QSet<qint64> orderIds;
    for (const qint64 id : ids) {
        const auto submission = session.submission(id); // the session's read connection, after the run
        if (!submission) {
            continue;
        }
        attempts += static_cast<int>(submission->attempts.size());
        maxAttempts = std::max(maxAttempts, static_cast<int>(submission->attempts.size()));
        if (submission->state == core::SubmissionState::Placed) {
            ++placed;
            orderIds.insert(submission->orderId);
            replayed += submission->replayed ? 1 : 0;
        }
    }
    qint64 serverOrders = 0;
    qint64 ourOrders = 0;
    qint64 cartsOrderedTwice = 0;
    {
        SQLite::Database db(serverDb.toStdString(), SQLite::OPEN_READONLY);
        serverOrders = db.execAndGet("SELECT count(*) FROM orders").getInt64();
        SQLite::Statement perCart(db,
                                  "SELECT cart_id, count(*) FROM orders WHERE cart_id IS NOT NULL GROUP BY cart_id");
        while (perCart.executeStep()) {
            if (cartIds.contains(QString::fromStdString(perCart.getColumn(0).getString()))) {
                ourOrders += perCart.getColumn(1).getInt64();
                cartsOrderedTwice += perCart.getColumn(1).getInt64() > 1 ? 1 : 0;
            }
        }
    }
    const bool ok = allSettled && placed == submissions && orderIds.size() == submissions && ourOrders == submissions &&
        cartsOrderedTwice == 0;
    const core::ConditionerCounters counters =
        session.onEngineThread([conditioner] { return conditioner->counters(); });
    const double runSeconds = static_cast<double>(settledNs - runFromNs) / 1e9;

    std::printf("### GUI event loop and memory (onceorder-gui-bench)\n\n");
    std::printf("%d carts, one every %d ms, network flaky at %.0f %%, %s; server database %s (%lld orders at the "
                "end), live tables polling; QT_QPA_PLATFORM=%s\n\n",
                submissions, spacingMs, dropPercent, parser.isSet(serverDbOption) ? "copied database" : "fresh",
                qPrintable(serverDb), static_cast<long long>(serverOrders), qgetenv("QT_QPA_PLATFORM").constData());
    std::printf("Start-up (%d pending submissions left in the outbox): session created %lld ms after main(), the "
                "window shown and its event loop turning at %lld ms, the catalogue loaded at %lld ms; after the rest "
                "the window shows \"%s\"\n\n",
                leftPending, static_cast<long long>(sessionFromMs), static_cast<long long>(firstTickMs),
                static_cast<long long>(catalogueMs), qPrintable(pendingAtRest));
    std::printf("Gaps between the ticks of a 1 ms timer (ms; a gap is the longest the window could not react). The "
                "last three columns tell the window's doing from the machine's: the most CPU the window's thread used "
                "within one gap (its own work; the rest of a gap it waited for a CPU or a wake-up); the longest an "
                "idle thread of this process (one pinned to each CPU, sleeping 1 ms at a time, nice 0 as the window) "
                "was held off within one of the window's gaps; and the longest gap less the time the idle thread of "
                "a CPU the window was on (slept on, woke on) was held off within it (the process's own share):\n\n");
    std::printf("| phase | seconds | ticks | p50 | p99 | p99.9 | max | > 16 ms | > 100 ms | window's work in a gap, "
                "max | idle thread held off, max | gap less the machine's hold, max |\n");
    std::printf("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    printGapRow("start-up (server start, first paint, catalogue)", meter.between(0, startedNs), 0, startedNs,
                idleThread);
    printGapRow("rest (window idle, live tables polling)", meter.between(restFromNs, restToNs), restFromNs, restToNs,
                idleThread);
    printGapRow("network switched to flaky (the debug panel's combo box), + 0.5 s",
                meter.between(switchFromNs, switchToNs), switchFromNs, switchToNs, idleThread);
    printGapRow("run: carts going in", meter.between(runFromNs, submittedNs), runFromNs, submittedNs, idleThread);
    printGapRow("run: retrying until the last settled", meter.between(submittedNs, settledNs), submittedNs, settledNs,
                idleThread);
    printGapRow("run: whole (+2 s for the last refreshes)", meter.between(runFromNs, runToNs), runFromNs, runToNs,
                idleThread);
    std::vector<StallMeter::Gap> worst = meter.between(runFromNs, runToNs);
    std::sort(worst.begin(), worst.end(), [](const auto& a, const auto& b) { return a.ns > b.ns; });
    std::printf("\nLongest gaps of the run (ms, at seconds after the first cart):");
    for (size_t i = 0; i < std::min<size_t>(8, worst.size()); ++i) {
        std::printf(" %.1f @%.2f s%s", static_cast<double>(worst[i].ns) / 1e6,
                    static_cast<double>(worst[i].atNs - runFromNs) / 1e9, i + 1 < 8 ? "," : "");
    }
    std::printf("\n");
    printLongestGaps(worst, runFromNs, app.deliveries(), idleThread);
    if (!painted.isEmpty()) {
        std::printf("\nWhat the window repainted during the run (paint events per widget, most pixels first):\n\n");
        std::printf("| widget | paints | megapixels |\n|---|---:|---:|\n");
        QList<QByteArray> widgets = painted.keys();
        std::sort(widgets.begin(), widgets.end(), [&painted](const QByteArray& a, const QByteArray& b) {
            return painted.value(a).pixels > painted.value(b).pixels;
        });
        for (qsizetype i = 0; i < std::min<qsizetype>(15, widgets.size()); ++i) {
            std::printf("| %s | %lld | %.1f |\n", widgets[i].constData(),
                        static_cast<long long>(painted.value(widgets[i]).paints),
                        static_cast<double>(painted.value(widgets[i]).pixels) / 1e6);
        }
    }
    std::printf("\n| run | value |\n|---|---:|\n");
    std::printf("| settled | %d of %d in %.1f s%s |\n", settled, submissions, runSeconds,
                allSettled ? "" : " (TIMED OUT)");
    std::printf("| placed, distinct order ids | %d, %lld |\n", placed, static_cast<long long>(orderIds.size()));
    std::printf("| placed by a replay (the first answer was dropped) | %d |\n", replayed);
    std::printf("| attempts (outbox) | %d (%.2f per cart, max %d) |\n", attempts,
                submissions ? static_cast<double>(attempts) / submissions : 0.0, maxAttempts);
    std::printf("| attempts per second | %.1f |\n", runSeconds > 0 ? attempts / runSeconds : 0.0);
    std::printf("| conditioner: requests forwarded, responses dropped, connections | %d, %d, %d |\n",
                counters.requestsForwarded, counters.responsesDropped, counters.connectionsAccepted);
    std::printf("| server orders for these carts, carts ordered twice | %lld, %lld |\n",
                static_cast<long long>(ourOrders), static_cast<long long>(cartsOrderedTwice));
    std::printf("| GUI process CPU during the run (all threads), per attempt | %.0f ms, %.2f ms |\n", guiCpuRun,
                attempts ? guiCpuRun / attempts : 0.0);
    std::printf("| server CPU during the run, at rest per second | %.0f ms, %.1f ms/s |\n", serverCpuRun,
                restMs ? serverIdleCpuMs * 1000.0 / restMs : 0.0);
    const QMap<QString, int> requests = requestsInLog(serverLog, logOffset);
    QStringList requestCounts;
    for (auto it = requests.cbegin(); it != requests.cend(); ++it) {
        requestCounts.append(QStringLiteral("%1 %2").arg(it.key()).arg(it.value()));
    }
    std::printf("| requests the server answered during the run (its log) | %s |\n",
                qPrintable(requestCounts.join(QStringLiteral(", "))));
    std::printf("| what the window shows at the end: its orders list, the live orders table | %d rows, %d rows |\n",
                window.findChild<QTableWidget*>(QStringLiteral("ordersTable"))->rowCount(),
                window.serverTablesDock()->ordersModel()->rowCount());
    std::printf("| check | %s |\n", ok ? "ok" : "FAIL");
    std::printf("\n| memory | VmRSS | VmHWM |\n|---|---:|---:|\n");
    std::printf("| GUI at rest (window up, idle %.1f s) | %s | %s |\n", restMs / 1000.0, qPrintable(kb(guiRest.rssKb)),
                qPrintable(kb(guiRest.hwmKb)));
    std::printf("| GUI after the run | %s | %s |\n", qPrintable(kb(guiAfter.rssKb)), qPrintable(kb(guiAfter.hwmKb)));
    std::printf("| bundled server at rest | %s | %s |\n", qPrintable(kb(serverRest.rssKb)),
                qPrintable(kb(serverRest.hwmKb)));
    std::printf("| bundled server after the run | %s | %s |\n", qPrintable(kb(serverAfter.rssKb)),
                qPrintable(kb(serverAfter.hwmKb)));
    qint64 workMaxNs = 0;
    qint64 ownMaxNs = 0;
    for (const StallMeter::Gap& gap : worst) {
        workMaxNs = std::max(workMaxNs, gap.cpuNs);
        ownMaxNs = std::max(ownMaxNs, ownShareNs(gap, idleThread));
    }
    std::printf("\nRESULT ok=%d max_ms=%.1f work_max_ms=%.1f own_max_ms=%.1f attempts=%d gui_rss_rest_kb=%lld "
                "gui_rss_after_kb=%lld\n",
                ok ? 1 : 0, worst.empty() ? 0.0 : static_cast<double>(worst.front().ns) / 1e6,
                static_cast<double>(workMaxNs) / 1e6, static_cast<double>(ownMaxNs) / 1e6, attempts,
                static_cast<long long>(guiRest.rssKb), static_cast<long long>(guiAfter.rssKb));
    std::fflush(stdout);
    return ok ? 0 : 1;
}
