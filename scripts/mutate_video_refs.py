"""The `video-refs` class of scripts/mutate_generators.py: files that try
to make FFmpeg read, open or connect to something besides the one file
given, or that break its plan: HLS playlists, DASH manifests, ffconcat
lists and SDP files under video names, naming a green clip outside the
case folder (which an output must never show), a link to it, a FIFO, the
list itself or an address on 127.0.0.1; file names that read as URLs or
protocols (`pipe:0`, `http:/…`, `subfile,,…:`, `file:`, names with
colons); Matroska files of many streams; transport streams whose frames
outgrow their header; clips that start before 0; and `--from`/`--to`
drawn at random, down to a tick.
"""
import os, shutil, subprocess

import mutate_generators as generators

# ffmpeg's own runs; a run over this many seconds is the harness's fault.
FFMPEG_TIMEOUT = 60


def ffmpeg(*args):
    """Runs the ffmpeg command with args (quiet, no standard input)."""
    subprocess.run(["ffmpeg", "-v", "error", "-nostdin", "-y"] + list(args), check=True, timeout=FFMPEG_TIMEOUT,
                   stdout=subprocess.DEVNULL)


def clip(assets, color, size="32x24", container="mp4"):
    """Path of a 0.5 s H.264 clip of one color (made once)."""
    def make():
        path = os.path.join(assets.folder, "refs-%s-%s.%s" % (color, size, container))
        ffmpeg("-f", "lavfi", "-i", "color=c=%s:s=%s:r=10" % (color, size), "-t", "0.5", "-c:v", "libx264",
               "-pix_fmt", "yuv420p", "-threads", "1", path)
        return path
    return assets.once(("refs-clip", color, size, container), make)


def testsrc(assets, size="32x24", seconds=1, extra=(), name="testsrc.mp4"):
    """Path of a testsrc2 clip (made once per arguments)."""
    def make():
        path = os.path.join(assets.folder, "refs-%s-%s-%s" % (size, seconds, name))
        ffmpeg(*(["-f", "lavfi", "-i", "testsrc2=size=%s:rate=10:duration=%s" % (size, seconds)] + list(extra) +
                 ["-threads", "1", path]))
        return path
    return assets.once(("refs-testsrc", size, seconds, tuple(extra), name), make)


def size_switch(assets, big, small_seconds):
    """Path of a transport stream declared and begun at 16x16, whose last
    two frames are big x big of one gray (made once)."""
    def make():
        parts = []
        for size, source in (("16x16", "testsrc2=size=16x16:rate=10:duration=%s" % small_seconds),
                             ("%dx%d" % (big, big), "color=c=gray:size=%dx%d:rate=10:duration=0.2" % (big, big))):
            part = os.path.join(assets.folder, "refs-switch-%s-%s.h264" % (size, small_seconds))
            ffmpeg("-f", "lavfi", "-i", source, "-c:v", "libx264", "-preset", "ultrafast", "-threads", "1", "-f",
                   "h264", part)
            parts.append(part)
        joined = os.path.join(assets.folder, "refs-switch-%d-%s.h264" % (big, small_seconds))
        with open(joined, "wb") as out:
            for part in parts:
                with open(part, "rb") as f:
                    out.write(f.read())
        path = joined[:-len(".h264")] + ".ts"
        ffmpeg("-r", "10", "-i", joined, "-c", "copy", "-f", "mpegts", path)
        return path
    return assets.once(("refs-switch", big, small_seconds), make)


def many_streams(assets, copies):
    """Path of a Matroska file of `copies` copies of one small stream."""
    def make():
        path = os.path.join(assets.folder, "refs-many-%d.mkv" % copies)
        maps = []
        for _ in range(copies):
            maps += ["-map", "0:v"]
        ffmpeg(*(["-i", clip(assets, "blue")] + maps + ["-c", "copy", path]))
        return path
    return assets.once(("refs-many", copies), make)


def early(assets, offset, container):
    """Path of a testsrc2 clip whose first frame is at -offset s."""
    codec = ["-c:v", "libvpx-vp9", "-deadline", "realtime"] if container == "webm" else ["-c:v", "libx264"]
    return testsrc(assets, "32x24", 2, codec + ["-output_ts_offset", "-%s" % offset, "-avoid_negative_ts",
                                                "disabled"], "early-%s.%s" % (offset, container))


HLS = "#EXTM3U\n#EXT-X-TARGETDURATION:1\n"


def references(rng, ctx):
    """A file naming others, under a video name; (files, links, note)."""
    target = clip(ctx.assets, "0x00FF00")
    outside = os.path.join(ctx.outside, "clip.mp4")
    if not os.path.exists(outside):
        shutil.copy(target, outside)
    segment = os.path.join(ctx.outside, "seg.ts")
    if not os.path.exists(segment):
        ffmpeg("-i", outside, "-c", "copy", "-f", "mpegts", segment)
    entry = rng.choice([outside, "../outside/clip.mp4", "file:" + outside, "link.mp4", "pipe.mp4", "in.mp4",
                        "http://127.0.0.1:9/clip.mp4", "/dev/stdin", "/dev/zero", segment, "pipe:0"])
    kind = rng.choice(["hls", "hls-live", "concat", "dash", "sdp"])
    if kind.startswith("hls"):
        text = HLS + "#EXTINF:0.5,\n%s\n" % entry * rng.randint(1, 3) + ("" if kind == "hls-live" else
                                                                       "#EXT-X-ENDLIST\n")
    elif kind == "concat":
        text = "ffconcat version 1.0\n" + "file '%s'\n" % entry * rng.randint(1, 3)
    elif kind == "dash":
        text = ('<?xml version="1.0"?><MPD xmlns="urn:mpeg:dash:schema:mpd:2011" '
                'profiles="urn:mpeg:dash:profile:isoff-on-demand:2011" type="static" mediaPresentationDuration="PT1S">'
                '<Period><AdaptationSet mimeType="video/mp4"><Representation id="1" bandwidth="1000" width="32" '
                'height="24"><BaseURL>%s</BaseURL></Representation></AdaptationSet></Period></MPD>' % entry)
    else:
        text = ("v=0\no=- 0 0 IN IP4 127.0.0.1\ns=x\nc=IN IP4 127.0.0.1\nt=0 0\nm=video %d RTP/AVP 96\n"
                "a=rtpmap:96 H264/90000\n" % rng.choice([9, 5004, 65535]))
    name = rng.choice(["in.mp4", "in.mkv", "in.txt", "in.m3u8", "in.mpd", "in.webm", "in.mov"])
    files = {name: text.encode(), "pipe.mp4": generators.FIFO}
    return files, {"link.mp4": outside}, name, "%s naming %s as %s" % (kind, entry, name)


NAMES = ["pipe:0", "http:/127.0.0.1:9/x.mp4", "subfile,,start,0,end,0,,:/x.mp4", "file:x.mp4",
         "2024-01-01T12:30:00.mp4", "concat:a.mp4|b.mp4", "data:video-mp4,x", "tee:x.mp4", "-.mp4", " .mp4"]


def gen_video_refs(rng, ctx):
    """A case of the `video-refs` class: encode (with a random window half
    the time) and info; the output must not show the green clip outside."""
    kind = rng.choice(["refs", "refs", "name", "many", "switch", "early", "window"])
    files, links, marker = {}, {}, False
    opts = []
    if kind == "refs":
        files, links, name, note = references(rng, ctx)
        marker = True
    elif kind == "name":
        name = rng.choice(NAMES)
        present = rng.random() < 0.7
        if present:
            with open(clip(ctx.assets, "blue"), "rb") as f:
                files[name] = f.read()
        note = "a %s file named %r" % ("video" if present else "missing", name)
    elif kind == "many":
        copies = rng.choice([2, 50, 255, 257, 400])
        name = "in.mkv"
        links[name] = many_streams(ctx.assets, copies)
        note = "%d copies of one stream" % copies
    elif kind == "switch":
        big, seconds = rng.choice([(1024, "0.3"), (4096, "0.3"), (4096, "6")])
        name = "in.ts"
        links[name] = size_switch(ctx.assets, big, seconds)
        note = "16x16 for %s s, then %dx%d" % (seconds, big, big)
    elif kind == "early":
        offset, container = rng.choice(["1", "0.05", "100"]), rng.choice(["webm", "mkv", "mp4"])
        name = "in." + container
        links[name] = early(ctx.assets, offset, container)
        note = "starts at -%s s (%s)" % (offset, container)
    else:
        name = "in.mp4"
        links[name] = testsrc(ctx.assets, extra=["-c:v", "libx264"])
        note = "testsrc2 1 s"
    if kind != "refs" and rng.random() < 0.6:
        opts = window(rng)
    runs = [generators.Run(["encode", name, "-o", "out/o.gif"] + opts, output="out/o.gif", stdin="pipe",
                           names=name)]
    if rng.random() < 0.5:
        runs.append(generators.Run(["info", name, "--json"], budget=False, stdin="pipe", names=name))
    return generators.Case(files, runs, note + ((", " + " ".join(opts)) if opts else ""), links=links,
                           marker=marker)


def window(rng):
    """--from and --to drawn at random: ticks apart, equal, reversed, zero,
    far past the end, clock forms."""
    times = ["0", "0.0000001", "0.001", "0.5", "0.9999999", "1", "1.0000001", "5", "0:00.100", "1:00", "100000",
             "99:59:59.999999"]
    drawn = rng.choice(["from", "to", "both", "both"])
    opts = []
    if drawn in ("from", "both"):
        opts += ["--from", rng.choice(times)]
    if drawn in ("to", "both"):
        opts += ["--to", rng.choice(times)]
    return opts
