// PresentationZoom: View → Zoom in / Zoom out / Reset zoom (Ctrl++, Ctrl+-, Ctrl+0) for a projector. Scales the
// fonts of one window and everything in it, its menus and dialogs included, so the layouts grow with them; the
// factor is remembered in QSettings for the next start.
#pragma once

#include <QObject>

class QAction;
class QMenu;
class QWidget;

namespace onceorder::ui {

class PresentationZoom : public QObject
{
    Q_OBJECT

public:
    // Reads the remembered factor and applies it to `window` (which owns this object) at once.
    explicit PresentationZoom(QWidget* window);

    void addActionsTo(QMenu* menu) const;
    QAction* zoomInAction() const { return m_zoomIn; }
    QAction* zoomOutAction() const { return m_zoomOut; }
    QAction* resetAction() const { return m_reset; }

    double factor() const { return m_factor; }
    // Clamped to the steps' range; applied and remembered.
    void setFactor(double factor);
    void zoomIn();
    void zoomOut();

    // Zooms a dialog created after the zoom was applied: a window of its own does not inherit its parent's font.
    void applyTo(QWidget* window) const;

    static double storedFactor();

    // For a widget whose style sheet changes while the window runs (a status line turning red and back): Qt 6.4
    // resolves a re-styled widget's font against the application's font, not its parent's, so under a zoom it would
    // fall back to 100 %. Widgets with a font of their own are styled as usual. The sheet a widget already has is
    // left alone (no re-polish, no relayout).
    static void setStyleSheetKeepingZoom(QWidget* widget, const QString& sheet);

Q_SIGNALS:
    void factorChanged(double factor);

private:
    void apply();
    void scale(QWidget* widget, double previous) const;
    static void restyle(QWidget* widget);
    static void applyStyleSheet(QWidget* widget, const QString& sheet); // even if it is the one the widget has

    QWidget* m_window;
    QAction* m_zoomIn;
    QAction* m_zoomOut;
    QAction* m_reset;
    double m_factor = 1.0;
    double m_appliedFactor = 1.0; // what the widgets are drawn at now
};

} // namespace onceorder::ui
