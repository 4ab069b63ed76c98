// SubmissionEngine with no server process (issue 28): its ServerCalls are tests/support/ScriptedServerCalls.h, which
// answer only when the test says so, and its wall and monotonic clocks are ManualClocks. Two engines on one outbox file
// stand for two processes (each Outbox is its own connection with its own lease name). No socket, no sleep, no event
// loop turned: every step below happens because the test made it happen, so each interleaving is exact.
//
// The evidence-beats-time cases of EvidenceBeatsTimeTest (which runs them against a hand-written peer over loopback)
// in this form: a 201 or a read-back finding the order wins over "abandoned" and "gave up", whenever it comes and in
// whichever process; no process gives a cart up while another has an attempt on the wire; no clock step shortens a
// lease or stretches the retry window.
#include "submission/SubmissionEngine.h"
#include "support/ScriptedServerCalls.h"
#include "support/ServerProcess.h"

#include <QCoreApplication>
#include <QDir>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>
#include <QUrl>
#include <gtest/gtest.h>

#include <algorithm>
#include <iostream>
#include <memory>
#include <vector>

using namespace onceorder::core;
using namespace onceorder::test;

namespace {

constexpr qint64 kMinuteMs = 60'000;
constexpr qint64 kHourMs = 60 * kMinuteMs;
constexpr qint64 kT0 = 1'790'000'000'000;

// One client process: its own outbox connection, wall clock, scripted server calls and engine; all it said.
struct Process
{
    std::unique_ptr<Outbox> outbox;
    ManualClock wall;
    SeededRandom random {28};
    ScriptedServerCalls server;
    std::unique_ptr<SubmissionEngine> engine;
    std::vector<Submission> settled;
    std::vector<SubmissionState> states;

    bool hasSettled(qint64 id) const
    {
        return std::any_of(settled.begin(), settled.end(), [id](const Submission& s) { return s.id == id; });
    }
    bool wasEver(SubmissionState state) const { return std::find(states.begin(), states.end(), state) != states.end(); }
    Submission stored(qint64 id) const { return outbox->find(id).value_or(Submission {}); }
};

Cart oneBook()
{
    Cart cart;
    cart.add(QStringLiteral("kniha"), 1);
    return cart;
}

class SubmissionEngineScriptedTest : public ::testing::Test
{
protected:
    // Timers the engine starts (its retry schedule) exist but never fire: no event loop is turned here.
    static void SetUpTestSuite() { s_app = std::make_unique<QCoreApplication>(s_argc, s_argv); }
    static void TearDownTestSuite() { s_app.reset(); }

    // A process on the shared outbox whose wall clock reads `wallMs`; the machine's monotonic clock is shared.
    std::unique_ptr<Process> start(qint64 wallMs, qint64 retryWindowMs)
    {
        auto process = std::make_unique<Process>();
        process->wall.setMs(wallMs);
        process->outbox = std::make_unique<Outbox>(QString::fromStdString(dir.file(outboxFolder)));
        EngineConfig config;
        config.policy.baseDelayMs = 5;
        config.policy.maxDelayMs = 40;
        config.policy.retryWindowMs = retryWindowMs;
        config.policy.transferTimeoutMs = 20'000;
        config.budget.capacity = 1000;
        config.resumeSpreadMs = 0;
        config.monotonicClock = &machine;
        process->engine = std::make_unique<SubmissionEngine>(*process->outbox, &process->server, QStringLiteral("test"),
                                                             process->wall, process->random, config);
        Process* p = process.get();
        QObject::connect(p->engine.get(), &SubmissionEngine::settled,
                         [p](const Submission& s) { p->settled.push_back(s); });
        QObject::connect(p->engine.get(), &SubmissionEngine::submissionChanged,
                         [p](const Submission& s) { p->states.push_back(s.state); });
        return process;
    }

    static inline int s_argc = 1;
    static inline char s_name[] = "SubmissionEngineScriptedTest";
    static inline char* s_argv[] = {s_name, nullptr};
    static inline std::unique_ptr<QCoreApplication> s_app;

    TempDir dir;
    std::string outboxFolder = "client"; // in dir: the state folder start() opens
    ManualClock machine {5 * kHourMs}; // the machine's monotonic clock, as every process on it shares the real one
};

} // namespace

TEST_F(SubmissionEngineScriptedTest, TheAttemptCarriesTheKeyTheBytesAndTheLimits)
{
    // What the engine hands to its ServerCalls: one POST per attempt with the stored key and bytes, bounded by the
    // transfer timeout and the attempt's total time, and nothing else.
    auto a = start(kT0, 15 * kMinuteMs);
    const Cart cart = oneBook();
    const qint64 id = a->engine->submit(cart);
    ASSERT_GT(id, 0);
    ASSERT_EQ(a->server.calls.size(), 1);
    const ScriptedServerCalls::Call& post = a->server.calls.first();
    EXPECT_EQ(post.method, "POST");
    EXPECT_EQ(post.path, cart.requestPath());
    EXPECT_EQ(post.body, cart.toRequestBody());
    EXPECT_EQ(post.idempotencyKey, a->stored(id).key);
    EXPECT_EQ(post.limits.transferTimeoutMs, 20'000);
    EXPECT_EQ(post.limits.totalTimeoutMs, 60'000);
    EXPECT_EQ(a->engine->inFlightCount(), 1);

    ASSERT_TRUE(a->server.answer(0, ScriptedServerCalls::created(5, cart.cartId())));
    EXPECT_EQ(a->stored(id).state, SubmissionState::Placed);
    EXPECT_EQ(a->stored(id).orderId, 5);
    EXPECT_EQ(a->engine->inFlightCount(), 0);
    ASSERT_TRUE(a->hasSettled(id));
    EXPECT_EQ(a->server.calls.size(), 1);
}

TEST_F(SubmissionEngineScriptedTest, A201ThatComesAfterTheCartWasAbandonedMakesItPlacedAfterAll)
{
    auto a = start(kT0, 15 * kMinuteMs);
    const Cart cart = oneBook();
    const qint64 id = a->engine->submit(cart);
    ASSERT_GT(id, 0);
    a->engine->abandon(id); // the window's Abandon while the attempt is on the wire
    ASSERT_EQ(a->stored(id).state, SubmissionState::Abandoned);

    ASSERT_TRUE(a->server.answer(0, ScriptedServerCalls::created(41, cart.cartId())));
    const Submission s = a->stored(id);
    EXPECT_EQ(s.state, SubmissionState::Placed) << s.problemDetail.toStdString();
    EXPECT_EQ(s.orderId, 41);
    EXPECT_EQ(s.overruled, SubmissionState::Abandoned);
    ASSERT_FALSE(a->settled.empty());
    EXPECT_EQ(a->settled.back().state, SubmissionState::Placed) << "the window hears it";
    EXPECT_EQ(a->settled.back().overruled, SubmissionState::Abandoned);
}

// Which process has the stepped wall clock: the one sending (A) or the one beside it (B).
struct Step
{
    const char* name;
    qint64 senderOffsetMs;
    qint64 otherOffsetMs;
};

class ScriptedClockStepTest : public SubmissionEngineScriptedTest, public ::testing::WithParamInterface<Step>
{
};

TEST_P(ScriptedClockStepTest, NoProcessGivesACartUpOrSendsWhileAnotherHasAnAttemptOnTheWire)
{
    // B's wall clock says A's one-minute window is over (B 20 min ahead, or A 3 h behind) and that A's lease has run
    // out: B neither gives the cart up nor sends the key itself. A's 201 settles it; B, looking again, hears it.
    auto a = start(kT0 + GetParam().senderOffsetMs, kMinuteMs);
    auto b = start(kT0 + GetParam().otherOffsetMs, kMinuteMs);
    const Cart cart = oneBook();
    const qint64 id = a->engine->submit(cart);
    ASSERT_GT(id, 0);
    ASSERT_EQ(a->server.count("POST"), 1);

    b->engine->retryNow(id);
    EXPECT_EQ(b->stored(id).state, SubmissionState::Pending) << "given up with A's attempt on the wire";
    EXPECT_EQ(b->stored(id).attempts.size(), 1) << "B started an attempt under A's lease";
    EXPECT_TRUE(b->server.calls.isEmpty()) << "B asked the server anything while A's attempt was out";

    ASSERT_TRUE(a->server.answer(0, ScriptedServerCalls::created(7, cart.cartId())));
    const Submission s = a->stored(id);
    EXPECT_EQ(s.state, SubmissionState::Placed) << s.problemDetail.toStdString();
    EXPECT_EQ(s.orderId, 7);
    EXPECT_FALSE(s.overruled) << "it was never given up";
    EXPECT_TRUE(a->hasSettled(id));

    b->engine->retryNow(id); // what B's lease recheck does when its timer fires
    ASSERT_TRUE(b->hasSettled(id));
    EXPECT_EQ(b->settled.back().state, SubmissionState::Placed);
    EXPECT_FALSE(a->wasEver(SubmissionState::GaveUp));
    EXPECT_FALSE(b->wasEver(SubmissionState::GaveUp));
    EXPECT_TRUE(b->server.calls.isEmpty());
}

INSTANTIATE_TEST_SUITE_P(OneOfTwoProcesses, ScriptedClockStepTest,
                         ::testing::Values(Step {"OtherTwentyMinutesAhead", 0, 20 * kMinuteMs},
                                           Step {"SenderThreeHoursBehind", -3 * kHourMs, 0}),
                         [](const ::testing::TestParamInfo<Step>& step) { return std::string(step.param.name); });

TEST_F(SubmissionEngineScriptedTest, A201ForACartAnotherProcessGaveUpAfterTheLeaseEndedIsPlacedAfterAll)
{
    // A was stopped (SIGSTOP) longer than its lease: B rightly took over, its deadline had passed, it gave the cart
    // up and read back nothing yet. Then A's 201 came: evidence, so the cart is placed after all, in both processes.
    auto a = start(kT0, kMinuteMs);
    auto b = start(kT0, kMinuteMs);
    const Cart cart = oneBook();
    const qint64 id = a->engine->submit(cart);
    ASSERT_GT(id, 0);

    machine.advanceMs(5 * kMinuteMs); // A's lease (one attempt's time and a margin) is over
    b->wall.advanceMs(5 * kMinuteMs);
    b->engine->retryNow(id);
    EXPECT_EQ(b->server.count("POST"), 0) << "a key sent past its window";
    const int readBack = b->server.waiting("GET");
    ASSERT_GE(readBack, 0) << "given up without asking the server";
    EXPECT_TRUE(b->server.calls[readBack].path.startsWith(u"/orders?cart_id="));
    ASSERT_TRUE(b->server.answer(readBack, ScriptedServerCalls::reply(200, "[]"))); // nothing yet
    ASSERT_TRUE(b->hasSettled(id));
    ASSERT_EQ(b->settled.back().state, SubmissionState::GaveUp) << b->settled.back().problemDetail.toStdString();

    ASSERT_TRUE(a->server.answer(0, ScriptedServerCalls::created(12, cart.cartId())));
    const Submission s = a->stored(id);
    EXPECT_EQ(s.state, SubmissionState::Placed) << s.problemDetail.toStdString();
    EXPECT_EQ(s.orderId, 12);
    EXPECT_EQ(s.overruled, SubmissionState::GaveUp);
    ASSERT_TRUE(a->hasSettled(id));
    EXPECT_EQ(a->settled.back().state, SubmissionState::Placed) << "A reports what became of it";
}

TEST_F(SubmissionEngineScriptedTest, AReadBackThatFindsTheOrderAfterAGiveUpMakesItPlacedAfterAll)
{
    // The attempt's connection closed after the request went out (the server may have placed it); the window ended
    // before the next attempt. The give-up reads the cart back, and the order it finds beats "gave up".
    auto a = start(kT0, 15 * kMinuteMs);
    const Cart cart = oneBook();
    const qint64 id = a->engine->submit(cart);
    ASSERT_GT(id, 0);
    ASSERT_TRUE(a->server.answer(0, ScriptedServerCalls::lost()));
    ASSERT_EQ(a->stored(id).state, SubmissionState::Pending);

    machine.advanceMs(16 * kMinuteMs);
    a->wall.advanceMs(16 * kMinuteMs);
    a->engine->retryNow(id); // its retry timer, fired late (a laptop's sleep)
    EXPECT_EQ(a->server.count("POST"), 1) << "a key sent past its window";
    const int readBack = a->server.waiting("GET");
    ASSERT_GE(readBack, 0);
    ASSERT_TRUE(a->server.answer(
        readBack, ScriptedServerCalls::reply(200, "[" + ScriptedServerCalls::orderJson(3, cart.cartId()) + "]")));
    const Submission s = a->stored(id);
    EXPECT_EQ(s.state, SubmissionState::Placed) << s.problemDetail.toStdString();
    EXPECT_EQ(s.orderId, 3);
    EXPECT_EQ(s.overruled, SubmissionState::GaveUp);
    ASSERT_TRUE(a->hasSettled(id));
    EXPECT_EQ(a->settled.back().state, SubmissionState::Placed);
}

TEST_F(SubmissionEngineScriptedTest, AReadBackThatIsNotTheOrderListLeavesTheCartGivenUpNotAbandoned)
{
    // A read-back answered 200 with a proxy's page is no answer: the cart stays "gave up" (not "nothing was
    // placed"), and a later read-back that finds the order still makes it placed after all.
    auto a = start(kT0, 15 * kMinuteMs);
    const Cart cart = oneBook();
    const qint64 id = a->engine->submit(cart);
    ASSERT_TRUE(a->server.answer(0, ScriptedServerCalls::lost()));
    machine.advanceMs(16 * kMinuteMs);
    a->wall.advanceMs(16 * kMinuteMs);
    a->engine->retryNow(id);
    ASSERT_TRUE(a->server.answer(a->server.waiting("GET"), ScriptedServerCalls::reply(200, "<html>proxy</html>")));
    ASSERT_EQ(a->stored(id).state, SubmissionState::GaveUp);

    a->engine->reconcile(id);
    const int again = a->server.waiting("GET");
    ASSERT_GE(again, 0);
    ASSERT_TRUE(a->server.answer(
        again, ScriptedServerCalls::reply(200, "[" + ScriptedServerCalls::orderJson(4, cart.cartId()) + "]")));
    EXPECT_EQ(a->stored(id).state, SubmissionState::Placed);
    EXPECT_EQ(a->stored(id).overruled, SubmissionState::GaveUp);
    EXPECT_EQ(a->server.count("POST"), 1);
}

TEST_F(SubmissionEngineScriptedTest, AClockSetBackThreeHoursDoesNotStretchTheRetryWindow)
{
    // A made the submission and got a 503; three hours and ten minutes later B resumes it with a wall clock set back
    // three hours: by B's wall clock the 15-minute window is still open. The machine's monotonic clock knows the
    // submission's true age: nothing is sent, the cart is given up and read back.
    auto a = start(kT0, 15 * kMinuteMs);
    const qint64 id = a->engine->submit(oneBook());
    ASSERT_GT(id, 0);
    ASSERT_TRUE(a->server.answer(0, ScriptedServerCalls::reply(503, "{}", "1")));
    ASSERT_EQ(a->stored(id).state, SubmissionState::Pending);
    a.reset(); // the process exits (its lease with it)

    machine.advanceMs(3 * kHourMs + 10 * kMinuteMs);
    auto b = start(kT0 + 10 * kMinuteMs, 15 * kMinuteMs);
    b->engine->retryNow(id);
    EXPECT_EQ(b->server.count("POST"), 0) << "sent 3 h 10 min after it was made";
    EXPECT_EQ(b->stored(id).attempts.size(), 1);
    ASSERT_TRUE(b->server.answer(b->server.waiting("GET"), ScriptedServerCalls::reply(200, "[]")));
    ASSERT_TRUE(b->hasSettled(id));
    EXPECT_EQ(b->settled.back().state, SubmissionState::GaveUp);
}

TEST_F(SubmissionEngineScriptedTest, AClockSetBackWithinTheProcessDoesNotStretchTheRetryWindow)
{
    // 16 minutes after the submission was made its wall clock is set back 10 minutes (it reads 6 minutes after). The
    // window still ends 15 minutes after the submission by the monotonic clock, not 25: the next attempt is not sent.
    auto a = start(kT0, 15 * kMinuteMs);
    const qint64 id = a->engine->submit(oneBook());
    ASSERT_TRUE(a->server.answer(0, ScriptedServerCalls::reply(503, "{}")));
    a->wall.advanceMs(6 * kMinuteMs);
    machine.advanceMs(16 * kMinuteMs);
    a->engine->retryNow(id);
    EXPECT_EQ(a->server.count("POST"), 1) << "an attempt started after the window by the true time";
    ASSERT_TRUE(a->server.answer(a->server.waiting("GET"), ScriptedServerCalls::reply(200, "[]")));
    ASSERT_TRUE(a->hasSettled(id));
    EXPECT_EQ(a->settled.back().state, SubmissionState::GaveUp) << a->settled.back().problemDetail.toStdString();
}

TEST_F(SubmissionEngineScriptedTest, WithinTheWindowARetryGoesOutWithTheSameKeyAndBytes)
{
    // The other side of the window: 5 minutes after a 503 by both clocks, the next attempt is the same request.
    auto a = start(kT0, 15 * kMinuteMs);
    const Cart cart = oneBook();
    const qint64 id = a->engine->submit(cart);
    ASSERT_TRUE(a->server.answer(0, ScriptedServerCalls::reply(503, "{}")));
    a->wall.advanceMs(5 * kMinuteMs);
    machine.advanceMs(5 * kMinuteMs);
    a->engine->retryNow(id);
    ASSERT_EQ(a->server.count("POST"), 2);
    EXPECT_EQ(a->server.calls[1].idempotencyKey, a->server.calls[0].idempotencyKey);
    EXPECT_EQ(a->server.calls[1].body, a->server.calls[0].body);
    ASSERT_TRUE(a->server.answer(1, ScriptedServerCalls::created(8, cart.cartId())));
    EXPECT_EQ(a->stored(id).state, SubmissionState::Placed);
}

TEST_F(SubmissionEngineScriptedTest, AGiveUpWhoseReadBackWasNeverRecordedIsReadBackAtTheNextStart)
{
    // The give-up is committed, then the outbox fails (a full disk: the engine stops) or the process ends before the
    // read-back's answer can be recorded. The row said "gave up" until someone reconciled it by hand, although the
    // server held the order. The next start reads it back and finds the order: placed after all.
    auto a = start(kT0, 15 * kMinuteMs);
    const Cart cart = oneBook();
    const qint64 id = a->engine->submit(cart);
    ASSERT_TRUE(a->server.answer(0, ScriptedServerCalls::lost())); // the server placed it; the answer was lost
    machine.advanceMs(16 * kMinuteMs);
    a->wall.advanceMs(16 * kMinuteMs);
    a->engine->retryNow(id);
    ASSERT_EQ(a->stored(id).state, SubmissionState::GaveUp);
    ASSERT_GE(a->server.waiting("GET"), 0) << "the give-up asks the server";
    a.reset(); // its read-back is never answered here

    auto b = start(kT0 + 17 * kMinuteMs, 15 * kMinuteMs);
    machine.advanceMs(kMinuteMs);
    const auto resumed = b->engine->resumePending();
    ASSERT_TRUE(resumed);
    EXPECT_TRUE(resumed->isEmpty()) << "nothing pending: nothing to send";
    const int readBack = b->server.waiting("GET");
    ASSERT_GE(readBack, 0) << "the given-up row was not read back at the start";
    EXPECT_TRUE(b->server.calls[readBack].path.startsWith(u"/orders?cart_id="));
    EXPECT_EQ(b->server.count("POST"), 0);
    ASSERT_TRUE(b->server.answer(
        readBack, ScriptedServerCalls::reply(200, "[" + ScriptedServerCalls::orderJson(6, cart.cartId()) + "]")));
    const Submission s = b->stored(id);
    EXPECT_EQ(s.state, SubmissionState::Placed) << s.problemDetail.toStdString();
    EXPECT_EQ(s.orderId, 6);
    EXPECT_EQ(s.overruled, SubmissionState::GaveUp);
    ASSERT_TRUE(b->hasSettled(id)) << "the window hears it";
    EXPECT_EQ(b->settled.back().state, SubmissionState::Placed);

    b.reset();
    auto c = start(kT0 + 18 * kMinuteMs, 15 * kMinuteMs);
    ASSERT_TRUE(c->engine->resumePending());
    EXPECT_TRUE(c->server.calls.isEmpty()) << "a placed row is not read back again";
}

TEST_F(SubmissionEngineScriptedTest, AtAStartAGivenUpCartThatFoundNoOrderStaysGivenUpAndNothingIsSent)
{
    // The same read-back at a start, when the server has no order (or does not answer): the row stays as it was, no
    // key is sent, and nobody is told anything new. A cart given up before any attempt could reach the server (a
    // refused connection) is not read back.
    auto a = start(kT0, 15 * kMinuteMs);
    const qint64 maybeSent = a->engine->submit(oneBook());
    ASSERT_TRUE(a->server.answer(0, ScriptedServerCalls::lost()));
    Cart other;
    other.add(QStringLiteral("hrnek"), 1);
    const qint64 neverSent = a->engine->submit(other);
    HttpReply refused;
    refused.error = QNetworkReply::ConnectionRefusedError;
    refused.errorString = QStringLiteral("Connection refused");
    ASSERT_TRUE(a->server.answer(1, refused));
    machine.advanceMs(16 * kMinuteMs);
    a->wall.advanceMs(16 * kMinuteMs);
    a->engine->retryNow(maybeSent);
    a->engine->retryNow(neverSent);
    ASSERT_EQ(a->stored(maybeSent).state, SubmissionState::GaveUp);
    ASSERT_EQ(a->stored(neverSent).state, SubmissionState::GaveUp);
    a.reset();

    auto b = start(kT0 + 17 * kMinuteMs, 15 * kMinuteMs);
    ASSERT_TRUE(b->engine->resumePending());
    ASSERT_EQ(b->server.count("GET"), 1) << "only the cart whose attempt may have reached the server";
    ASSERT_TRUE(b->server.answer(b->server.waiting("GET"), ScriptedServerCalls::reply(200, "[]")));
    EXPECT_EQ(b->stored(maybeSent).state, SubmissionState::GaveUp);
    EXPECT_EQ(b->stored(neverSent).state, SubmissionState::GaveUp);
    EXPECT_TRUE(b->settled.empty());
    EXPECT_EQ(b->server.count("POST"), 0);
}

// A cart's life against a server that is not ours (issue 37): it may forget a key, answer a problem after an attempt
// that may have reached it, name another cart's order, or place a second order. Nothing is final without evidence.
namespace {

HttpReply problem(int status, const QByteArray& type, qint64 orderId = 0)
{
    QByteArray body = R"({"type":")" + type + R"(","title":"Refused","status":)" + QByteArray::number(status);
    if (orderId > 0) {
        body += ",\"order_id\":" + QByteArray::number(orderId);
    }
    return ScriptedServerCalls::reply(status, body + "}");
}

QByteArray listOf(const QList<QByteArray>& orders)
{
    return "[" + orders.join(',') + "]";
}

} // namespace

TEST_F(SubmissionEngineScriptedTest, ARejectionAfterAnAttemptThatMayHaveArrivedIsReadBackAndTheOrderFoundWins)
{
    // Attempt 1 is placed, its answer lost; the server lost the key row, so the retry with the same key gets a
    // problem 404. Today's rejection is not final before the cart is read back: the order exists, so it is placed.
    auto a = start(kT0, 15 * kMinuteMs);
    const Cart cart = oneBook();
    const qint64 id = a->engine->submit(cart);
    ASSERT_TRUE(a->server.answer(0, ScriptedServerCalls::lost()));
    a->engine->retryNow(id);
    ASSERT_EQ(a->server.count("POST"), 2);
    ASSERT_TRUE(a->server.answer(1, problem(404, "/problems/not-found")));
    EXPECT_FALSE(a->hasSettled(id)) << "rejected without evidence: " << a->stored(id).problemDetail.toStdString();
    const int readBack = a->server.waiting("GET");
    ASSERT_GE(readBack, 0) << "a rejection after a maybe-sent attempt was not read back";
    EXPECT_TRUE(a->server.calls[readBack].path.startsWith(u"/orders?cart_id="));
    ASSERT_TRUE(a->server.answer(
        readBack, ScriptedServerCalls::reply(200, listOf({ScriptedServerCalls::orderJson(1, cart.cartId())}))));
    const Submission s = a->stored(id);
    EXPECT_EQ(s.state, SubmissionState::Placed) << s.problemDetail.toStdString();
    EXPECT_EQ(s.orderId, 1);
    EXPECT_EQ(s.overruled, SubmissionState::Rejected);
    ASSERT_TRUE(a->hasSettled(id));
    EXPECT_EQ(a->settled.back().state, SubmissionState::Placed);
    EXPECT_EQ(a->settled.size(), 1U) << "one outcome, not rejected then placed";
    EXPECT_EQ(a->server.count("POST"), 2);
}

TEST_F(SubmissionEngineScriptedTest, ARejectionAfterAMaybeSentAttemptWithNoOrderOnTheServerIsRejected)
{
    auto a = start(kT0, 15 * kMinuteMs);
    const Cart cart = oneBook();
    const qint64 id = a->engine->submit(cart);
    ASSERT_TRUE(a->server.answer(0, ScriptedServerCalls::lost()));
    a->engine->retryNow(id);
    ASSERT_TRUE(a->server.answer(1, problem(422, "/problems/out-of-stock")));
    const int readBack = a->server.waiting("GET");
    ASSERT_GE(readBack, 0);
    ASSERT_TRUE(a->server.answer(readBack, ScriptedServerCalls::reply(200, "[]")));
    EXPECT_EQ(a->stored(id).state, SubmissionState::Rejected);
    ASSERT_TRUE(a->hasSettled(id));
    EXPECT_EQ(a->settled.back().state, SubmissionState::Rejected);
}

TEST_F(SubmissionEngineScriptedTest, AFirstAttemptsRejectionIsFinalAtOnce)
{
    // Nothing before it could have placed anything: no read-back.
    auto a = start(kT0, 15 * kMinuteMs);
    const qint64 id = a->engine->submit(oneBook());
    ASSERT_TRUE(a->server.answer(0, problem(422, "/problems/out-of-stock")));
    EXPECT_EQ(a->stored(id).state, SubmissionState::Rejected);
    EXPECT_TRUE(a->hasSettled(id));
    EXPECT_EQ(a->server.count("GET"), 0);
}

TEST_F(SubmissionEngineScriptedTest, ARejectedCartWhoseReadBackNeverAnsweredIsReadBackAtTheNextStart)
{
    auto a = start(kT0, 15 * kMinuteMs);
    const Cart cart = oneBook();
    const qint64 id = a->engine->submit(cart);
    ASSERT_TRUE(a->server.answer(0, ScriptedServerCalls::lost()));
    a->engine->retryNow(id);
    ASSERT_TRUE(a->server.answer(1, problem(400, "/problems/bad-request")));
    ASSERT_EQ(a->stored(id).state, SubmissionState::Rejected);
    a.reset(); // the process ends before its read-back answers

    auto b = start(kT0 + kMinuteMs, 15 * kMinuteMs);
    ASSERT_TRUE(b->engine->resumePending());
    const int readBack = b->server.waiting("GET");
    ASSERT_GE(readBack, 0) << "a rejected cart after a maybe-sent attempt is not read back at the start";
    ASSERT_TRUE(b->server.answer(
        readBack, ScriptedServerCalls::reply(200, listOf({ScriptedServerCalls::orderJson(3, cart.cartId())}))));
    const Submission s = b->stored(id);
    EXPECT_EQ(s.state, SubmissionState::Placed) << s.problemDetail.toStdString();
    EXPECT_EQ(s.overruled, SubmissionState::Rejected);
    EXPECT_EQ(b->server.count("POST"), 0);
}

TEST_F(SubmissionEngineScriptedTest, AFresh201AfterAMaybeSentAttemptIsReadBackAndTwoOrdersAreDuplicated)
{
    // A server that forgets keys: attempt 1 placed order 1 (answer lost), the retry with the same key placed order 2
    // and answered a fresh 201. Never a plain success: the read-back finds both, and the cart says so.
    auto a = start(kT0, 15 * kMinuteMs);
    const Cart cart = oneBook();
    const qint64 id = a->engine->submit(cart);
    ASSERT_TRUE(a->server.answer(0, ScriptedServerCalls::lost()));
    a->engine->retryNow(id);
    ASSERT_TRUE(a->server.answer(1, ScriptedServerCalls::created(2, cart.cartId())));
    EXPECT_FALSE(a->hasSettled(id)) << "a fresh 201 after a maybe-sent attempt was taken without a read-back";
    const int readBack = a->server.waiting("GET");
    ASSERT_GE(readBack, 0) << "no read-back after a fresh 201 that follows a maybe-sent attempt";
    ASSERT_TRUE(
        a->server.answer(readBack,
                         ScriptedServerCalls::reply(200,
                                                    listOf({ScriptedServerCalls::orderJson(1, cart.cartId()),
                                                            ScriptedServerCalls::orderJson(2, cart.cartId())}))));
    const Submission s = a->stored(id);
    EXPECT_EQ(s.state, SubmissionState::Duplicated) << s.problemDetail.toStdString();
    EXPECT_EQ(QSet<qint64>({s.orderId, s.duplicateOrderId}), QSet<qint64>({1, 2}));
    ASSERT_TRUE(a->hasSettled(id));
    EXPECT_EQ(a->settled.back().state, SubmissionState::Duplicated);
    EXPECT_EQ(a->server.count("POST"), 2);
}

TEST_F(SubmissionEngineScriptedTest, AFresh201AfterAMaybeSentAttemptThatTheReadBackConfirmsIsPlaced)
{
    auto a = start(kT0, 15 * kMinuteMs);
    const Cart cart = oneBook();
    const qint64 id = a->engine->submit(cart);
    ASSERT_TRUE(a->server.answer(0, ScriptedServerCalls::lost()));
    a->engine->retryNow(id);
    ASSERT_TRUE(a->server.answer(1, ScriptedServerCalls::created(2, cart.cartId())));
    const int readBack = a->server.waiting("GET");
    ASSERT_GE(readBack, 0);
    ASSERT_TRUE(a->server.answer(
        readBack, ScriptedServerCalls::reply(200, listOf({ScriptedServerCalls::orderJson(2, cart.cartId())}))));
    EXPECT_EQ(a->stored(id).state, SubmissionState::Placed);
    EXPECT_EQ(a->stored(id).orderId, 2);
    ASSERT_TRUE(a->hasSettled(id));
    EXPECT_EQ(a->settled.back().state, SubmissionState::Placed);
}

TEST_F(SubmissionEngineScriptedTest, A422NamingAnotherCartsOrderIsNeverPlaced)
{
    // 422 cart-already-ordered naming order 777, which is another cart with the same lines: not our order.
    auto a = start(kT0, 15 * kMinuteMs);
    const Cart cart = oneBook();
    const qint64 id = a->engine->submit(cart);
    ASSERT_TRUE(a->server.answer(0, problem(422, "/problems/cart-already-ordered", 777)));
    const int named = a->server.waiting("GET");
    ASSERT_GE(named, 0);
    EXPECT_EQ(a->server.calls[named].path, QStringLiteral("/orders/777"));
    ASSERT_TRUE(
        a->server.answer(named, ScriptedServerCalls::reply(200, ScriptedServerCalls::orderJson(777, "c-other"))));
    const Submission s = a->stored(id);
    EXPECT_NE(s.state, SubmissionState::Placed) << "placed with another cart's order " << s.orderId;
    EXPECT_NE(s.orderId, 777);
}

TEST_F(SubmissionEngineScriptedTest, AReadBackListingTwoOrdersForACartGaveUpIsDuplicated)
{
    auto a = start(kT0, kMinuteMs);
    const Cart cart = oneBook();
    const qint64 id = a->engine->submit(cart);
    ASSERT_TRUE(a->server.answer(0, ScriptedServerCalls::lost()));
    machine.advanceMs(2 * kMinuteMs);
    a->wall.advanceMs(2 * kMinuteMs);
    a->engine->retryNow(id);
    ASSERT_EQ(a->stored(id).state, SubmissionState::GaveUp);
    const int readBack = a->server.waiting("GET");
    ASSERT_GE(readBack, 0);
    ASSERT_TRUE(
        a->server.answer(readBack,
                         ScriptedServerCalls::reply(200,
                                                    listOf({ScriptedServerCalls::orderJson(4, cart.cartId()),
                                                            ScriptedServerCalls::orderJson(9, cart.cartId())}))));
    const Submission s = a->stored(id);
    EXPECT_EQ(s.state, SubmissionState::Duplicated) << s.problemDetail.toStdString();
    EXPECT_EQ(QSet<qint64>({s.orderId, s.duplicateOrderId}), QSet<qint64>({4, 9}));
}

TEST_F(SubmissionEngineScriptedTest, EveryReadBackEndsInsideTheAttemptAndTheRetryWindow)
{
    // A 10 s window: the read-back of the order a 422 names may not run 60 s (a trickle of one byte every 2 s kept
    // the CLI waiting a minute); nor may the read-back after the window ends outlast a window.
    auto a = start(kT0, 10'000);
    const Cart cart = oneBook();
    const qint64 id = a->engine->submit(cart);
    machine.advanceMs(2'000);
    a->wall.advanceMs(2'000);
    ASSERT_TRUE(a->server.answer(0, problem(422, "/problems/cart-already-ordered", 5)));
    const int named = a->server.waiting("GET");
    ASSERT_GE(named, 0);
    EXPECT_LE(a->server.calls[named].limits.totalTimeoutMs, 8'000) << "past the retry window";
    EXPECT_GT(a->server.calls[named].limits.totalTimeoutMs, 0);

    Cart other;
    other.add(QStringLiteral("hrnek"), 1);
    const qint64 lost = a->engine->submit(other);
    ASSERT_TRUE(a->server.answer(a->server.waiting("POST"), ScriptedServerCalls::lost()));
    machine.advanceMs(20'000);
    a->wall.advanceMs(20'000);
    a->engine->retryNow(lost);
    ASSERT_EQ(a->stored(lost).state, SubmissionState::GaveUp);
    int readBack = -1;
    for (qsizetype i = 0; i < a->server.calls.size(); ++i) {
        if (a->server.calls[i].path.startsWith(u"/orders?cart_id=") && !a->server.calls[i].answered) {
            readBack = static_cast<int>(i);
        }
    }
    ASSERT_GE(readBack, 0);
    EXPECT_LE(a->server.calls[readBack].limits.totalTimeoutMs, 10'000) << "a give-up's read-back outlasts a window";
    static_cast<void>(id);
}

// Found by CartMachineTest (issue 37): the user abandons a cart while its attempt is on the wire and orders it again.
// The new key's read-back answered before the abandoned request reached the server, so the new key was sent and the
// server placed both. Now the new key waits for the abandoned attempt to end, and the read-back then finds its order.
TEST_F(SubmissionEngineScriptedTest, ANewKeyWaitsForAnAbandonedAttemptStillOnTheWire)
{
    auto a = start(kT0, 15 * kMinuteMs);
    const Cart cart = oneBook();
    const qint64 first = a->engine->submit(cart);
    ASSERT_GT(first, 0);
    a->engine->abandon(first);
    const qint64 second = a->engine->submit(cart);
    ASSERT_GT(second, 0);
    ASSERT_NE(second, first);
    EXPECT_EQ(a->server.calls.size(), 1) << "the new key's read-back went out while the abandoned attempt was out";
    if (a->server.calls.size() > 1) {
        ASSERT_TRUE(a->server.answer(1, ScriptedServerCalls::reply(200, "[]"))); // nothing yet, truly
    }
    ASSERT_TRUE(a->server.answer(0, ScriptedServerCalls::created(41, cart.cartId()))); // the abandoned one arrives
    EXPECT_EQ(a->stored(first).state, SubmissionState::Placed);
    a->engine->retryNow(second); // its timer
    for (int i = 1; i < a->server.calls.size(); ++i) {
        const ScriptedServerCalls::Call& call = a->server.calls[i];
        EXPECT_NE(call.method, "POST") << "a second key went to the server for a cart it holds order 41 for";
        if (!call.answered && call.method == "GET") {
            ASSERT_TRUE(a->server.answer(
                i, ScriptedServerCalls::reply(200, "[" + ScriptedServerCalls::orderJson(41, cart.cartId()) + "]")));
        }
    }
    EXPECT_EQ(a->stored(second).state, SubmissionState::Placed);
    EXPECT_EQ(a->stored(second).orderId, 41);
}

// Issue 37 (small): the state folder deleted under a running submit went unnoticed: the answer was recorded in a file
// nobody could open again and the run reported success. Now the engine stops on the first write after it and says why.
TEST_F(SubmissionEngineScriptedTest, AStateFolderDeletedUnderARunningSubmitStopsTheEngineAndSaysSo)
{
    auto a = start(kT0, 15 * kMinuteMs);
    QString reason;
    QObject::connect(a->engine.get(), &SubmissionEngine::storageBroken, [&](const QString& why) { reason = why; });
    const Cart cart = oneBook();
    const qint64 id = a->engine->submit(cart);
    ASSERT_GT(id, 0);
    ASSERT_TRUE(QDir(QString::fromStdString(dir.file(outboxFolder))).removeRecursively());
    ASSERT_TRUE(a->server.answer(0, ScriptedServerCalls::created(7, cart.cartId())));
    EXPECT_TRUE(a->engine->isStorageBroken()) << "the answer went into a deleted file and the engine went on";
    EXPECT_NE(reason.indexOf(QStringLiteral("was deleted or replaced")), -1) << reason.toStdString();
    EXPECT_FALSE(a->hasSettled(id)) << "announced as settled though nothing could record it";
    EXPECT_EQ(a->engine->submit(oneBook()), 0) << "a stopped engine took another cart";
}

// The read-back that confirms a fresh 201 after a lost answer goes unanswered: the cart is placed with the 201's order
// but not confirmed, so the next start reads it back, and the server's second order makes it duplicated (issue 37).
TEST_F(SubmissionEngineScriptedTest, APlacedCartWhoseConfirmingReadBackWentUnansweredIsReadBackAtTheNextStart)
{
    auto a = start(kT0, 15 * kMinuteMs);
    const Cart cart = oneBook();
    const qint64 id = a->engine->submit(cart);
    ASSERT_TRUE(a->server.answer(0, ScriptedServerCalls::lost())); // order 1 made, its answer cut
    a->engine->retryNow(id);
    ASSERT_EQ(a->server.calls.size(), 2);
    ASSERT_TRUE(a->server.answer(1, ScriptedServerCalls::created(2, cart.cartId()))); // a forgetful server: order 2
    ASSERT_EQ(a->server.calls.size(), 3);
    EXPECT_EQ(a->server.calls[2].method, "GET");
    ASSERT_TRUE(a->server.answer(2, ScriptedServerCalls::lost())); // the confirming read-back: no answer
    EXPECT_EQ(a->stored(id).state, SubmissionState::Placed);

    auto b = start(kT0 + kMinuteMs, 15 * kMinuteMs); // the next start
    ASSERT_TRUE(b->engine->resumePending());
    ASSERT_EQ(b->server.calls.size(), 1) << "a placed cart whose confirming read-back never answered is not read back";
    EXPECT_EQ(b->server.calls[0].method, "GET");
    ASSERT_TRUE(
        b->server.answer(0,
                         ScriptedServerCalls::reply(200,
                                                    "[" + ScriptedServerCalls::orderJson(1, cart.cartId()) + "," +
                                                        ScriptedServerCalls::orderJson(2, cart.cartId()) + "]")));
    const Submission s = b->stored(id);
    EXPECT_EQ(s.state, SubmissionState::Duplicated);
    EXPECT_EQ(QSet<qint64>({s.orderId, s.duplicateOrderId}), QSet<qint64>({1, 2}));
}

// A seeded lying-but-plausible server (issue 37, brief): per request it may act and lose the answer, drop the
// request, forget the key (a second order), answer a problem 4xx without acting, or answer a 201 with a member named
// twice; read-backs may go unanswered. Each cart is submitted, retried, resubmitted and finally reconciled against an
// honest read-back. The client never sends a second key for a cart, a resubmission of a known cart sends nothing, and
// every order the server holds for a cart ends known: placed with it, or duplicated naming it.
// ONCEORDER_LYING_CARTS sets the number of carts per seed (default 200; the full size is 1000), ONCEORDER_LYING_SEED
// one seed of your own instead of the three.
TEST_F(SubmissionEngineScriptedTest, ALyingServerNeverGetsASecondOrderFromTheClientAndEveryOrderEndsKnown)
{
    const int carts = qEnvironmentVariableIsSet("ONCEORDER_LYING_CARTS")
        ? qEnvironmentVariableIntValue("ONCEORDER_LYING_CARTS")
        : 200;
    std::vector<quint32> seeds {37U, 38U, 39U};
    if (qEnvironmentVariableIsSet("ONCEORDER_LYING_SEED")) {
        seeds = {qEnvironmentVariable("ONCEORDER_LYING_SEED").toUInt()};
    }
    for (const quint32 seed : seeds) {
        auto a = start(kT0, kMinuteMs);
        SeededRandom lies(seed);
        QHash<QString, QList<qint64>> orders; // the server's orders per cart
        QHash<QString, qint64> keys; // key -> order, as the server remembers
        qint64 nextOrder = 1;
        int secondOrders = 0;
        int clientSecondOrders = 0;
        QHash<QString, QString> keysThatOrdered; // key -> cart, for every key that made an order
        const auto draw = [&] {
            return lies.uniform();
        };
        const auto cartOfBody = [](const QByteArray& body) {
            return QJsonDocument::fromJson(body).object().value("cart_id").toString();
        };
        const auto serve = [&](int index) {
            const ScriptedServerCalls::Call call = a->server.calls[index];
            if (call.method == "GET") {
                const QString path = call.path;
                if (draw() < 0.1) {
                    return a->server.answer(index, ScriptedServerCalls::lost());
                }
                if (path.startsWith(u"/orders?cart_id=")) {
                    const QString cartId = QUrl::fromPercentEncoding(path.mid(16).toUtf8());
                    QList<QByteArray> list;
                    for (const qint64 order : orders.value(cartId)) {
                        list.append(ScriptedServerCalls::orderJson(order, cartId));
                    }
                    return a->server.answer(index, ScriptedServerCalls::reply(200, listOf(list)));
                }
                return a->server.answer(index, ScriptedServerCalls::reply(404, R"({"type":"/problems/not-found"})"));
            }
            const QString cartId = cartOfBody(call.body);
            const double r = draw();
            if (r < 0.1) { // the request never arrives
                return a->server.answer(index, ScriptedServerCalls::lost());
            }
            if (r < 0.2) { // a problem without acting (a lost key row, stock)
                return a->server.answer(index, problem(404, "/problems/not-found"));
            }
            if (r < 0.3) {
                keys.remove(call.idempotencyKey); // the server forgets the key
            }
            const bool known = keys.contains(call.idempotencyKey);
            if (!known) {
                keys.insert(call.idempotencyKey, nextOrder);
                orders[cartId].append(nextOrder++);
                keysThatOrdered.insert(call.idempotencyKey, cartId);
                secondOrders += orders[cartId].size() > 1 ? 1 : 0;
            }
            const qint64 order = keys.value(call.idempotencyKey);
            if (r < 0.5) { // acted, the answer lost
                return a->server.answer(index, ScriptedServerCalls::lost());
            }
            if (r < 0.55) { // a member named twice
                return a->server.answer(index,
                                        ScriptedServerCalls::reply(
                                            201, "{\"order_id\":" + QByteArray::number(order) + ",\"order_id\":999}"));
            }
            HttpReply ok = ScriptedServerCalls::created(order, cartId);
            ok.replayed = known;
            return a->server.answer(index, ok);
        };
        const auto drain = [&] {
            for (int i = a->server.waiting("POST") >= 0 || a->server.waiting("GET") >= 0 ? 0 : -1; i >= 0;) {
                const int post = a->server.waiting("POST");
                const int get = a->server.waiting("GET");
                const int next = post < 0 ? get : get < 0 ? post : std::min(post, get);
                if (next < 0) {
                    break;
                }
                serve(next);
            }
        };
        for (int n = 0; n < carts; ++n) {
            Cart cart(QStringLiteral("lie-%1-%2").arg(seed).arg(n));
            cart.add(QStringLiteral("kniha"), 1);
            QList<qint64> ids;
            const auto settleAll = [&] {
                for (const qint64 id : ids) {
                    for (int retry = 0; retry < 4 && a->stored(id).state == SubmissionState::Pending; ++retry) {
                        a->engine->retryNow(id);
                        drain();
                    }
                    if (a->stored(id).state == SubmissionState::Pending) {
                        a->engine->abandon(id);
                    }
                }
            };
            ids.append(a->engine->submit(cart));
            ASSERT_GT(ids.first(), 0);
            drain();
            settleAll();
            // The user orders the cart again, or a script reruns its submit: the same submission, or a new one
            // after a rejection or an abandon (read back first when the outcome was unknown).
            if (const qint64 again = a->engine->submit(cart); again > 0 && !ids.contains(again)) {
                ids.append(again);
            }
            drain();
            settleAll();
            // An honest, answered read-back at the end (a reconcile by hand) of what is not known yet. A placed cart
            // is reconciled too: when the read-back after its fresh 201 went unanswered, only this one finds the
            // server's second order (a limit of the client today: docs/cli.md).
            QList<QByteArray> list;
            for (const qint64 order : orders.value(cart.cartId())) {
                list.append(ScriptedServerCalls::orderJson(order, cart.cartId()));
            }
            for (const qint64 id : ids) {
                const SubmissionState state = a->stored(id).state;
                if (state != SubmissionState::Duplicated) {
                    a->engine->reconcile(id);
                    if (const int get = a->server.waiting("GET"); get >= 0) {
                        a->server.answer(get, ScriptedServerCalls::reply(200, listOf(list)));
                    }
                }
            }
            // Orders the client caused: one per key that made an order for this cart (the server forgetting a key
            // makes more orders from one key; that is the server's, and must end known).
            QSet<QString> orderingKeys;
            for (auto it = keysThatOrdered.begin(); it != keysThatOrdered.end(); ++it) {
                if (it.value() == cart.cartId()) {
                    orderingKeys.insert(it.key());
                }
            }
            clientSecondOrders += orderingKeys.size() > 1 ? 1 : 0;
            EXPECT_LE(orderingKeys.size(), 1) << "seed " << seed << " cart " << n << ": the client ordered it twice";
            const QList<qint64> held = orders.value(cart.cartId());
            bool known = held.isEmpty();
            for (const qint64 id : ids) {
                const Submission s = a->stored(id);
                if (held.size() >= 2) {
                    known = known ||
                        (s.state == SubmissionState::Duplicated && held.contains(s.orderId) &&
                         held.contains(s.duplicateOrderId));
                } else if (held.size() == 1) {
                    known = known || (s.state == SubmissionState::Placed && s.orderId == held.first());
                } else {
                    EXPECT_NE(s.state, SubmissionState::Placed) << "seed " << seed << " cart " << n;
                }
            }
            EXPECT_TRUE(known) << "seed " << seed << " cart " << n << ": " << held.size() << " order(s) not known";
            const int posts = a->server.count("POST");
            if (!held.isEmpty()) {
                a->engine->submit(cart);
                EXPECT_EQ(a->server.count("POST"), posts) << "seed " << seed << " cart " << n << ": sent again";
            }
        }
        std::cout << "seed " << seed << ": " << carts << " carts, " << nextOrder - 1 << " orders, " << secondOrders
                  << " second orders made by the server forgetting keys, " << clientSecondOrders
                  << " caused by the client\n";
    }
}

// The lying server with every misbehaviour of issue 37's list, resubmits and kills (issue 37, full): per POST it may
// drop the request, answer a problem 4xx or a 503 without acting, forget the key and place again, act and cut the
// answer mid-body or stream it without end (the client cuts it at its limits: an answer that never came), answer a
// 201 for another cart, a 422 naming another cart's order (read back: that cart's) or this cart's real order, or a
// 201 with a member named twice; and the client process may be killed mid-attempt (the server acting on the request
// or not), a new one resuming from the same outbox file. Read-backs are truthful or unanswered. Each cart is
// submitted, retried, resubmitted, and at the end the client is started once more and the cart reconciled by hand
// against an answered read-back only if it is still unknown. The client never sends a second key for a cart, and
// every order the server holds ends known: placed with it, or duplicated naming it (a cart abandoned or given up with
// its order unknown counts as not known). 100 carts per seed in the suite; ONCEORDER_LYING_CARTS (full size: 1000) and
// ONCEORDER_LYING_SEED as above.
TEST_F(SubmissionEngineScriptedTest, ALyingServerAndKilledClientsNeverGetASecondOrderFromTheClient)
{
    const int carts = qEnvironmentVariableIsSet("ONCEORDER_LYING_CARTS")
        ? qEnvironmentVariableIntValue("ONCEORDER_LYING_CARTS")
        : 100;
    std::vector<quint32> seeds {37U, 38U, 39U};
    if (qEnvironmentVariableIsSet("ONCEORDER_LYING_SEED")) {
        seeds = {qEnvironmentVariable("ONCEORDER_LYING_SEED").toUInt()};
    }
    constexpr qint64 kAfterKillMs = 70'000; // past the dead process's lease (an attempt's 60 s and its slack)
    for (const quint32 seed : seeds) {
        qint64 wallMs = kT0;
        auto a = start(wallMs, 15 * kMinuteMs);
        SeededRandom lies(seed);
        QHash<QString, QList<qint64>> orders; // the server's orders per cart
        QHash<QString, qint64> keys; // key -> order, as the server remembers
        QHash<QString, QString> keysThatOrdered; // key -> cart, for every key that made an order
        // Keys the server forgot and placed again: their later answers are fresh 201s of the second order (a server
        // that replays a re-placed key with Idempotent-Replayed is one the client cannot see: docs/cli.md).
        QSet<QString> replacedKeys;
        qint64 nextOrder = 1;
        constexpr qint64 kOtherCartsOrder = 1'000'000;
        int secondOrders = 0;
        int clientSecondOrders = 0;
        int kills = 0;
        int unknownAtEnd = 0;
        QHash<QString, int> misbehaviours;
        const auto cartOfBody = [](const QByteArray& body) {
            return QJsonDocument::fromJson(body).object().value("cart_id").toString();
        };
        const auto act = [&](const ScriptedServerCalls::Call& call) {
            const QString cartId = cartOfBody(call.body);
            const bool known = keys.contains(call.idempotencyKey);
            if (!known) {
                keys.insert(call.idempotencyKey, nextOrder);
                orders[cartId].append(nextOrder++);
                keysThatOrdered.insert(call.idempotencyKey, cartId);
                secondOrders += orders[cartId].size() > 1 ? 1 : 0;
            }
            return std::pair(keys.value(call.idempotencyKey), known);
        };
        const auto listFor = [&](const QString& cartId) {
            QList<QByteArray> list;
            for (const qint64 order : orders.value(cartId)) {
                list.append(ScriptedServerCalls::orderJson(order, cartId));
            }
            return listOf(list);
        };
        const auto kill = [&](bool serverActs, int index) {
            // The process dies with this POST out: the server may still act on it; nobody hears the answer.
            if (serverActs) {
                act(a->server.calls[index]);
            }
            ++kills;
            a->engine.reset();
            wallMs += kAfterKillMs;
            machine.advanceMs(kAfterKillMs);
            a = start(wallMs, 15 * kMinuteMs);
            ASSERT_TRUE(a->engine->resumePending());
        };
        const auto serve = [&](int index) {
            const ScriptedServerCalls::Call call = a->server.calls[index];
            if (call.method == "GET") {
                if (lies.uniform() < 0.1) {
                    return a->server.answer(index, ScriptedServerCalls::lost());
                }
                if (call.path.startsWith(u"/orders?cart_id=")) {
                    const QString cartId = QUrl::fromPercentEncoding(call.path.mid(16).toUtf8());
                    return a->server.answer(index, ScriptedServerCalls::reply(200, listFor(cartId)));
                }
                const qint64 named = call.path.mid(8).toLongLong(); // /orders/{id}
                if (named == kOtherCartsOrder) {
                    return a->server.answer(
                        index, ScriptedServerCalls::reply(200, ScriptedServerCalls::orderJson(named, "someone-else")));
                }
                for (auto it = orders.begin(); it != orders.end(); ++it) {
                    if (it.value().contains(named)) {
                        return a->server.answer(
                            index, ScriptedServerCalls::reply(200, ScriptedServerCalls::orderJson(named, it.key())));
                    }
                }
                return a->server.answer(index, problem(404, "/problems/not-found"));
            }
            const QString cartId = cartOfBody(call.body);
            const double r = lies.uniform();
            const auto say = [&](const char* what) {
                misbehaviours[QString::fromLatin1(what)] += 1;
            };
            if (r < 0.04) {
                say("killed mid-attempt");
                kill(lies.uniform() < 0.5, index);
                return true;
            }
            if (r < 0.10) {
                say("request dropped");
                return a->server.answer(index, ScriptedServerCalls::lost());
            }
            if (r < 0.16) {
                say("4xx without acting");
                const int status = lies.uniform() < 0.5 ? 404 : 400;
                return a->server.answer(
                    index, problem(status, status == 404 ? "/problems/not-found" : "/problems/out-of-stock"));
            }
            if (r < 0.20) {
                say("503 without acting");
                return a->server.answer(index, problem(503, "/problems/unavailable"));
            }
            if (r < 0.24) {
                say("422 naming another cart's order");
                return a->server.answer(index, problem(422, "/problems/cart-already-ordered", kOtherCartsOrder));
            }
            if (r < 0.27) {
                say("201 for another cart");
                return a->server.answer(index, ScriptedServerCalls::created(kOtherCartsOrder, "someone-else"));
            }
            if (r < 0.30 && !orders.value(cartId).isEmpty()) {
                say("422 naming this cart's order");
                return a->server.answer(index,
                                        problem(422, "/problems/cart-already-ordered", orders.value(cartId).first()));
            }
            if (r < 0.38) {
                say("forgets the key");
                if (keys.remove(call.idempotencyKey) > 0) {
                    replacedKeys.insert(call.idempotencyKey);
                }
            }
            const auto [order, known] = act(call);
            if (r < 0.48) {
                say("acted, answer cut mid-body");
                HttpReply cut = ScriptedServerCalls::lost();
                cut.errorString = QStringLiteral("the connection closed mid-body");
                return a->server.answer(index, cut);
            }
            if (r < 0.53) {
                say("acted, endless chunked answer cut at the client's limits");
                HttpReply endless;
                endless.error = QNetworkReply::UnknownContentError;
                endless.errorString = QStringLiteral("the answer is larger than 4194304 bytes");
                return a->server.answer(index, endless);
            }
            if (r < 0.58) {
                say("acted, 201 with a member named twice");
                return a->server.answer(index,
                                        ScriptedServerCalls::reply(201,
                                                                   "{\"order_id\":" + QByteArray::number(order) +
                                                                       ",\"status\":\"placed\",\"cart_id\":\"" +
                                                                       cartId.toUtf8() + "\",\"order_id\":999}"));
            }
            HttpReply ok = ScriptedServerCalls::created(order, cartId);
            ok.replayed = known && !replacedKeys.contains(call.idempotencyKey);
            return a->server.answer(index, ok);
        };
        const auto drain = [&] {
            for (int guard = 0; guard < 1000; ++guard) {
                const int post = a->server.waiting("POST");
                const int get = a->server.waiting("GET");
                const int next = post < 0 ? get : get < 0 ? post : std::min(post, get);
                if (next < 0) {
                    return;
                }
                serve(next);
            }
        };
        for (int n = 0; n < carts; ++n) {
            // Twenty carts to a state folder: a start reads back the whole folder's unknown carts.
            if (n % 20 == 0) {
                outboxFolder = "kill-" + std::to_string(seed) + "-" + std::to_string(n / 20);
                a = start(wallMs, 15 * kMinuteMs);
            }
            Cart cart(QStringLiteral("kill-%1-%2").arg(seed).arg(n));
            cart.add(QStringLiteral("kniha"), 1);
            QList<qint64> submitted; // a new submission is only ever made by submit()
            const auto ids = [&] {
                return submitted;
            };
            const auto submit = [&] {
                const qint64 id = a->engine->submit(cart);
                if (id > 0 && !submitted.contains(id)) {
                    submitted.append(id);
                }
                return id;
            };
            const auto settleAll = [&] {
                for (int round = 0; round < 4; ++round) {
                    for (const qint64 id : ids()) {
                        if (a->stored(id).state == SubmissionState::Pending) {
                            a->engine->retryNow(id);
                            drain();
                        }
                    }
                }
                for (const qint64 id : ids()) {
                    if (a->stored(id).state == SubmissionState::Pending) {
                        a->engine->abandon(id);
                    }
                }
            };
            ASSERT_GT(submit(), 0);
            drain();
            settleAll();
            submit(); // ordered again, or a script's rerun
            drain();
            settleAll();
            // One more start: what it reads back at a start (given up, rejected or placed after a missing answer),
            // answered; then a reconcile by hand, answered, of what is still unknown (gave up, abandoned).
            a->engine.reset();
            a = start(wallMs, 15 * kMinuteMs);
            ASSERT_TRUE(a->engine->resumePending());
            for (int get = a->server.waiting("GET"); get >= 0; get = a->server.waiting("GET")) {
                const QString path = a->server.calls[get].path;
                a->server.answer(
                    get, ScriptedServerCalls::reply(200, listFor(QUrl::fromPercentEncoding(path.mid(16).toUtf8()))));
            }
            for (const qint64 id : ids()) {
                const SubmissionState state = a->stored(id).state;
                if (state == SubmissionState::GaveUp || state == SubmissionState::Abandoned) {
                    ++unknownAtEnd;
                    a->engine->reconcile(id);
                    if (const int get = a->server.waiting("GET"); get >= 0) {
                        a->server.answer(get, ScriptedServerCalls::reply(200, listFor(cart.cartId())));
                    }
                }
            }
            QSet<QString> orderingKeys;
            for (auto it = keysThatOrdered.begin(); it != keysThatOrdered.end(); ++it) {
                if (it.value() == cart.cartId()) {
                    orderingKeys.insert(it.key());
                }
            }
            clientSecondOrders += orderingKeys.size() > 1 ? 1 : 0;
            EXPECT_LE(orderingKeys.size(), 1) << "seed " << seed << " cart " << n << ": the client ordered it twice";
            const QList<qint64> held = orders.value(cart.cartId());
            bool known = held.isEmpty();
            for (const qint64 id : ids()) {
                const Submission s = a->stored(id);
                EXPECT_FALSE((s.state == SubmissionState::Placed || s.state == SubmissionState::Duplicated) &&
                             !held.contains(s.orderId))
                    << "seed " << seed << " cart " << n << ": claims order " << s.orderId;
                known = known ||
                    (held.size() >= 2 && s.state == SubmissionState::Duplicated && held.contains(s.orderId) &&
                     held.contains(s.duplicateOrderId)) ||
                    (held.size() == 1 && s.state == SubmissionState::Placed && s.orderId == held.first());
            }
            std::string says;
            for (const qint64 id : ids()) {
                const Submission s = a->stored(id);
                says += " " + submissionStateName(s.state).toStdString() + " " + std::to_string(s.orderId) + "/" +
                    std::to_string(s.duplicateOrderId) + " (attempts:";
                for (const Attempt& attempt : s.attempts) {
                    says += " " + attemptOutcomeName(attempt.outcome).toStdString() + "/" +
                        std::to_string(attempt.httpStatus);
                }
                says += ")";
            }
            EXPECT_TRUE(known) << "seed " << seed << " cart " << n << ": " << held.size()
                               << " order(s) not known; the cart says" << says;
            const int posts = a->server.count("POST");
            if (!held.isEmpty()) {
                a->engine->submit(cart);
                EXPECT_EQ(a->server.count("POST"), posts) << "seed " << seed << " cart " << n << ": sent again";
            }
            drain();
        }
        std::cout << "seed " << seed << ": " << carts << " carts, " << nextOrder - 1 << " orders, " << secondOrders
                  << " second orders made by the server forgetting keys, " << clientSecondOrders
                  << " caused by the client; " << kills << " clients killed mid-attempt, " << unknownAtEnd
                  << " carts reconciled by hand\n  misbehaviours:";
        for (auto it = misbehaviours.begin(); it != misbehaviours.end(); ++it) {
            std::cout << " " << it.key().toStdString() << " " << it.value() << ";";
        }
        std::cout << "\n";
    }
}
