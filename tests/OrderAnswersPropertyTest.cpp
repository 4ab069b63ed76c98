// The answer classifier as properties (RapidCheck): whatever bytes and status a peer sends, an interim 1xx is never
// final, a 2xx is "placed" only with a well-formed order of this cart (and then with exactly its id), a 4xx is
// "rejected" only as a problem+json, and a read-back that is not the documented list says nothing.
#include "net/OrderAnswers.h"
#include "retry/RetryPolicy.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

using namespace onceorder::core;

namespace {

const QString kCart = QStringLiteral("cart-1");

QByteArray anyBytes()
{
    const std::string bytes = *rc::gen::arbitrary<std::string>();
    return QByteArray::fromStdString(bytes);
}

// An order-like object with arbitrary fields: sometimes well-formed for our cart, often not.
QJsonObject someOrder()
{
    QJsonObject order;
    switch (*rc::gen::inRange(0, 6)) {
    case 0:
        break; // no order_id
    case 1:
        order.insert("order_id", *rc::gen::inRange<qint64>(-5, 1'000'000));
        break;
    case 2:
        order.insert("order_id", QString::number(*rc::gen::inRange(1, 100))); // a string
        break;
    case 3:
        order.insert("order_id", 1.5);
        break;
    default:
        order.insert("order_id", *rc::gen::inRange<qint64>(1, 1'000'000));
        break;
    }
    switch (*rc::gen::inRange(0, 4)) {
    case 0:
        order.insert("cart_id", kCart);
        break;
    case 1:
        order.insert("cart_id", QStringLiteral("another-cart"));
        break;
    case 2:
        order.insert("cart_id", 7);
        break;
    default:
        break; // no cart_id
    }
    return order;
}

bool wellFormedForUs(const QJsonObject& order)
{
    const QJsonValue id = order.value("order_id");
    const QJsonValue cart = order.value("cart_id");
    return id.isDouble() && id.toDouble() == static_cast<double>(id.toInteger()) && id.toInteger() > 0 &&
        (cart.isUndefined() || (cart.isString() && cart.toString() == kCart));
}

} // namespace

RC_GTEST_PROP(OrderAnswersPropertyTest, AnInterimOrUndefinedStatusIsNeverFinal, ())
{
    HttpReply reply;
    reply.status = *rc::gen::oneOf(rc::gen::inRange(100, 200), rc::gen::inRange(600, 1000));
    reply.body = *rc::gen::arbitrary<bool>() ? anyBytes() : QJsonDocument(someOrder()).toJson();
    RC_ASSERT(RetryPolicy::classifyOrderAnswer(reply, kCart) == AttemptOutcome::MaybeSent);
}

RC_GTEST_PROP(OrderAnswersPropertyTest, ASuccessIsPlacedOnlyWithAWellFormedOrderOfThisCart, ())
{
    HttpReply reply;
    reply.status = *rc::gen::inRange(200, 300);
    const QJsonObject order = someOrder();
    reply.body = *rc::gen::inRange(0, 4) == 0 ? anyBytes() : QJsonDocument(order).toJson(QJsonDocument::Compact);
    const AttemptOutcome outcome = RetryPolicy::classifyOrderAnswer(reply, kCart);
    const auto id = placedOrderId(reply.body, kCart);
    RC_ASSERT((outcome == AttemptOutcome::Placed) == id.has_value());
    if (id) {
        const QJsonObject parsed = QJsonDocument::fromJson(reply.body).object();
        RC_ASSERT(wellFormedForUs(parsed));
        RC_ASSERT(*id == parsed.value("order_id").toInteger());
    } else {
        RC_ASSERT(outcome == AttemptOutcome::MaybeSent);
    }
}

RC_GTEST_PROP(OrderAnswersPropertyTest, AClientErrorIsRejectedOnlyAsTheServersProblem, ())
{
    HttpReply reply;
    reply.status = *rc::gen::element(400, 401, 403, 404, 410, 413, 415, 422, 451);
    QJsonObject body;
    if (*rc::gen::arbitrary<bool>()) {
        body.insert("type", QString::fromStdString(*rc::gen::arbitrary<std::string>()));
    }
    reply.body = *rc::gen::inRange(0, 3) == 0 ? anyBytes() : QJsonDocument(body).toJson();
    const AttemptOutcome outcome = RetryPolicy::classifyOrderAnswer(reply, kCart);
    RC_ASSERT(outcome != AttemptOutcome::Placed);
    if (outcome == AttemptOutcome::Rejected) {
        RC_ASSERT(isProblem(reply.body));
    }
    if (!isProblem(reply.body)) {
        RC_ASSERT(outcome == AttemptOutcome::Failed);
    }
}

RC_GTEST_PROP(OrderAnswersPropertyTest, AReadBackThatIsNotTheDocumentedListSaysNothing, ())
{
    HttpReply reply;
    reply.status = *rc::gen::element(200, 200, 200, 203, 204, 301, 404, 500);
    QJsonArray list;
    const int n = *rc::gen::inRange(0, 4);
    bool allOurs = true;
    for (int i = 0; i < n; ++i) {
        const QJsonObject order = someOrder();
        allOurs = allOurs && wellFormedForUs(order);
        list.append(order);
    }
    const int shape = *rc::gen::inRange(0, 4);
    if (shape == 0) {
        reply.body = anyBytes();
    } else if (shape == 1) {
        reply.body = QJsonDocument(someOrder()).toJson(); // an object, not a list
    } else {
        reply.body = QJsonDocument(list).toJson();
    }
    const auto orders = cartOrders(reply, kCart);
    if (orders) {
        RC_ASSERT(reply.status == 200);
        RC_ASSERT(QJsonDocument::fromJson(reply.body).isArray());
        for (const QJsonObject& order : *orders) {
            RC_ASSERT(wellFormedForUs(order));
        }
    }
    if (reply.status == 200 && shape >= 2) {
        RC_ASSERT(orders.has_value() == allOurs); // the documented list is read, whatever else is not
    }
}

// Issue 37: a member named twice is refused, as our server's reader refuses it; QJsonDocument would keep the last
// value and the client would take order 999 from {"order_id":1,…,"order_id":999}.
TEST(OrderAnswersTest, AnAnswerThatNamesAMemberTwiceSaysNothing)
{
    using namespace onceorder::core;
    EXPECT_EQ(placedOrderId(R"({"order_id":1,"status":"placed","cart_id":"c1","order_id":999})", "c1"), std::nullopt);
    EXPECT_EQ(placedOrderId(R"({"order_id":1,"cart_id":"c1","order\u005fid":999})", "c1"), std::nullopt)
        << "the same name, escaped";
    EXPECT_EQ(placedOrderId(R"({"order_id":1,"cart_id":"c-other","cart_id":"c1"})", "c1"), std::nullopt);
    EXPECT_FALSE(isProblem(R"({"type":"/problems/out-of-stock","type":"/problems/x"})"));
    HttpReply list;
    list.status = 200;
    list.body = R"([{"order_id":4,"cart_id":"c1","items":[{"product":"a"}],"items":[]}])";
    EXPECT_EQ(cartOrders(list, "c1"), std::nullopt);

    // The same name in different objects, and a name that is also a value, are fine.
    EXPECT_EQ(placedOrderId(R"({"order_id":5,"cart_id":"c1","items":[{"product":"a","quantity":1},)"
                            R"({"product":"b","quantity":2}],"note":"order_id"})",
                            "c1"),
              5);
    list.body = R"([{"order_id":4,"cart_id":"c1"},{"order_id":6,"cart_id":"c1"}])";
    ASSERT_TRUE(cartOrders(list, "c1"));
    EXPECT_EQ(cartOrders(list, "c1")->size(), 2);
}
