#!/usr/bin/python3
"""Qt 6's own frames of a Lottie file: the LottieAnimation item of Qt Lottie
(Debian qml6-module-qt-labs-lottieqt, QML `import Qt.labs.lottieqt`) in a
headless Qt Quick window, driven through Debian's PyQt6 (no Throbber code).

usage:
  qt_lottie_render.py FILE.json FRAMES W H OUTDIR
      FRAMES is JSON [n, ...], frame numbers counted from the file's ip. The
      file is loaded by a LottieAnimation (autoPlay false, quality
      HighQuality: antialiased, drawn into an image) in a W x H window of
      the offscreen platform (QT_QPA_PLATFORM=offscreen) with Qt Quick's
      software renderer and the basic (main-thread) render loop. For each n
      the item is sent to the frame with gotoAndStop(ip + n); the window is
      grabbed until the item has painted that frame (its render thread
      makes frames ahead; LottieAnimation::paint logs "Start to paint frame
      N" in the debug category qt.lottieqt.bodymovin.render, which this
      script turns on and reads), then grabbed over black and over white:
      alpha is 255 less the largest channel difference, each color the
      black one divided by alpha, written as OUTDIR/frame_NNNN.png
      (straight RGBA; composited on white it gives back the white grab
      within rounding). When W x H is not the file's w x h the item is
      scaled to fill the window (its texture drawn at W x H, so no
      resampling). Prints JSON {"frames", "width", "height" (the file's w
      and h as Qt reads them), "status" ("ready"), "warnings" (Qt's warning
      messages while loading and drawing: "Unsupported layer type: 3", ...)}.
Qt Lottie 6.4 reads, by experiment and from its source (src/bodymovin):
  - layer types 4 (shapes) and 2 (images) only; any other (0 precomposition,
    1 solid, 3 null) is left out with a warning "Unsupported layer type";
  - a keyframe's segment from its "s" to its "e", ending at the frame
    before the next key (endFrame = next startFrame - 1), so that late in
    a segment it is up to a frame ahead; the last keyframe must carry its
    time only ({"t": n}), else the value stays at its first frame's;
    "h" (hold) is not read (a hold needs "e" equal to "s");
  - an animated position ("p" keyed as pairs) along one path through all
    its keys, timed over the whole animation: right only with one segment
    (a position split into "x" and "y" is read key by key);
  - keyframe times and the frame rate as whole numbers (rounded).
Exits 3 with one line on stderr when PyQt6 or the QML modules are missing;
any other error (missing file, Qt failing to load it, a frame not painted
within 10 s) exits 2.
Set QT_LOTTIE_RENDER_DEBUG=1 to see every Qt message on stderr.
"""
import json
import os
import re
import sys
import time

import numpy as np
from PIL import Image

os.environ["QT_QPA_PLATFORM"] = "offscreen"
os.environ.setdefault("QSG_RENDER_LOOP", "basic")

PAINTED = re.compile(r"Start to paint frame (-?\d+)$")

QML = b"""
import QtQuick
import QtQuick.Window
import Qt.labs.lottieqt

Window {
    objectName: "window"
    color: "transparent"
    flags: Qt.FramelessWindowHint
    // The item's status as a number (PyQt cannot convert its enum).
    property int lottieStatus: lottie.status
    LottieAnimation {
        id: lottie
        objectName: "lottie"
        autoPlay: false
        loops: 1
        quality: LottieAnimation.HighQuality
        transformOrigin: Item.TopLeft
    }
}
"""


def fail(message):
    sys.stderr.write(f"qt_lottie_render.py: {message}\n")
    sys.exit(2)


def unavailable(message):
    sys.stderr.write(f"qt_lottie_render.py: {message}\n")
    sys.exit(3)


def straight(black, white):
    """Straight RGBA from the same frame over black and over white: alpha is
    255 less the largest channel's difference, each color the black one
    divided by alpha (rounded to nearest). Over white it gives back `white`
    within rounding."""
    a = 255 - (white - black).max(axis=2)
    a = np.clip(a, 0, 255)
    safe = np.maximum(a, 1)[:, :, None]
    rgb = np.where(a[:, :, None] > 0, np.minimum(255, (black * 255 + safe // 2) // safe), 0)
    return np.dstack([rgb, a]).astype(np.uint8)


def main():
    if len(sys.argv) != 6:
        sys.stderr.write(__doc__)
        sys.exit(2)
    path, frames, w, h, outdir = sys.argv[1:]
    if not os.path.isfile(path):
        fail(f"{path}: no such file")
    try:
        frames = json.loads(frames)
        w, h = int(w), int(h)
    except ValueError as e:
        fail(f"bad arguments: {e}")
    if not isinstance(frames, list) or not all(isinstance(f, int) and f >= 0 for f in frames):
        fail("FRAMES: expected a JSON list of frame numbers")
    try:
        from PyQt6.QtCore import Q_ARG, QLoggingCategory, QMetaObject, QSize, QtMsgType, QUrl, qInstallMessageHandler
        from PyQt6.QtGui import QColor, QGuiApplication, QImage
        from PyQt6.QtQml import QQmlApplicationEngine
        from PyQt6.QtQuick import QQuickItem, QQuickWindow, QSGRendererInterface
    except ImportError as e:
        unavailable(f"PyQt6 cannot be imported ({e}): Debian's python3-pyqt6.qtquick is needed")
    said = []
    painted = []

    def on_message(kind, context, message):
        if os.environ.get("QT_LOTTIE_RENDER_DEBUG"):
            sys.stderr.write(f"{context.category}: {message}\n")
        match = PAINTED.search(message) if context.category == "qt.lottieqt.bodymovin.render" else None
        if match:
            painted.append(int(match.group(1)))
            return
        # Qt says where it keeps runtime files when XDG_RUNTIME_DIR is unset: not about the file.
        if kind not in (QtMsgType.QtDebugMsg, QtMsgType.QtInfoMsg) and not message.startswith("QStandardPaths:"):
            said.append(message)

    qInstallMessageHandler(on_message)
    # LottieAnimation::paint logs each frame it paints (a debug message):
    # how this script knows a frame is drawn before it grabs the window.
    QLoggingCategory.setFilterRules("qt.lottieqt.bodymovin.render.debug=true")
    QQuickWindow.setGraphicsApi(QSGRendererInterface.GraphicsApi.Software)
    app = QGuiApplication(["qt_lottie_render"])
    engine = QQmlApplicationEngine()
    engine.loadData(QML, QUrl("file:///qt_lottie_render.qml"))
    roots = engine.rootObjects()
    if not roots:
        unavailable("the QML scene did not load (Debian's qml6-module-qt-labs-lottieqt, qml6-module-qtquick-window "
                    "and qml6-module-qtqml-workerscript are needed): " + "; ".join(said))
    window = roots[0]
    item = window.findChild(QQuickItem, "lottie")
    window.setWidth(w)
    window.setHeight(h)
    item.setProperty("source", QUrl.fromLocalFile(os.path.abspath(path)))

    def spin(done, what, limit=10):
        end = time.monotonic() + limit
        while not done():
            if time.monotonic() > end:
                fail(f"{path}: {what} within {limit} s")
            app.processEvents()
            time.sleep(0.001)

    # status: 0 Null, 1 Loading, 2 Ready, 3 Error
    spin(lambda: window.property("lottieStatus") in (2, 3), "Qt did not finish loading it")
    if window.property("lottieStatus") != 2:
        fail(f"{path}: Qt cannot load it: " + "; ".join(said))
    fw, fh = item.width(), item.height()
    if fw <= 0 or fh <= 0:
        fail(f"{path}: Qt reads a size of {fw}x{fh}")
    item.setScale(min(w / fw, h / fh))
    item.setProperty("textureSize", QSize(w, h))
    window.show()
    start = item.property("startFrame")

    def grab(level):
        """The window drawn on the opaque gray `level`, as an RGB array."""
        window.setColor(QColor(level, level, level))
        image = window.grabWindow().convertToFormat(QImage.Format.Format_RGBA8888)
        if image.width() != w or image.height() != h:
            fail(f"the window grabbed is {image.width()}x{image.height()}, not {w}x{h}")
        data = np.frombuffer(image.constBits().asstring(image.sizeInBytes()), np.uint8)
        return data.reshape(h, image.bytesPerLine() // 4, 4)[:, :w, :3].astype(np.int64)

    os.makedirs(outdir, exist_ok=True)
    for i, n in enumerate(frames):
        frame = start + n
        del painted[:]
        QMetaObject.invokeMethod(item, "gotoAndStop", Q_ARG(int, frame))
        def drawn():
            # The item paints the frame once its render thread has made it,
            # at the next rendering of the window: grabbed until it has.
            window.grabWindow()
            return frame in painted

        spin(drawn, f"frame {n} was not painted")
        Image.fromarray(straight(grab(0), grab(255)), "RGBA").save(os.path.join(outdir, "frame_%04d.png" % i))
    json.dump({"frames": len(frames), "width": fw, "height": fh, "status": "ready", "warnings": said}, sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
