// Evidence beats time (issue 28): two engines on one outbox file stand for two processes (each Outbox is its own
// connection with its own lease name), each with its own injected wall clock, one of them stepped. Whatever the
// clocks say, nothing gives a cart up while the other has an attempt on the wire, no wall-clock step shortens a lease
// or stretches a retry window, and a 201 that comes after the cart was given up or abandoned makes it placed after
// all. The peer is tests/support/ScriptedPeer.h: it holds an order POST open until the test answers it.
#include "net/ServerApi.h"
#include "submission/SubmissionEngine.h"
#include "support/ScriptedPeer.h"
#include "support/ServerProcess.h"

#include <QCoreApplication>
#include <QEventLoop>
#include <QTimer>
#include <gtest/gtest.h>

#include <memory>
#include <vector>

using namespace onceorder::core;
using namespace onceorder::test;

namespace {

constexpr qint64 kMinuteMs = 60'000;
constexpr qint64 kHourMs = 60 * kMinuteMs;

EngineConfig configWith(qint64 retryWindowMs, const Clock* monotonic)
{
    EngineConfig config;
    config.policy.baseDelayMs = 5;
    config.policy.maxDelayMs = 40;
    config.policy.retryWindowMs = retryWindowMs;
    config.policy.transferTimeoutMs = 20'000;
    config.budget.capacity = 1000;
    config.resumeSpreadMs = 0;
    config.monotonicClock = monotonic;
    return config;
}

Cart cartOf(const QString& product, int quantity)
{
    Cart cart;
    cart.add(product, quantity);
    return cart;
}

QByteArray created(qint64 orderId, const QString& cartId)
{
    return ScriptedPeer::answer(201, "Created",
                                "{\"order_id\":" + QByteArray::number(orderId) +
                                    ",\"status\":\"placed\",\"cart_id\":\"" + cartId.toUtf8() +
                                    "\",\"items\":[{\"product\":\"kniha\",\"quantity\":1}]}");
}

// One client process: its own outbox connection, wall clock and engine; everything it said.
struct Process
{
    std::unique_ptr<Outbox> outbox;
    ManualClock wall;
    SeededRandom random {28};
    std::unique_ptr<ServerApi> api;
    std::unique_ptr<SubmissionEngine> engine;
    std::vector<Submission> settled;
    std::vector<SubmissionState> states;

    bool hasSettled(qint64 id) const
    {
        return std::any_of(settled.begin(), settled.end(), [id](const Submission& s) { return s.id == id; });
    }
    bool wasEver(SubmissionState state) const { return std::find(states.begin(), states.end(), state) != states.end(); }
};

class EvidenceBeatsTimeTest : public ::testing::Test
{
protected:
    static void SetUpTestSuite() { s_app = std::make_unique<QCoreApplication>(s_argc, s_argv); }
    static void TearDownTestSuite() { s_app.reset(); }

    void answerWith(ScriptedPeer::Script script)
    {
        peer = std::make_unique<ScriptedPeer>(std::move(script));
        ASSERT_TRUE(peer->listening);
    }

    // A process on the shared outbox whose wall clock reads `wallMs`.
    std::unique_ptr<Process> start(qint64 wallMs, qint64 retryWindowMs, const Clock* monotonic = nullptr)
    {
        auto process = std::make_unique<Process>();
        process->wall.setMs(wallMs);
        process->outbox = std::make_unique<Outbox>(QString::fromStdString(dir.file("client")));
        process->api = std::make_unique<ServerApi>(peer->url(), QStringLiteral("demo-key-A"));
        process->engine =
            std::make_unique<SubmissionEngine>(*process->outbox, process->api.get(), QStringLiteral("test"),
                                               process->wall, process->random, configWith(retryWindowMs, monotonic));
        Process* p = process.get();
        QObject::connect(p->engine.get(), &SubmissionEngine::settled,
                         [p](const Submission& s) { p->settled.push_back(s); });
        QObject::connect(p->engine.get(), &SubmissionEngine::submissionChanged,
                         [p](const Submission& s) { p->states.push_back(s.state); });
        return process;
    }

    template<typename Predicate>
    void runUntil(Predicate done)
    {
        QTimer guard;
        guard.setSingleShot(true);
        guard.start(20'000);
        while (!done() && guard.isActive()) {
            QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents, 50);
        }
        ASSERT_TRUE(done()) << "timed out";
    }

    // An order POST held open, GET /orders?cart_id=… answered "no order (yet)".
    void holdOrdersAnswerNoneYet()
    {
        answerWith([](const PeerRequest& request) -> QByteArray {
            if (request.method == "POST") {
                return ScriptedPeer::hold();
            }
            return ScriptedPeer::answer(200, "OK", "[]");
        });
    }

    static inline int s_argc = 1;
    static inline char s_name[] = "EvidenceBeatsTimeTest";
    static inline char* s_argv[] = {s_name, nullptr};
    static inline std::unique_ptr<QCoreApplication> s_app;

    TempDir dir;
    std::unique_ptr<ScriptedPeer> peer;
    const qint64 t0 = 1'790'000'000'000;
};

} // namespace

TEST_F(EvidenceBeatsTimeTest, A201ThatComesAfterTheCartWasAbandonedMakesItPlacedAfterAll)
{
    // The window's Abandon while the attempt is on the wire: the 201 that arrives afterwards used to be only history
    // ("abandoned", while the server holds the order).
    holdOrdersAnswerNoneYet();
    auto a = start(t0, 15 * kMinuteMs);
    const Cart cart = cartOf(QStringLiteral("kniha"), 1);
    const qint64 id = a->engine->submit(cart);
    ASSERT_GT(id, 0);
    runUntil([&] { return peer->heldCount() == 1; });
    a->engine->abandon(id);
    ASSERT_EQ(a->outbox->find(id)->state, SubmissionState::Abandoned);

    peer->release(0, created(41, cart.cartId()));
    runUntil([&] { return a->outbox->find(id)->state != SubmissionState::Abandoned; });
    const Submission s = *a->outbox->find(id);
    EXPECT_EQ(s.state, SubmissionState::Placed) << s.problemDetail.toStdString();
    EXPECT_EQ(s.orderId, 41);
    EXPECT_EQ(s.overruled, SubmissionState::Abandoned);
    EXPECT_TRUE(s.problemDetail.startsWith(QStringLiteral("placed after all"))) << s.problemDetail.toStdString();
    ASSERT_FALSE(a->settled.empty());
    EXPECT_EQ(a->settled.back().state, SubmissionState::Placed) << "the window hears it";
    EXPECT_EQ(a->settled.back().overruled, SubmissionState::Abandoned);
}

// Which process has the stepped wall clock: the one sending (A) or the one resuming beside it (B).
struct Step
{
    const char* name;
    qint64 senderOffsetMs; // A's wall clock against the true time
    qint64 otherOffsetMs; // B's
};

class ClockStepTest : public EvidenceBeatsTimeTest, public ::testing::WithParamInterface<Step>
{
};

TEST_P(ClockStepTest, NoProcessGivesACartUpWhileAnotherHasAnAttemptOnTheWire)
{
    // The reported run: B's clock says A's deadline has passed (B is 20 min ahead, or A is 3 h behind), so B gave the
    // cart up while A's attempt was in flight, its read-back found nothing yet, and A's 201 was then dropped: the
    // order existed, the cart said "gave up". Now the lease comes first: B waits, A's 201 settles it, B hears it.
    holdOrdersAnswerNoneYet();
    auto a = start(t0 + GetParam().senderOffsetMs, kMinuteMs);
    auto b = start(t0 + GetParam().otherOffsetMs, kMinuteMs);
    const Cart cart = cartOf(QStringLiteral("kniha"), 1);
    const qint64 id = a->engine->submit(cart);
    ASSERT_GT(id, 0);
    runUntil([&] { return peer->heldCount() == 1; });

    b->engine->retryNow(id); // B's deadline check: past it by B's clock
    EXPECT_EQ(b->outbox->find(id)->state, SubmissionState::Pending) << "given up with A's attempt on the wire";
    EXPECT_EQ(b->outbox->find(id)->attempts.size(), 1);

    peer->release(0, created(7, cart.cartId()));
    runUntil([&] { return a->hasSettled(id) && b->hasSettled(id); });
    const Submission s = *a->outbox->find(id);
    EXPECT_EQ(s.state, SubmissionState::Placed) << s.problemDetail.toStdString();
    EXPECT_EQ(s.orderId, 7);
    EXPECT_FALSE(s.overruled) << "it was never given up";
    EXPECT_EQ(b->settled.back().state, SubmissionState::Placed);
    EXPECT_FALSE(a->wasEver(SubmissionState::GaveUp));
    EXPECT_FALSE(b->wasEver(SubmissionState::GaveUp));
    EXPECT_EQ(peer->requestsTo("POST", "/orders").size(), 1);
}

INSTANTIATE_TEST_SUITE_P(OneOfTwoProcesses, ClockStepTest,
                         ::testing::Values(Step {"OtherTwentyMinutesAhead", 0, 20 * kMinuteMs},
                                           Step {"SenderThreeHoursBehind", -3 * kHourMs, 0}),
                         [](const ::testing::TestParamInfo<Step>& step) { return std::string(step.param.name); });

TEST_F(EvidenceBeatsTimeTest, AWallClockStepForwardDoesNotShortenAnotherProcesssLease)
{
    // Leases were judged on the wall clock: B, 20 min ahead, took A's lease as expired and sent the same key while
    // A's attempt was still out (two attempts of one submission at once). Leases are on the machine's monotonic clock.
    holdOrdersAnswerNoneYet();
    auto a = start(t0, 30 * kMinuteMs);
    auto b = start(t0 + 20 * kMinuteMs, 30 * kMinuteMs);
    const Cart cart = cartOf(QStringLiteral("kniha"), 1);
    const qint64 id = a->engine->submit(cart);
    ASSERT_GT(id, 0);
    runUntil([&] { return peer->heldCount() == 1; });

    b->engine->retryNow(id);
    EXPECT_EQ(b->outbox->find(id)->attempts.size(), 1) << "B started an attempt under A's lease";

    peer->release(0, created(9, cart.cartId()));
    runUntil([&] { return a->hasSettled(id) && b->hasSettled(id); });
    EXPECT_EQ(a->outbox->find(id)->state, SubmissionState::Placed);
    EXPECT_EQ(peer->requestsTo("POST", "/orders").size(), 1);
}

TEST_F(EvidenceBeatsTimeTest, A201ForACartAnotherProcessGaveUpAfterTheLeaseEndedIsPlacedAfterAll)
{
    // A was stopped (SIGSTOP) longer than its lease: B rightly took over, its deadline had passed, it gave the cart
    // up and read back nothing yet. Then A's 201 came: it used to be dropped because the row was no longer pending.
    ManualClock machine; // the machine's monotonic clock, shared as every process shares it
    holdOrdersAnswerNoneYet();
    auto a = start(t0, kMinuteMs, &machine);
    auto b = start(t0, kMinuteMs, &machine);
    const Cart cart = cartOf(QStringLiteral("kniha"), 1);
    const qint64 id = a->engine->submit(cart);
    ASSERT_GT(id, 0);
    runUntil([&] { return peer->heldCount() == 1; });

    machine.advanceMs(5 * kMinuteMs); // A's lease (one attempt's time and a margin) is over
    b->wall.advanceMs(5 * kMinuteMs);
    b->engine->retryNow(id);
    runUntil([&] { return b->hasSettled(id); });
    ASSERT_EQ(b->settled.back().state, SubmissionState::GaveUp) << b->settled.back().problemDetail.toStdString();

    peer->release(0, created(12, cart.cartId()));
    runUntil([&] { return a->hasSettled(id); });
    const Submission s = *a->outbox->find(id);
    EXPECT_EQ(s.state, SubmissionState::Placed) << s.problemDetail.toStdString();
    EXPECT_EQ(s.orderId, 12);
    EXPECT_EQ(s.overruled, SubmissionState::GaveUp);
    EXPECT_EQ(a->settled.back().state, SubmissionState::Placed) << "A reports what became of it";
    EXPECT_EQ(peer->requestsTo("POST", "/orders").size(), 1);
}

TEST_F(EvidenceBeatsTimeTest, AClockSetBackThreeHoursDoesNotStretchTheRetryWindow)
{
    // A made the submission and got a 503; three hours and ten minutes later B resumes it with a wall clock set back
    // three hours: by B's wall clock the 15-minute window is still open. The machine's monotonic clock knows the
    // submission's true age: nothing is sent, the cart is given up and read back.
    ManualClock machine;
    int posts = 0;
    answerWith([&posts](const PeerRequest& request) -> QByteArray {
        if (request.method == "POST") {
            ++posts;
            return ScriptedPeer::answer(503, "Service Unavailable", "{}", "application/json", "Retry-After: 1\r\n");
        }
        return ScriptedPeer::answer(200, "OK", "[]");
    });
    auto a = start(t0, 15 * kMinuteMs, &machine);
    const qint64 id = a->engine->submit(cartOf(QStringLiteral("kniha"), 1));
    ASSERT_GT(id, 0);
    runUntil([&] {
        const auto s = a->outbox->find(id);
        return !s->attempts.isEmpty() && s->attempts.first().outcome != AttemptOutcome::InFlight;
    });
    a.reset(); // the process exits (its lease with it)

    machine.advanceMs(3 * kHourMs + 10 * kMinuteMs);
    auto b = start(t0 + 10 * kMinuteMs, 15 * kMinuteMs, &machine);
    b->engine->retryNow(id);
    EXPECT_EQ(b->outbox->find(id)->attempts.size(), 1) << "sent 3 h 10 min after it was made";
    runUntil([&] { return b->hasSettled(id); });
    EXPECT_EQ(b->settled.back().state, SubmissionState::GaveUp);
    EXPECT_EQ(posts, 1);
}

TEST_F(EvidenceBeatsTimeTest, AClockSetBackWithinTheProcessDoesNotStretchTheRetryWindow)
{
    // The same within one process: 16 minutes after the submission was made its wall clock is set back 10 minutes
    // (it reads 6 minutes after), and its own timers keep retrying a 503. The window still ends 15 minutes after the
    // submission by the monotonic clock, not 25.
    ManualClock machine;
    int posts = 0;
    answerWith([&posts](const PeerRequest& request) -> QByteArray {
        if (request.method == "POST") {
            ++posts;
            return ScriptedPeer::answer(503, "Service Unavailable", "{}");
        }
        return ScriptedPeer::answer(200, "OK", "[]");
    });
    auto a = start(t0, 15 * kMinuteMs, &machine);
    const qint64 id = a->engine->submit(cartOf(QStringLiteral("kniha"), 1));
    ASSERT_GT(id, 0);
    runUntil([&] { return posts >= 1; });
    a->wall.advanceMs(6 * kMinuteMs); // 16 minutes passed, the clock set back 10 of them
    machine.advanceMs(16 * kMinuteMs);
    runUntil([&] { return a->hasSettled(id); });
    const Submission s = *a->outbox->find(id);
    EXPECT_EQ(s.state, SubmissionState::GaveUp) << s.problemDetail.toStdString();
    for (const Attempt& attempt : s.attempts) {
        EXPECT_LT(attempt.startedMs, s.deadlineMs) << "an attempt started after the window by the true time";
    }
}
