// WheelGuard: the mouse wheel scrolls the panel under the pointer instead of changing a combo box's or a spin box's
// value, unless that input has the keyboard focus (the user clicked or tabbed into it). Scrolling down the debug panel
// used to switch the network to Flaky on the way.
#pragma once

#include <QObject>

class QWidget;

namespace onceorder::ui {

class WheelGuard : public QObject
{
    Q_OBJECT

public:
    explicit WheelGuard(QObject* parent = nullptr);

    // Guards every combo box and spin box inside `root` now (inputs added later are guarded one by one).
    void guardChildrenOf(QWidget* root);
    // Takes focus only from a click or Tab (not from the wheel) and ignores the wheel while unfocused.
    void guard(QWidget* input);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
};

} // namespace onceorder::ui
