// CentralArea: the window's middle: the header, then the catalogue, the cart and my orders side by side, and the
// current submission's timeline below them. It never scrolls sideways: where the three do not fit side by side (a
// zoom on a projector, a small screen) My orders goes into a tab beside the timeline, and where the catalogue and the
// cart do not fit side by side either, the cart goes under the catalogue. Downwards it scrolls if it must, with the
// timeline kept tall enough to read its attempts.
#pragma once

#include <QMargins>
#include <QScrollArea>

class QBoxLayout;
class QGridLayout;
class QTabWidget;
class QVBoxLayout;

namespace onceorder::ui {

class CentralArea : public QScrollArea
{
    Q_OBJECT

public:
    enum class Arrangement
    {
        ThreeColumns,
        TwoColumns,
        OneColumn
    };

    // The widgets stay the caller's to talk to; the area owns where they sit.
    CentralArea(QWidget* header, QWidget* catalogue, QWidget* cart, QWidget* orders, QWidget* timeline,
                QWidget* parent = nullptr);

    Arrangement arrangement() const { return m_arrangement; }
    // The tabs below the row (the timeline, and My orders when it does not fit beside the cart).
    QTabWidget* lowerTabs() const { return m_lowerTabs; }
    // The width the area needs for an arrangement (with room for its vertical scroll bar).
    int widthFor(Arrangement arrangement) const;
    // Chooses the arrangement for the width there is now and the widths the panels need (their fonts, contents).
    void arrange();
    // The header above the row, or not (the window shows it in its menu bar where height is short); shown again, it
    // comes back on top.
    void setHeaderShown(bool shown);
    // Short of height: My orders never stands beside the cart (it is a tab beside the timeline), the timeline's
    // headline is its tab's text, and the catalogue's and the cart's tables keep room for one row rather than two,
    // so the row is only as high as they need and the timeline keeps its attempts in view.
    void setCompact(bool compact);
    // The timeline's headline ("Current submission: every attempt, one key"): its box's title, or where height is
    // short its tab's text.
    void setTimelineHeadline(const QString& headline);

Q_SIGNALS:
    // The panels moved (to other parents): the focus chain needs their order again.
    void rearranged();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    int neededWidth(const QList<QWidget*>& side) const;
    void rearrange(Arrangement arrangement);
    void fitTablesToRows();

    QWidget* m_content;
    QWidget* m_header;
    QWidget* m_catalogue;
    QWidget* m_cart;
    QWidget* m_orders;
    QWidget* m_timeline;
    QVBoxLayout* m_layout;
    QGridLayout* m_row;
    QTabWidget* m_lowerTabs;
    Arrangement m_arrangement = Arrangement::ThreeColumns;
    bool m_arranged = false;
    bool m_compact = false;
    QMargins m_defaultMargins;
    QString m_headline;
};

} // namespace onceorder::ui
