// ClientBench: the client core's own costs. The outbox writes one attempt makes (the calls
// SubmissionEngine::sendAttempt and onReply make, in their order), each outbox call alone, and the start-up with
// 1,000 pending submissions (SubmissionEngine::resumePending until every one has its timer), with and without an
// attempt left in flight by a crash. The outbox is SQLite with synchronous=FULL on a real disk (ONCEORDER_BENCH_DIR,
// else the system temp dir), as on a user's machine.
#include "net/ServerApi.h"
#include "retry/Clock.h"
#include "submission/Outbox.h"
#include "submission/SubmissionEngine.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <vector>

using namespace onceorder::core;

namespace {

const QString kApiKey = QStringLiteral("demo-key-A");
const QString kTarget = QStringLiteral("http://127.0.0.1:9");

QString benchRoot()
{
    const QByteArray base = qgetenv("ONCEORDER_BENCH_DIR");
    return base.isEmpty() ? QDir::tempPath() : QString::fromLocal8Bit(base);
}

Submission newSubmission(int n)
{
    Submission s;
    s.key = QStringLiteral("bench-key-%1").arg(n);
    s.cartId = QStringLiteral("cart-%1").arg(n);
    s.body = R"({"cart_id":"cart","items":[{"product":"kniha","quantity":1}]})";
    s.target = QUrl(kTarget);
    s.createdMs = 1'790'000'000'000 + n;
    return s;
}

Attempt endedAttempt(int number)
{
    Attempt attempt;
    attempt.number = number;
    attempt.startedMs = 1'790'000'000'000;
    attempt.endedMs = attempt.startedMs + 40;
    attempt.outcome = AttemptOutcome::RetryLater;
    attempt.httpStatus = 503;
    attempt.error = QStringLiteral("Temporary failure, nothing was saved");
    attempt.delayAfterMs = 750;
    attempt.delayReason = QStringLiteral("backoff after attempt 1, full jitter");
    return attempt;
}

// One attempt as the engine persists it: find, start row, submission update; on the reply find, end row, update.
void BM_OutboxAttempt(benchmark::State& state)
{
    QTemporaryDir dir(benchRoot() + QStringLiteral("/onceorder-client-bench-XXXXXX"));
    Outbox outbox(dir.path());
    Submission submission = newSubmission(0);
    outbox.create(submission, kApiKey);
    int number = 0;
    int created = 1;
    for (auto _ : state) {
        if (number == 10) { // a submission rarely sees more than ten attempts; start another
            state.PauseTiming();
            submission = newSubmission(created++);
            outbox.create(submission, kApiKey);
            number = 0;
            state.ResumeTiming();
        }
        auto before = outbox.find(submission.id);
        Attempt attempt;
        attempt.number = ++number;
        attempt.startedMs = 1'790'000'000'000;
        outbox.recordAttemptStart(submission.id, attempt);
        before->nextAttemptMs = 0;
        outbox.update(*before);
        auto after = outbox.find(submission.id);
        outbox.recordAttemptEnd(submission.id, endedAttempt(number));
        after->nextAttemptMs = attempt.startedMs + 750;
        outbox.update(*after);
    }
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_OutboxAttempt)->UseRealTime()->MinTime(2.0);

// One attempt as the engine persists it since 2026-12-03 (SubmissionEngine::sendAttempt and endAttempt): one
// transaction to start it (Outbox::startAttempt: the lease, the in-flight attempt row, the stored submission read
// back) and one to end it (Outbox::endAttempt: the outcome and the next due time, the lease kept).
void BM_OutboxStartEndAttempt(benchmark::State& state)
{
    QTemporaryDir dir(benchRoot() + QStringLiteral("/onceorder-client-bench-XXXXXX"));
    Outbox outbox(dir.path());
    Submission submission = newSubmission(0);
    outbox.create(submission, kApiKey);
    const QString interrupted = QStringLiteral("interrupted: the client stopped before the answer arrived");
    int number = 0;
    int created = 1;
    qint64 nowMs = 1'000;
    for (auto _ : state) {
        if (number == 10) { // a submission rarely sees more than ten attempts; start another
            state.PauseTiming();
            submission = newSubmission(created++);
            outbox.create(submission, kApiKey);
            number = 0;
            state.ResumeTiming();
        }
        const Outbox::AttemptStart start = outbox.startAttempt(submission.id, nowMs, nowMs + 60'000, interrupted);
        if (start.claim != Outbox::Claim::Started) {
            state.SkipWithError("startAttempt did not start the attempt");
            break;
        }
        Submission after = start.submission;
        after.nextAttemptMs = nowMs + 750;
        if (!outbox.endAttempt(endedAttempt(++number), after, nowMs + 750 + 60'000, nowMs)) {
            state.SkipWithError("endAttempt did not apply");
            break;
        }
        ++nowMs;
    }
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_OutboxStartEndAttempt)->UseRealTime()->MinTime(2.0);

// The single calls, so the per-attempt total can be split into durable writes and reads.
void BM_OutboxCall(benchmark::State& state)
{
    QTemporaryDir dir(benchRoot() + QStringLiteral("/onceorder-client-bench-XXXXXX"));
    Outbox outbox(dir.path());
    Submission submission = newSubmission(0);
    outbox.create(submission, kApiKey);
    for (int i = 1; i <= 5; ++i) {
        outbox.recordAttemptStart(submission.id, endedAttempt(i));
        outbox.recordAttemptEnd(submission.id, endedAttempt(i));
    }
    int n = 1;
    for (auto _ : state) {
        switch (state.range(0)) {
        case 0: {
            auto found = outbox.find(submission.id);
            benchmark::DoNotOptimize(found);
            break;
        }
        case 1:
            // A changed value each time: SQLite skips rewriting a row whose bytes are identical (no commit I/O).
            submission.nextAttemptMs = n++;
            outbox.update(submission);
            break;
        case 2: {
            Attempt attempt = endedAttempt(1);
            attempt.endedMs += n++;
            outbox.recordAttemptEnd(submission.id, attempt);
            break;
        }
        case 3: {
            Submission fresh = newSubmission(n++);
            outbox.create(fresh, kApiKey);
            break;
        }
        }
    }
    state.SetItemsProcessed(state.iterations());
    state.SetLabel(state.range(0) == 0       ? "find (5 attempts)"
                       : state.range(0) == 1 ? "update"
                       : state.range(0) == 2 ? "recordAttemptEnd"
                                             : "create");
}
BENCHMARK(BM_OutboxCall)->ArgName("call")->DenseRange(0, 3)->UseRealTime()->MinTime(1.0);

// Start-up with `count` pending submissions: the outbox is filled on tmpfs (fast), copied to the bench dir, then
// a new run opens it and resumes. Returns milliseconds until resumePending() returned (every timer armed).
double startupMs(int count, bool crashedInFlight)
{
    const QString fillRoot = QDir(QStringLiteral("/dev/shm")).exists() ? QStringLiteral("/dev/shm") : benchRoot();
    QTemporaryDir fill(fillRoot + QStringLiteral("/onceorder-client-fill-XXXXXX"));
    QTemporaryDir run(benchRoot() + QStringLiteral("/onceorder-client-startup-XXXXXX"));
    {
        Outbox outbox(fill.path());
        for (int i = 0; i < count; ++i) {
            Submission s = newSubmission(i);
            outbox.create(s, kApiKey);
            outbox.recordAttemptStart(s.id, endedAttempt(1));
            if (!crashedInFlight) {
                outbox.recordAttemptEnd(s.id, endedAttempt(1));
            }
        }
    } // closing the last connection checkpoints the WAL into client.db
    QFile::copy(fill.filePath(QStringLiteral("client.db")), run.filePath(QStringLiteral("client.db")));

    ManualClock clock(1'790'000'001'000);
    SeededRandom random(7);
    QElapsedTimer timer;
    timer.start();
    Outbox outbox(run.path());
    ServerApi api(QUrl(kTarget), kApiKey);
    SubmissionEngine engine(outbox, &api, kTarget, clock, random);
    engine.resumePending();
    const double ms = static_cast<double>(timer.nsecsElapsed()) / 1e6;
    if (engine.pendingCount() != count) {
        std::fprintf(stderr, "startup: %d pending, expected %d\n", engine.pendingCount(), count);
    }
    return ms;
}

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();

    std::printf(
        "\nStart-up with 1,000 pending submissions (open outbox + SubmissionEngine::resumePending), 3 runs:\n\n");
    std::printf("| left by the previous run | median ms | [min-max] ms |\n|---|---:|---:|\n");
    for (const bool inFlight : {false, true}) {
        std::vector<double> runs;
        for (int i = 0; i < 3; ++i) {
            runs.push_back(startupMs(1000, inFlight));
        }
        std::sort(runs.begin(), runs.end());
        std::printf("| %s | %.1f | %.1f-%.1f |\n",
                    inFlight ? "each with an attempt in flight (a crash)" : "each waiting for its next retry", runs[1],
                    runs[0], runs[2]);
    }
    return 0;
}
