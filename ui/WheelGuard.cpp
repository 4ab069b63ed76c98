#include "WheelGuard.h"

#include <QAbstractSpinBox>
#include <QComboBox>
#include <QEvent>
#include <QWidget>

namespace onceorder::ui {

WheelGuard::WheelGuard(QObject* parent)
    : QObject(parent)
{
}

void WheelGuard::guardChildrenOf(QWidget* root)
{
    for (auto* combo : root->findChildren<QComboBox*>()) {
        guard(combo);
    }
    for (auto* spin : root->findChildren<QAbstractSpinBox*>()) {
        guard(spin);
    }
}

void WheelGuard::guard(QWidget* input)
{
    // The default WheelFocus would give the input the focus from the very wheel event that should pass it by.
    input->setFocusPolicy(Qt::StrongFocus);
    input->installEventFilter(this);
}

bool WheelGuard::eventFilter(QObject* watched, QEvent* event)
{
    if (event->type() == QEvent::Wheel && !static_cast<QWidget*>(watched)->hasFocus()) {
        // Ignored, so QApplication offers it to the parents: the scroll area around the input scrolls.
        event->ignore();
        return true;
    }
    return QObject::eventFilter(watched, event);
}

} // namespace onceorder::ui
