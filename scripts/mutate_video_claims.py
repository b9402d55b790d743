"""The `video-claims` class of scripts/mutate_generators.py: small video
files, made with the ffmpeg command in the case folder, that claim huge
things: frames of 8192x4320 (H.264) or a 16000x16000 PNG as a video
stream, sizes patched into the Matroska header of a 64x48 FFV1 clip (the
decoder takes its size from there), sample aspect ratios of 65535:1,
timestamps days apart, thousands of frames a second, two video streams,
no video stream at all, and pixel formats and sizes at their edges.
"""
import os, shutil, subprocess

import mutate_containers as containers
import mutate_generators as generators

# ffmpeg's own runs; a run over this many seconds is the harness's fault.
FFMPEG_TIMEOUT = 60


def ffmpeg(*args):
    """Runs the ffmpeg command with args (quiet, no standard input)."""
    subprocess.run(["ffmpeg", "-v", "error", "-nostdin", "-y"] + list(args), check=True, timeout=FFMPEG_TIMEOUT,
                   stdout=subprocess.DEVNULL)


def lavfi(size, rate=10, duration=0.3, extra=""):
    """ffmpeg input arguments for a testsrc2 clip."""
    return ["-f", "lavfi", "-i", "testsrc2=size=%s:rate=%s:duration=%s%s" % (size, rate, duration, extra)]


def big_h264(assets):
    """Path of one 8192x4320 H.264 frame in an MP4 (made once, 0.2 s)."""
    def make():
        path = os.path.join(assets.folder, "video-8192x4320.mp4")
        ffmpeg("-f", "lavfi", "-i", "color=c=blue:s=8192x4320:r=10", "-frames:v", "1", "-c:v", "libx264",
               "-preset", "ultrafast", "-threads", "1", path)
        return path
    return assets.once("video-big", make)


def png_stream(assets, bomb, container):
    """Path of a few-kilobyte PNG bomb (mutate_generators.BOMBS) copied as
    the video stream of a Matroska file, or as the cover picture beside a
    silent audio track of an MP4."""
    def make():
        path = os.path.join(assets.folder, "video-%s.%s" % (bomb, container))
        png = ["-i", assets.bomb(bomb)]
        if container == "mkv":
            ffmpeg(*(png + ["-c:v", "copy", path]))
        else:
            ffmpeg(*(["-f", "lavfi", "-t", "0.5", "-i", "anullsrc=r=8000:cl=mono"] + png +
                     ["-map", "0", "-map", "1", "-c:a", "aac", "-c:v", "copy", "-disposition:v:0", "attached_pic",
                      path]))
        return path
    return assets.once(("video-png", bomb, container), make)


def claimed_size(path, width, height):
    """Sets PixelWidth and PixelHeight of the Matroska file at path."""
    with open(path, "rb") as f:
        data = f.read()
    for ident, value in (("BA", height), ("B0", width)):
        node = next(n for n in containers.parse("mkv", data) if n.name == ident)
        # In place when the value fits the element as ffmpeg wrote it.
        length = max(node.end - node.data, (value.bit_length() + 7) // 8)
        data = containers.splice(data, node, node.data, node.end, value.to_bytes(length, "big"))
    with open(path, "wb") as f:
        f.write(data)


SIZES = [(16000, 16000), (16384, 16384), (65535, 16), (16, 65535), (100000, 100000), (8192, 8192), (1, 1 << 32),
         (1 << 32, 1), (0, 48), (64, 0)]
SARS = ["65535/1", "1/65535", "10000/1", "1/10000", "4096/4095"]
PIXEL_FORMATS = ["gray", "gray16le", "yuv444p16le", "yuva444p16le", "gbrp16le", "gbrap", "gbrap16le", "yuv410p",
                 "yuv440p"]
# Sizes FFV1 takes in every format above; the subsampled ones (yuv410p,
# yuv440p) are made at 33x17 alone.
ODD_SIZES = ["1x1", "255x1", "33x17", "2x4096", "4096x2"]


def make_clip(rng, ctx):
    """Makes the case's clip in the case folder; (file name, note)."""
    kind = rng.choice(["big-frame", "png-stream", "claimed-size", "claimed-size", "aspect", "long", "many-frames",
                       "two-streams", "no-video", "pixel-format"])
    case = ctx.case
    if kind == "big-frame":
        shutil.copy(big_h264(ctx.assets), os.path.join(case, "in.mp4"))
        return "in.mp4", "one H.264 frame of 8192x4320"
    if kind == "png-stream":
        # ffmpeg copies no PNG over 16384 a side, nor one over 65535 wide
        # into an MP4.
        bomb = rng.choice(["gray1-16000", "rgba-8000", "gray1-wide"])
        container = "mkv" if bomb == "gray1-wide" else rng.choice(["mkv", "mp4"])
        name = "in." + container
        shutil.copy(png_stream(ctx.assets, bomb, container), os.path.join(case, name))
        return name, "PNG %s as %s" % (bomb, "the video stream" if container == "mkv" else "an MP4's cover picture")
    if kind == "claimed-size":
        w, h = rng.choice(SIZES)
        codec = rng.choice(["ffv1", "ffv1", "libx264"])
        ffmpeg(*(lavfi("64x48") + ["-c:v", codec, "-threads", "1", os.path.join(case, "in.mkv")]))
        claimed_size(os.path.join(case, "in.mkv"), w, h)
        return "in.mkv", "%s 64x48 claiming %dx%d" % (codec, w, h)
    if kind == "aspect":
        sar = rng.choice(SARS)
        ffmpeg(*(lavfi("64x48") + ["-vf", "setsar=sar=%s:max=65535" % sar, "-c:v", "ffv1", "-threads", "1",
                                   os.path.join(case, "in.mkv")]))
        return "in.mkv", "FFV1 64x48, sample aspect ratio %s" % sar
    if kind == "long":
        gap = rng.choice([10 ** 4, 10 ** 6, 10 ** 8])
        name = rng.choice(["in.mp4", "in.mkv"])
        scale = ["-video_track_timescale", "1"] if name.endswith("mp4") else []
        ffmpeg(*(lavfi("32x24") + ["-vf", "setpts=N*%d/TB" % gap, "-fps_mode", "passthrough"] + scale +
                 ["-c:v", "libx264", "-threads", "1", os.path.join(case, name)]))
        return name, "3 frames %d s apart" % gap
    if kind == "many-frames":
        rate = rng.choice([1000, 2500])
        ffmpeg(*(lavfi("32x24", rate, 2) + ["-c:v", "libx264", "-preset", "ultrafast", "-threads", "1",
                                            os.path.join(case, "in.mp4")]))
        return "in.mp4", "%d frames at %d fps" % (2 * rate, rate)
    if kind == "two-streams":
        ffmpeg(*(lavfi("32x24") + ["-i", big_h264(ctx.assets), "-map", "0", "-map", "1", "-c:v:0", "ffv1",
                                   "-c:v:1", "copy", os.path.join(case, "in.mkv")]))
        return "in.mkv", "two video streams: FFV1 32x24 and H.264 8192x4320"
    if kind == "no-video":
        name = rng.choice(["in.mp4", "in.mkv", "in.avi"])
        audio = ["-c:a", "aac"] if name.endswith("mp4") else ["-c:a", "pcm_s16le"]
        ffmpeg(*(["-f", "lavfi", "-t", "0.5", "-i", "anullsrc=r=8000:cl=mono"] + audio + [os.path.join(case, name)]))
        return name, "audio only"
    fmt, size = rng.choice(PIXEL_FORMATS), rng.choice(ODD_SIZES)
    size = "33x17" if fmt in ("yuv410p", "yuv440p") else size
    ffmpeg(*(lavfi(size, extra=",format=" + fmt) + ["-c:v", "ffv1", "-level", "3", "-threads", "1",
                                                  os.path.join(case, "in.mkv")]))
    return "in.mkv", "FFV1 %s %s" % (size, fmt)


# What else encode is run with: a smaller size, a lower rate, a trim far
# into the clip's claimed time.
OPTIONS = [[], [], ["--width", "64"], ["--fps", "5"], ["--from", "100000", "--to", "100001"], ["--to", "0.1"]]


def gen_video_claims(rng, ctx):
    """A video that claims huge sizes, times or frame counts: encode (with
    OPTIONS drawn) and, half the time, info; a refusal must name the file."""
    name, note = make_clip(rng, ctx)
    opts = rng.choice(OPTIONS)
    runs = [generators.Run(["encode", name, "-o", "out/o.gif"] + opts, output="out/o.gif", names=name)]
    if rng.random() < 0.5:
        runs.append(generators.Run(["info", name, "--json"], budget=False, names=name))
    return generators.Case({}, runs, "%s%s" % (note, (", " + " ".join(opts)) if opts else ""))
