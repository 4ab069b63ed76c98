// The submission engine against a hostile peer (issue 28): a hand-written HTTP server in the test answers what
// a proxy, a broken gateway or a wrong server could answer. Whatever it says, the cart is never "rejected" or
// "placed, order 0" on an answer that does not fit, and an answer that proves nothing never leads to a new key.
// The clock is a ManualClock (the retry window never runs out by itself); the retry delays are the policy's own
// few milliseconds, and every wait is on an event with a guard against hangs.
#include "net/ServerApi.h"
#include "submission/SubmissionEngine.h"
#include "support/ScriptedPeer.h"
#include "support/ServerProcess.h"

#include <QCoreApplication>
#include <QEventLoop>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTimer>
#include <gtest/gtest.h>

#include <memory>
#include <vector>

using namespace onceorder::core;
using namespace onceorder::test;

namespace {

EngineConfig fastConfig()
{
    EngineConfig config;
    config.policy.baseDelayMs = 5;
    config.policy.maxDelayMs = 40;
    config.policy.retryWindowMs = 60'000;
    config.policy.transferTimeoutMs = 5'000;
    config.budget.capacity = 1000;
    config.resumeSpreadMs = 0;
    return config;
}

Cart cartOf(const QString& product, int quantity)
{
    Cart cart;
    cart.add(product, quantity);
    return cart;
}

// What our server answers for a new order of this cart.
QByteArray orderBody(qint64 orderId, const QString& cartId)
{
    return "{\"order_id\":" + QByteArray::number(orderId) + ",\"status\":\"placed\",\"cart_id\":\"" + cartId.toUtf8() +
        "\",\"items\":[{\"product\":\"kniha\",\"quantity\":1}]}";
}

QByteArray created(qint64 orderId, const QString& cartId, bool replayed = false)
{
    return ScriptedPeer::answer(201, "Created", orderBody(orderId, cartId), "application/json",
                                replayed ? "Idempotent-Replayed: true\r\n" : "");
}

class HostileAnswersTest : public ::testing::Test
{
protected:
    static void SetUpTestSuite() { s_app = std::make_unique<QCoreApplication>(s_argc, s_argv); }
    static void TearDownTestSuite() { s_app.reset(); }

    // Starts the engine against a peer answering by `script`.
    void answerWith(ScriptedPeer::Script script, const EngineConfig& config = fastConfig())
    {
        peer = std::make_unique<ScriptedPeer>(std::move(script));
        ASSERT_TRUE(peer->listening);
        api = std::make_unique<ServerApi>(peer->url(), QStringLiteral("demo-key-A"));
        engine = std::make_unique<SubmissionEngine>(outbox, api.get(), QStringLiteral("test"), clock, random, config);
        QObject::connect(engine.get(), &SubmissionEngine::settled,
                         [this](const Submission& s) { settled.push_back(s); });
        QObject::connect(engine.get(), &SubmissionEngine::submissionChanged,
                         [this](const Submission& s) { states.push_back(s.state); });
    }

    // Runs the event loop until `done` holds; fails after 20 s rather than hanging.
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

    Submission placeAndWait(const Cart& cart)
    {
        const qint64 id = engine->submit(cart);
        EXPECT_GT(id, 0);
        runUntil([&] {
            return std::any_of(settled.begin(), settled.end(), [id](const Submission& s) { return s.id == id; });
        });
        return *outbox.find(id);
    }

    // An earlier submission of this cart that gave up after an attempt that may have reached the server: ordering the
    // cart again reads its orders back before the new key's first POST. `out`: the earlier submission, if wanted.
    void earlierGaveUp(const Cart& cart, Submission* out = nullptr)
    {
        Submission earlier;
        earlier.key = QStringLiteral("earlier-key");
        earlier.cartId = cart.cartId();
        earlier.body = cart.toRequestBody();
        earlier.target = QUrl(QStringLiteral("test"));
        earlier.createdMs = clock.nowMs() - 60'000;
        earlier.deadlineMs = clock.nowMs() - 1000;
        outbox.create(earlier, QStringLiteral("demo-key-A"));
        outbox.recordAttemptStart(earlier.id,
                                  Attempt {1, earlier.createdMs, 0, AttemptOutcome::InFlight, 0, false, {}, -1, {}});
        outbox.recordAttemptEnd(earlier.id,
                                Attempt {1,
                                         earlier.createdMs,
                                         earlier.createdMs + 10,
                                         AttemptOutcome::MaybeSent,
                                         0,
                                         false,
                                         QStringLiteral("reset"),
                                         -1,
                                         {}});
        earlier.state = SubmissionState::GaveUp;
        ASSERT_TRUE(outbox.settle(earlier, SubmissionState::Pending));
        if (out) {
            *out = earlier;
        }
    }

    bool wasEver(SubmissionState state) const { return std::find(states.begin(), states.end(), state) != states.end(); }

    static inline int s_argc = 1;
    static inline char s_name[] = "HostileAnswersTest";
    static inline char* s_argv[] = {s_name, nullptr};
    static inline std::unique_ptr<QCoreApplication> s_app;

    TempDir dir;
    Outbox outbox {QString::fromStdString(dir.file("client"))};
    ManualClock clock;
    SeededRandom random {28};
    std::unique_ptr<ScriptedPeer> peer;
    std::unique_ptr<ServerApi> api;
    std::unique_ptr<SubmissionEngine> engine;
    std::vector<Submission> settled;
    std::vector<SubmissionState> states;
};

} // namespace

TEST_F(HostileAnswersTest, ASwitchingProtocolsAnswerBeforeTheOrderIsNotFinalTheSameKeyAsksAgain)
{
    // The first POST gets "101 Switching Protocols" and then bytes that look like a 201: after a 101 the
    // connection speaks something else, so nothing after it is an HTTP answer. The outcome is unknown, never
    // "rejected"; the same key asked again gets the server's stored answer.
    Cart cart = cartOf(QStringLiteral("kniha"), 1);
    int posts = 0;
    answerWith([&](const PeerRequest& request) -> QByteArray {
        if (request.method != "POST") {
            return ScriptedPeer::answer(500, "Internal Server Error", "{}");
        }
        if (++posts == 1) {
            return "HTTP/1.1 101 Switching Protocols\r\nUpgrade: h2c\r\nConnection: Upgrade\r\n\r\n" +
                created(7, cart.cartId());
        }
        return created(7, cart.cartId(), true);
    });
    const Submission s = placeAndWait(cart);
    EXPECT_FALSE(wasEver(SubmissionState::Rejected));
    EXPECT_EQ(s.state, SubmissionState::Placed) << s.problemDetail.toStdString();
    EXPECT_EQ(s.orderId, 7);
    ASSERT_EQ(s.attempts.size(), 2);
    EXPECT_EQ(s.attempts[0].outcome, AttemptOutcome::MaybeSent) << s.attempts[0].error.toStdString();
    const auto sent = peer->requestsTo("POST", "/orders");
    ASSERT_EQ(sent.size(), 2);
    EXPECT_EQ(sent[0].header("Idempotency-Key"), sent[1].header("Idempotency-Key")) << "one key for the cart";
}

TEST_F(HostileAnswersTest, AnInterimAnswerOfAnyKindIsNeverTheOutcome)
{
    // 102 Processing and an unknown 199 before the connection closes: no final answer came.
    Cart cart = cartOf(QStringLiteral("kniha"), 1);
    int posts = 0;
    answerWith([&](const PeerRequest&) -> QByteArray {
        switch (++posts) {
        case 1:
            return "HTTP/1.1 102 Processing\r\n\r\n";
        case 2:
            return "HTTP/1.1 199 Whatever\r\n\r\n";
        default:
            return created(8, cart.cartId(), true);
        }
    });
    const Submission s = placeAndWait(cart);
    EXPECT_FALSE(wasEver(SubmissionState::Rejected));
    EXPECT_EQ(s.state, SubmissionState::Placed) << s.problemDetail.toStdString();
    EXPECT_EQ(s.orderId, 8);
    ASSERT_EQ(s.attempts.size(), 3);
    EXPECT_EQ(s.attempts[0].outcome, AttemptOutcome::MaybeSent);
    EXPECT_EQ(s.attempts[1].outcome, AttemptOutcome::MaybeSent);
}

namespace {

struct UnfitAnswer
{
    const char* name;
    QByteArray (*bytes)(const QString& cartId);
};

const UnfitAnswer kUnfitOrderAnswers[] = {
    {"OkWithHtml",
     [](const QString&) {
         return ScriptedPeer::answer(200, "OK", "<html><body>Welcome to the hotel Wi-Fi</body></html>", "text/html");
     }},
    {"NoContent",
     [](const QString&) {
         return QByteArray("HTTP/1.1 204 No Content\r\n\r\n");
     }},
    {"CreatedForAnotherCart",
     [](const QString&) {
         return created(99, QStringLiteral("somebody-elses-cart"));
     }},
    {"CreatedCutShortByItsLength",
     [](const QString& cartId) {
         const QByteArray body = orderBody(7, cartId);
         return "HTTP/1.1 201 Created\r\nContent-Type: application/json\r\nContent-Length: 16\r\n\r\n" + body;
     }},
    {"CreatedWithAStringOrderId",
     [](const QString& cartId) {
         return ScriptedPeer::answer(201, "Created", "{\"order_id\":\"7\",\"cart_id\":\"" + cartId.toUtf8() + "\"}");
     }},
    {"CreatedWithoutAnOrderId",
     [](const QString& cartId) {
         return ScriptedPeer::answer(201, "Created", "{\"status\":\"placed\",\"cart_id\":\"" + cartId.toUtf8() + "\"}");
     }},
    {"OkWithAList",
     [](const QString&) {
         return ScriptedPeer::answer(200, "OK", "[{\"order_id\":7}]");
     }},
    {"CreatedWithAFractionalOrderId",
     [](const QString&) {
         return ScriptedPeer::answer(201, "Created", "{\"order_id\":7.5}");
     }},
};

// gtest prints the answer by its name.
void PrintTo(const UnfitAnswer& answer, std::ostream* out)
{
    *out << answer.name;
}

class UnfitOrderAnswerTest : public HostileAnswersTest, public ::testing::WithParamInterface<UnfitAnswer>
{
};

} // namespace

TEST_P(UnfitOrderAnswerTest, IsUnknownAndTheSameKeyAsksAgainNeverPlacedWithoutItsOrder)
{
    // A 2xx is the order only with a well-formed order body for this cart. Anything else proves nothing: the
    // outcome is unknown ("maybe sent"), and the same key asked again gets the server's stored answer.
    Cart cart = cartOf(QStringLiteral("kniha"), 1);
    int posts = 0;
    answerWith([&](const PeerRequest& request) -> QByteArray {
        if (request.method != "POST") {
            return ScriptedPeer::answer(503, "Service Unavailable", "{}");
        }
        return ++posts == 1 ? GetParam().bytes(cart.cartId()) : created(7, cart.cartId(), true);
    });
    const Submission s = placeAndWait(cart);
    EXPECT_EQ(s.state, SubmissionState::Placed) << s.problemDetail.toStdString();
    EXPECT_EQ(s.orderId, 7) << "placed on an answer that does not name our order";
    ASSERT_EQ(s.attempts.size(), 2);
    EXPECT_EQ(s.attempts[0].outcome, AttemptOutcome::MaybeSent);
    EXPECT_FALSE(s.attempts[0].error.isEmpty()) << "the timeline says why the answer was not taken";
    const auto sent = peer->requestsTo("POST", "/orders");
    ASSERT_EQ(sent.size(), 2);
    EXPECT_EQ(sent[0].header("Idempotency-Key"), sent[1].header("Idempotency-Key"));
}

INSTANTIATE_TEST_SUITE_P(HostileAnswers, UnfitOrderAnswerTest, ::testing::ValuesIn(kUnfitOrderAnswers),
                         [](const ::testing::TestParamInfo<UnfitAnswer>& param) {
                             return std::string(param.param.name);
                         });

TEST_F(HostileAnswersTest, ARedirectAfterAMaybeSentAttemptIsReadBackNeverASilentGiveUp)
{
    // The first attempt's connection closes before any answer (the server may have placed it); the retry meets a
    // 307. Sending the order elsewhere is not ours to do, but giving up without asking would leave an order the
    // client does not know about: the cart's orders are read back, and the order found settles it.
    Cart cart = cartOf(QStringLiteral("kniha"), 1);
    int posts = 0;
    answerWith([&](const PeerRequest& request) -> QByteArray {
        if (request.method == "GET") {
            return ScriptedPeer::answer(200, "OK", "[" + orderBody(9, cart.cartId()) + "]");
        }
        return ++posts == 1 ? QByteArray()
                            : ScriptedPeer::answer(307, "Temporary Redirect", "", "text/plain",
                                                   "Location: http://elsewhere.example/orders\r\n");
    });
    const Submission s = placeAndWait(cart);
    EXPECT_EQ(s.state, SubmissionState::Placed) << s.problemDetail.toStdString();
    EXPECT_EQ(s.orderId, 9);
    ASSERT_EQ(peer->requestsTo("GET", "/orders").size(), 1) << "the cart's orders are read back";
    EXPECT_TRUE(peer->requestsTo("GET", "/orders").first().target.contains(cart.cartId().toUtf8()));
    EXPECT_EQ(peer->requestsTo("POST", "/orders").size(), 2) << "a redirect is not followed with the order";
}

TEST_F(HostileAnswersTest, AReadBackThatIsNotTheOrderListIsUnknownNeverNoOrder)
{
    // An earlier submission of this cart gave up after an attempt that may have reached the server. Ordering the
    // cart again means a new key, so the cart's orders are read back first. A 200 that is not the documented list
    // (a proxy's HTML, an object, a list of something else) says nothing: the new key is not sent, the read-back
    // is asked again, and the real list settles it without a second order.
    Cart cart = cartOf(QStringLiteral("kniha"), 1);
    Submission earlier;
    earlierGaveUp(cart, &earlier);
    ASSERT_FALSE(HasFatalFailure());

    const QList<QByteArray> unfit {
        ScriptedPeer::answer(200, "OK", "<html>Please log in</html>", "text/html"),
        ScriptedPeer::answer(200, "OK", "{\"orders\":[]}"),
        ScriptedPeer::answer(200, "OK", "[{\"id\":12}]"),
        ScriptedPeer::answer(200, "OK", "[{\"order_id\":12,\"cart_id\":\"another-cart\"}]"),
        ScriptedPeer::answer(200, "OK", "[\"order\"]"),
    };
    int gets = 0;
    answerWith([&](const PeerRequest& request) -> QByteArray {
        if (request.method == "POST") {
            return created(13, cart.cartId()); // a second order: the defect
        }
        const int n = gets++;
        return n < unfit.size() ? unfit[n] : ScriptedPeer::answer(200, "OK", "[" + orderBody(12, cart.cartId()) + "]");
    });
    const Submission s = placeAndWait(cart);
    EXPECT_TRUE(peer->requestsTo("POST", "/orders").isEmpty()) << "a new key sent on a read-back that proved nothing";
    EXPECT_EQ(s.state, SubmissionState::Placed) << s.problemDetail.toStdString();
    EXPECT_EQ(s.orderId, 12);
    EXPECT_EQ(gets, unfit.size() + 1);
    EXPECT_EQ(outbox.find(earlier.id)->state, SubmissionState::Placed) << "the earlier submission learns it too";
}

TEST_F(HostileAnswersTest, AReconcileAnsweredWithSomethingElseThanTheListSaysNothingWasLearnt)
{
    // Reconciling an abandoned cart by hand: an HTML 200 is not "the server has no order for this cart".
    Cart cart = cartOf(QStringLiteral("kniha"), 1);
    int gets = 0;
    answerWith([&](const PeerRequest& request) -> QByteArray {
        if (request.method == "POST") {
            return QByteArray(); // closed without an answer: maybe sent
        }
        return ++gets == 1 ? ScriptedPeer::answer(200, "OK", "<html>Maintenance</html>", "text/html")
                           : ScriptedPeer::answer(200, "OK", "[" + orderBody(21, cart.cartId()) + "]");
    });
    const qint64 id = engine->submit(cart);
    runUntil([&] { return !peer->requestsTo("POST", "/orders").isEmpty(); });
    engine->abandon(id);
    ASSERT_EQ(outbox.find(id)->state, SubmissionState::Abandoned);
    settled.clear();

    engine->reconcile(id);
    runUntil([&] { return gets == 1; });
    engine->reconcile(id);
    runUntil([&] { return !settled.empty() && settled.back().state == SubmissionState::Placed; });
    for (const Submission& s : settled) {
        EXPECT_FALSE(s.problemDetail.contains(QStringLiteral("nothing was placed"))) << s.problemDetail.toStdString();
    }
    EXPECT_EQ(outbox.find(id)->orderId, 21);
}

TEST_F(HostileAnswersTest, TheCliPlacesTheCartOnceThroughAnInterimAnswerAndAPortalPage)
{
    // The real onceorder-cli against the hostile peer: a 101 before a 201, then a 200 with HTML, then the server's
    // stored 201. One key for all three; the CLI reports the order the server named, and exits 0.
    const QString cartId = QStringLiteral("c-hostile");
    int posts = 0;
    answerWith([&](const PeerRequest& request) -> QByteArray {
        if (request.method != "POST") {
            return ScriptedPeer::answer(503, "Service Unavailable", "{}");
        }
        switch (++posts) {
        case 1:
            return "HTTP/1.1 101 Switching Protocols\r\nUpgrade: h2c\r\n\r\n" + created(31, cartId);
        case 2:
            return ScriptedPeer::answer(200, "OK", "<html>Sign in to the Wi-Fi</html>", "text/html");
        default:
            return created(31, cartId, true);
        }
    });
    QProcess cli;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("HOME"), QString::fromStdString(dir.file("home")));
    environment.insert(QStringLiteral("XDG_DATA_HOME"), QString::fromStdString(dir.file("home/data")));
    environment.remove(QStringLiteral("ONCEORDER_CRASH_AT"));
    cli.setProcessEnvironment(environment);
    cli.start(QStringLiteral(ONCEORDER_CLI_BIN),
              {"submit", "--product", "kniha", "--cart-id", cartId, "--server", peer->url().toString(), "--state",
               QString::fromStdString(dir.file("cli-state")), "--base-delay-ms", "10", "--max-delay-ms", "50"});
    runUntil([&] { return cli.state() == QProcess::NotRunning; });
    cli.waitForFinished(1000);
    const QByteArray out = cli.readAllStandardOutput();
    EXPECT_EQ(cli.exitCode(), 0) << cli.readAllStandardError().toStdString();
    const QJsonObject line = QJsonDocument::fromJson(out.trimmed().split('\n').last()).object();
    EXPECT_EQ(line.value("state").toString(), QStringLiteral("placed")) << out.toStdString();
    EXPECT_EQ(line.value("order_id").toInteger(), 31);
    EXPECT_EQ(line.value("attempts").toInt(), 3);
    const auto sent = peer->requestsTo("POST", "/orders");
    ASSERT_EQ(sent.size(), 3);
    EXPECT_EQ(sent[0].header("Idempotency-Key"), sent[1].header("Idempotency-Key"));
    EXPECT_EQ(sent[1].header("Idempotency-Key"), sent[2].header("Idempotency-Key"));
}

TEST_F(HostileAnswersTest, ARefusalThatIsNotTheServersProblemAnswerIsReadBackNeverRejected)
{
    // Our server refuses with application/problem+json; a 4xx page from a proxy or a firewall in between is not its
    // word on the order, and it may come after the proxy passed the request on. The cart is not "rejected" (a
    // rejected cart is ordered again without a read-back): it gives up without retrying and is read back.
    Cart cart = cartOf(QStringLiteral("kniha"), 1);
    answerWith([&](const PeerRequest& request) -> QByteArray {
        if (request.method == "GET") {
            return ScriptedPeer::answer(200, "OK", "[" + orderBody(41, cart.cartId()) + "]");
        }
        return ScriptedPeer::answer(403, "Forbidden", "<html><h1>Access denied</h1></html>", "text/html");
    });
    const Submission s = placeAndWait(cart);
    EXPECT_FALSE(wasEver(SubmissionState::Rejected));
    EXPECT_EQ(s.state, SubmissionState::Placed) << s.problemDetail.toStdString();
    EXPECT_EQ(s.orderId, 41);
    EXPECT_EQ(peer->requestsTo("POST", "/orders").size(), 1);
    EXPECT_EQ(peer->requestsTo("GET", "/orders").size(), 1);
}

TEST_F(HostileAnswersTest, AReadBackAnswerOverTheSizeCapIsUnknownNeverNoOrder)
{
    // A read-back answered with a body larger than any answer the client reads (here a valid empty list padded to
    // 5 MiB; in the report 1.5 GB that took 1.5 GB of memory): it went through QNetworkAccessManager without a cap,
    // was read whole and taken for "no order", and the new key was sent. Read-backs now go through HttpExchange with
    // the attempts' limits: over the cap nothing is learnt, and the real list settles it without a second order.
    Cart cart = cartOf(QStringLiteral("kniha"), 1);
    earlierGaveUp(cart);
    int gets = 0;
    answerWith([&](const PeerRequest& request) -> QByteArray {
        if (request.method == "POST") {
            return created(13, cart.cartId()); // a second order: the defect
        }
        if (gets++ == 0) {
            return ScriptedPeer::answer(200, "OK", "[" + QByteArray(5 * 1024 * 1024, ' ') + "]");
        }
        return ScriptedPeer::answer(200, "OK", "[" + orderBody(12, cart.cartId()) + "]");
    });
    const Submission s = placeAndWait(cart);
    EXPECT_TRUE(peer->requestsTo("POST", "/orders").isEmpty()) << "a new key sent on an answer over the size cap";
    EXPECT_EQ(s.state, SubmissionState::Placed) << s.problemDetail.toStdString();
    EXPECT_EQ(s.orderId, 12);
    EXPECT_EQ(gets, 2);
}

TEST_F(HostileAnswersTest, AReadBackThatTricklesEndsAtTheAttemptsDeadline)
{
    // A server that trickles one byte at a time kept a read-back (and the CLI) alive far past its window: the old
    // client had only an idle timeout, which every byte restarts. The read-back ends by the attempt's total time (here
    // 1 s), counts as no answer, and is asked again.
    Cart cart = cartOf(QStringLiteral("kniha"), 1);
    earlierGaveUp(cart);
    EngineConfig config = fastConfig();
    config.policy.attemptTimeoutMs = 1000;
    answerWith(
        [&](const PeerRequest& request) -> QByteArray {
            if (request.method == "POST") {
                return created(13, cart.cartId());
            }
            if (peer->requestsTo("GET", "/orders").size() == 1) {
                return ScriptedPeer::hold();
            }
            return ScriptedPeer::answer(200, "OK", "[" + orderBody(12, cart.cartId()) + "]");
        },
        config);
    QTimer trickle;
    int written = 0;
    QObject::connect(&trickle, &QTimer::timeout, [&] {
        if (peer->heldCount() == 1) {
            peer->trickle(0, written++ == 0 ? QByteArray("HTTP/1.1 200 OK\r\nX-Slow: ") : QByteArray("x"));
        }
    });
    trickle.start(50);
    const Submission s = placeAndWait(cart);
    EXPECT_EQ(s.state, SubmissionState::Placed) << s.problemDetail.toStdString();
    EXPECT_EQ(s.orderId, 12);
    EXPECT_EQ(peer->requestsTo("GET", "/orders").size(), 2) << "the trickling read-back was asked again";
    EXPECT_TRUE(peer->requestsTo("POST", "/orders").isEmpty());
}
