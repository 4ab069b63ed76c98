#include "submission/Cart.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <gtest/gtest.h>

using onceorder::core::Cart;
using onceorder::core::CartLine;

TEST(CartTest, AddsMergesAndRemovesLines)
{
    Cart cart(QStringLiteral("cart-1"));
    EXPECT_TRUE(cart.isEmpty());
    cart.add(QStringLiteral("kniha"), 1);
    cart.add(QStringLiteral("hrnek"), 2);
    cart.add(QStringLiteral("kniha"), 2);
    ASSERT_EQ(cart.lines().size(), 2);
    EXPECT_EQ(cart.lines().at(0), (CartLine {QStringLiteral("kniha"), 3}));
    cart.setQuantity(QStringLiteral("kniha"), 0);
    ASSERT_EQ(cart.lines().size(), 1);
    EXPECT_EQ(cart.lines().at(0).product, QStringLiteral("hrnek"));
}

TEST(CartTest, RequestBodyCarriesTheCartIdAndItems)
{
    Cart cart(QStringLiteral("cart-1"));
    cart.add(QStringLiteral("kniha"), 2);
    EXPECT_EQ(cart.toRequestBody(), QByteArray(R"({"cart_id":"cart-1","items":[{"product":"kniha","quantity":2}]})"));
    // The bytes are the outbox's stored request, resent on every retry: a cart built in another order of
    // calls with the same lines must give the same bytes, and the body does not change when read again.
    Cart again(QStringLiteral("cart-1"));
    again.add(QStringLiteral("kniha"), 1);
    again.setQuantity(QStringLiteral("kniha"), 2);
    EXPECT_EQ(again.toRequestBody(), cart.toRequestBody()) << "the same lines give the same bytes";
    const QByteArray first = cart.toRequestBody();
    EXPECT_EQ(cart.toRequestBody(), first) << "reading the body does not change it";
}

TEST(CartTest, NewCartsGetDistinctIds)
{
    EXPECT_NE(Cart().cartId(), Cart().cartId());
    EXPECT_EQ(Cart().cartId().size(), 36);
}

TEST(CartTest, PayingNowSendsThePaymentMethodToCheckout)
{
    Cart cart(QStringLiteral("cart-1"));
    cart.add(QStringLiteral("kniha"), 1);
    EXPECT_EQ(cart.requestPath(), QStringLiteral("/orders"));
    cart.setPaymentMethod(QStringLiteral("card"));
    EXPECT_EQ(cart.requestPath(), QStringLiteral("/checkout"));
    EXPECT_EQ(cart.toRequestBody(),
              QByteArray(R"({"cart_id":"cart-1","items":[{"product":"kniha","quantity":1}],"payment_method":"card"})"));
    cart.setPaymentMethod({});
    EXPECT_EQ(cart.requestPath(), QStringLiteral("/orders"));
    EXPECT_FALSE(cart.toRequestBody().contains("payment_method"));
}

TEST(CartTest, ARenewedCartKeepsItsLinesUnderANewId)
{
    Cart cart(QStringLiteral("cart-1"));
    cart.add(QStringLiteral("hrnek"), 2);
    cart.renewId();
    EXPECT_NE(cart.cartId(), QStringLiteral("cart-1"));
    EXPECT_EQ(cart.cartId().size(), 36);
    ASSERT_EQ(cart.lines().size(), 1);
    EXPECT_EQ(cart.lines().at(0), (CartLine {QStringLiteral("hrnek"), 2}));
}
