#!/usr/bin/env python3
"""A minimal client for Debian's headless Chromium over the DevTools
protocol on a pipe (--remote-debugging-pipe: the browser reads commands on
fd 3 and writes replies on fd 4, each a JSON object ended by a NUL byte).
No network port, no third-party module. Used by conformance.py (Chromium's
own APNG/GIF/WebP decoders through WebCodecs' ImageDecoder) and gallery_check.py
(a real page, its DOM and screenshots).

    with Chromium(width, height) as browser:
        page = browser.open("file:///.../index.html")   # waits for 'load'
        value = page.evaluate("1 + 1")                   # awaits promises
        png = page.screenshot()                          # PNG bytes
"""
import base64, json, os, select, shutil, subprocess, tempfile, time

CHROMIUM = "/usr/bin/chromium"


class ChromiumError(Exception):
    pass


class Page:
    def __init__(self, browser, session):
        self.browser, self.session = browser, session

    def send(self, method, params=None, timeout=60):
        return self.browser.send(method, params, session=self.session, timeout=timeout)

    def evaluate(self, expression, timeout=60):
        """The value of a JavaScript expression (a promise is awaited);
        raises ChromiumError with the page's exception text."""
        r = self.send("Runtime.evaluate", {"expression": expression, "awaitPromise": True,
                                           "returnByValue": True}, timeout=timeout)
        if "exceptionDetails" in r:
            d = r["exceptionDetails"]
            raise ChromiumError("page script failed: " + d.get("exception", {}).get("description", d.get("text", str(d))))
        return r["result"].get("value")

    def screenshot(self):
        r = self.send("Page.captureScreenshot", {"format": "png"})
        return base64.b64decode(r["data"])


class Chromium:
    def __init__(self, width=1000, height=800):
        if not os.access(CHROMIUM, os.X_OK):
            raise ChromiumError(f"{CHROMIUM} not found (Debian package 'chromium')")
        self.profile = tempfile.mkdtemp(prefix="throbber-chromium-")
        self.log = open(os.path.join(self.profile, "stderr.txt"), "w")
        to_chrome_r, self.to_chrome = os.pipe()
        self.from_chrome, from_chrome_w = os.pipe()

        def child():
            # dup first: dup2 onto the same number would keep close-on-exec.
            a, b = os.dup(to_chrome_r), os.dup(from_chrome_w)
            os.dup2(a, 3)
            os.dup2(b, 4)

        self.proc = subprocess.Popen(
            [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
             "--remote-debugging-pipe", "--allow-file-access-from-files", "--no-first-run",
             "--disable-extensions", "--disable-background-networking", "--mute-audio",
             "--force-device-scale-factor=1", "--force-color-profile=srgb",
             f"--user-data-dir={self.profile}", f"--window-size={width},{height}", "about:blank"],
            stdin=subprocess.DEVNULL, stdout=self.log, stderr=self.log,
            close_fds=False, preexec_fn=child)
        os.close(to_chrome_r)
        os.close(from_chrome_w)
        self.buffer = b""
        self.next_id = 0

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def send(self, method, params=None, session=None, timeout=60):
        self.next_id += 1
        ident = self.next_id
        message = {"id": ident, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        try:
            os.write(self.to_chrome, json.dumps(message).encode() + b"\0")
        except BrokenPipeError:
            raise ChromiumError(f"chromium exited before {method}: {self.stderr_tail()}")
        deadline = time.time() + timeout
        while True:
            while b"\0" in self.buffer:
                raw, self.buffer = self.buffer.split(b"\0", 1)
                reply = json.loads(raw)
                if reply.get("id") == ident:
                    if "error" in reply:
                        raise ChromiumError(f"{method}: {reply['error']}")
                    return reply.get("result", {})
            left = deadline - time.time()
            if left <= 0:
                raise ChromiumError(f"{method}: no reply within {timeout} s")
            ready, _, _ = select.select([self.from_chrome], [], [], left)
            if ready:
                chunk = os.read(self.from_chrome, 1 << 20)
                if not chunk:
                    raise ChromiumError(f"chromium closed the pipe during {method}: {self.stderr_tail()}")
                self.buffer += chunk

    def open(self, url, timeout=60, setup=None):
        """A new tab showing `url`, returned once its load event has fired;
        `setup(page)` runs before it navigates (emulation that the page's
        first style must see)."""
        target = self.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = self.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        page = Page(self, session)
        page.send("Page.enable")
        if setup:
            setup(page)
        page.send("Page.navigate", {"url": url})
        deadline = time.time() + timeout
        # Poll: the navigation has committed once location.href is the URL.
        while True:
            state = page.evaluate("[location.href, document.readyState]")
            if state[0] != "about:blank" and state[1] == "complete":
                return page
            if time.time() > deadline:
                raise ChromiumError(f"{url} did not finish loading within {timeout} s (state {state})")
            time.sleep(0.05)

    def stderr_tail(self):
        try:
            self.log.flush()
            with open(os.path.join(self.profile, "stderr.txt")) as f:
                return f.read()[-2000:]
        except OSError:
            return ""

    def close(self):
        try:
            self.send("Browser.close", timeout=5)
        except Exception:
            pass
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        for fd in (self.to_chrome, self.from_chrome):
            try:
                os.close(fd)
            except OSError:
                pass
        self.log.close()
        shutil.rmtree(self.profile, ignore_errors=True)


# WebCodecs ImageDecoder: Chromium's own decoder, frames composited as the
# browser shows them, copied out unconverted (asking copyTo for another
# format makes Chromium convert with ±1 rounding), straight (not
# premultiplied) alpha; durations in microseconds.
DECODE_JS = r"""
(async (url, type) => {
  const data = await (await fetch(url)).arrayBuffer();
  const decoder = new ImageDecoder({data, type, premultiplyAlpha: 'none', colorSpaceConversion: 'none'});
  await decoder.tracks.ready;
  await decoder.completed;
  const track = decoder.tracks.selectedTrack;
  const frames = [];
  for (let i = 0; i < track.frameCount; i++) {
    const {image} = await decoder.decode({frameIndex: i});
    const buf = new Uint8Array(image.allocationSize());
    await image.copyTo(buf);
    const f = image.format;
    if (f !== 'RGBA' && f !== 'RGBX' && f !== 'BGRA' && f !== 'BGRX') throw new Error('unexpected VideoFrame format ' + f);
    if (f[0] === 'B') for (let p = 0; p < buf.length; p += 4) { const t = buf[p]; buf[p] = buf[p + 2]; buf[p + 2] = t; }
    if (f[3] === 'X') for (let p = 3; p < buf.length; p += 4) buf[p] = 255;
    let s = '';
    for (let k = 0; k < buf.length; k += 8192) s += String.fromCharCode.apply(null, buf.subarray(k, k + 8192));
    frames.push({format: f, width: image.codedWidth, height: image.codedHeight, duration: image.duration, rgba: btoa(s)});
    image.close();
  }
  decoder.close();
  return frames;
})
"""


def decode_images(paths):
    """{path: [(width, height, duration_us, rgba bytes)]} decoded by Chromium."""
    folder = tempfile.mkdtemp(prefix="throbber-blank-")
    blank = os.path.join(folder, "blank.html")
    with open(blank, "w") as f:
        f.write("<!doctype html><title>decoder</title>")
    out = {}
    try:
        with Chromium(200, 200) as browser:
            page = browser.open("file://" + blank)
            for path in paths:
                ext = os.path.splitext(path)[1].lower()
                kind = {".gif": "image/gif", ".webp": "image/webp"}.get(ext, "image/png")
                frames = page.evaluate(DECODE_JS + "(%s, %s)" % (json.dumps("file://" + os.path.abspath(path)), json.dumps(kind)),
                                       timeout=120)
                out[path] = [(f["width"], f["height"], f["duration"], base64.b64decode(f["rgba"])) for f in frames]
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return out
