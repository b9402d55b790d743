"""The vector classes of scripts/mutate_generators.py: configs whose vector
export (SVG, Lottie) or drawing multiplies, each run as `render CONFIG -o
out/o.svg`, `-o out/o.json` (Lottie) and `-o out/o.gif` under the case's
memory budget.

  vector-groups   groups nested 1-8 deep, each repeated 1-1000 times, the
                  innermost empty or a shape, at times faded as a whole or
                  played back and forth (bounce).
  vector-steps    steps(n) easings with n from 0 and 1 to 2^63 and 10^30
                  written out, on keyframe and step animations, on up to
                  1000 copies, over loops of up to 1000 frames.
  vector-picture  one picture (8x8 to 600x600, noise, up to 1.4 MB as PNG)
                  shown by a repeat of up to 1000 copies and by other layers
                  naming the same file, also as ./ and sub/../ and an @2x
                  copy.
  vector-numbers  a config with one of its 39 numeric keys (timing,
                  canvas, loop, layer keys, repeat, animations, keys,
                  encode; cubic-bezier and steps arguments) set to 1e308,
                  -1e308, 1e-320, 1e400, -1e400, 2^63, 10^30 written out,
                  1e19, 1e9, 100000.5, 0.000001 or -0.

A GIF whose frames would draw over 300,000 items is drawn as its first
three frames (--frames 1-3): a cycle of 1000 frames of 1000 copies is a
valid config that takes seconds to draw, not a bomb.

Besides the rules of run_case, each run fails when it exits 65 with
"expected a number" for a number, when a message names cairo or libwebp,
when a vector output holds a number of 20 or more digits, or when it takes
more than 5 s to refuse (a bomb must fail fast).
"""
import json, struct, subprocess, zlib

import mutate_generators as generators

# Numbers no config number may be, and some at the edges, as JSON text.
EXTREMES = ["1e308", "-1e308", "1e-320", "1e400", "-1e400", "9223372036854775808",
            "1000000000000000000000000000000", "1e9", "100000.5", "-0", "1e19", "0.000001"]
# steps(n) arguments: in range, at its edges, and far past them.
STEPS = ["1", "2", "12", "999", "1000", "1001", "0", "-1", "2147483647", "9223372036854775808",
         "1000000000000000000000000000000", "1e3", "1.5"]
# A number this long in a vector file is an overflow written out.
LONG_DIGITS = 20
# Seconds a refusal may take: bombs fail when the config is read or
# before the file is made.
REFUSAL_SECONDS = 5


def check_run(vector):
    """The extra rules of a vector run (see the module's docstring)."""
    def check(status, err, seconds, output):
        problems = []
        if status == 65 and "expected a number" in err:
            problems.append("a number refused as no number: %s" % err.strip()[-200:])
        if "cairo" in err or "libwebp" in err:
            problems.append("a drawing library's error: %s" % err.strip()[-200:])
        if status != 0 and seconds > REFUSAL_SECONDS:
            problems.append("refused after %.1f s" % seconds)
        if vector and status == 0 and output:
            # Searched by grep, not read here: Linux counts the peak RSS of
            # this process in every run it starts (a vforked child's memory
            # until exec), so it must stay small. A run of 20 digits in a
            # data URI's base64 text is a chance of 10^-16 a position.
            found = subprocess.run(["grep", "-a", "-o", "-m", "1", "-E", "[0-9]{%d,}" % LONG_DIGITS, output],
                                   capture_output=True)
            if found.returncode == 0:
                problems.append("a %d-digit number in the output" % len(found.stdout.strip()))
        return problems
    return check


# Drawings (items x frames) a GIF run stays under, so that a run over the
# timeout is the input's fault, not the machine's: more are drawn as the
# first three frames alone (--frames 1-3).
PLAIN_DRAWINGS = 300000


def case(config, note, files=None, drawings=0):
    """A case rendering `config` (a dict, or JSON text) to SVG, Lottie and
    GIF; `drawings`: about how many items the GIF's frames draw."""
    text = config if isinstance(config, (bytes, str)) else json.dumps(config)
    files = dict(files or {})
    files["cfg.json"] = text.encode() if isinstance(text, str) else text
    runs = []
    for ext in ("svg", "json", "gif"):
        opts = ["--frames", "1-3"] if ext == "gif" and drawings > PLAIN_DRAWINGS else []
        runs.append(generators.Run(["render", "cfg.json", "-o", "out/o." + ext] + opts, output="out/o." + ext,
                                   check=check_run(ext != "gif")))
    if drawings > PLAIN_DRAWINGS:
        note += ", GIF of frames 1-3"
    return generators.Case(files, runs, note)


def items(layer):
    """The items a frame draws for `layer`, as the scene budget counts
    them: a group once per copy besides its children."""
    one = 1 + sum(items(child) for child in layer["group"]) if "group" in layer else 1
    return one * layer.get("repeat", {}).get("count", 1)


def frames(config, cycle):
    """About how many frames `config` draws over a cycle of `cycle` seconds."""
    timing = config["timing"]
    n = float(timing.get("duration", cycle)) * timing.get("fps", 25)
    return n * (2 if config.get("bounce") else 1)


def scene(layers, rng, timing=None):
    """A config drawing `layers` on a small canvas, at times bounced."""
    config = {"version": 1, "canvas": {"width": rng.choice([16, 64, 200]), "height": rng.choice([16, 64])},
              "timing": timing or {"fps": rng.choice([10, 25])}, "layers": layers}
    if rng.random() < 0.2:
        config["bounce"] = True
    return config


def fade(rng):
    """An opacity animation, at times."""
    if rng.random() < 0.5:
        return []
    return [{"kind": "keyframes", "property": "opacity", "period": rng.choice([0.5, 1, 2]),
             "keys": [{"at": 0, "value": 1, "ease": "ease-in-out"}, {"at": 0.25, "value": 0.2}]}]


def shape(rng):
    """A small animated shape."""
    kind = rng.choice(["circle", "arc", "rect"])
    if kind == "circle":
        layer = {"circle": {"radius": 2}}
    elif kind == "arc":
        layer = {"arc": {"radius": 5, "start": 0, "end": rng.choice([90, 300])}, "stroke": "#336699"}
    else:
        layer = {"rect": {"width": 4, "height": 3, "corner": 1}}
    layer["animate"] = [{"kind": "keyframes", "property": rng.choice(["rotate", "translateX", "scale"]),
                         "period": rng.choice([0.5, 1]), "keys": [{"at": 0, "value": 0}, {"at": 0.5, "value": 1}]}]
    return layer


def gen_groups(rng, ctx):
    """Groups nested 1-8 deep, each repeated, the innermost empty or a shape."""
    depth = rng.randint(1, 8)
    counts = [rng.choice([1, 2, 3, 10, 10, 50, 100, 1000]) for _ in range(depth)]
    inner = [] if rng.random() < 0.6 else [shape(rng)]
    group = {"group": inner}
    for level, count in enumerate(counts):
        if level:
            group = {"group": [group] * rng.choice([1, 1, 2])}
        group["repeat"] = {"count": count, "offset": [rng.choice([0, 0.5, 1]), 0.25]}
        if rng.random() < 0.3:
            group["repeat"]["delay"] = 0.01
        animations = fade(rng)
        if animations:
            group["animate"] = animations
    note = "groups %s, %s" % ("x".join(map(str, counts)), "empty" if not inner else "a shape inside")
    config = scene([group], rng)
    return case(config, note, drawings=items(group) * frames(config, 2))


def gen_steps(rng, ctx):
    """steps(n) with n in range and far past it, on many copies and long loops."""
    n = rng.choice(STEPS)
    copies = rng.choice([1, 10, 100, 450, 900, 1000])
    period = rng.choice([0.01, 0.1, 1, 10])
    if rng.random() < 0.5:
        animation = {"kind": "keyframes", "property": rng.choice(["translateX", "rotate", "opacity"]),
                     "period": period, "keys": [{"at": 0, "value": 0, "ease": "steps(%s)" % n},
                                                {"at": period / 2, "value": 1, "ease": "steps(%s)" % n},
                                                {"at": period, "value": 0}]}
    else:
        animation = {"kind": "step", "property": "rotate", "by": rng.choice([30, 45, 90]), "ease": "steps(%s)" % n}
    timing = rng.choice([{"fps": 10}, {"fps": 100}, {"fps": 10, "duration": 100}, {"fps": 1000, "duration": 1},
                         {"fps": 4, "step": 0.25}])
    layer = {"circle": {"radius": 2}, "animate": [animation]}
    if copies > 1:
        layer["repeat"] = {"count": copies, "delay": rng.choice([0, 0.001, 0.1])}
    config = scene([layer], rng, timing)
    cycle = period if animation["kind"] == "keyframes" else 360 / animation["by"] * timing.get("step", 0.25)
    return case(config, "steps(%s) on %d copies, period %s, %s" % (n, copies, period, timing),
                drawings=copies * frames(config, cycle))


def noise_png(rng, width, height):
    """An RGBA PNG of noise (which does not compress), as bytes."""
    raw = b"".join(b"\0" + rng.randbytes(width * 4) for _ in range(height))
    return (b"\x89PNG\r\n\x1a\n" + generators.png_chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0))
            + generators.png_chunk(b"IDAT", zlib.compress(raw, 1)) + generators.png_chunk(b"IEND", b""))


def gen_picture(rng, ctx):
    """One picture shown by many copies and layers, under several names."""
    side = rng.choice([8, 64, 200, 400, 510, 600])
    picture = noise_png(rng, side, side)
    files = {"pic.png": picture, "sub/keep": b"", "pic@2x.png": picture}
    copies = rng.choice([1, 2, 50, 200, 1000])
    layers = [{"image": "pic.png", "repeat": {"count": copies, "offset": [0.5, 0.25]},
               "animate": [{"kind": "keyframes", "property": "opacity", "period": 1,
                            "keys": [{"at": 0, "value": 1}, {"at": 0.5, "value": 0.5}]}]}]
    for _ in range(rng.randint(0, 5)):
        layers.append({"image": rng.choice(["pic.png", "./pic.png", "sub/../pic.png", "pic@2x.png"]),
                       "center": [rng.randint(0, 60), rng.randint(0, 60)]})
    if rng.random() < 0.3:
        layers = [{"group": layers, "repeat": {"count": rng.choice([2, 10, 100])}}]
    note = "a %dx%d picture (%d bytes), %d copies and %d more layers" % (side, side, len(picture), copies,
                                                                          len(layers) - 1)
    config = scene(layers, rng)
    return case(config, note, files, drawings=sum(items(layer) for layer in layers) * frames(config, 1))


# Every numeric key of a config, as (name, the config with @ for the number).
def numeric_fields():
    canvas = '"canvas": {"width": 32, "height": 32}'

    def scene_text(layer, timing='{"fps": 10}', extra=""):
        return '{"version": 1, %s, "timing": %s, %s"layers": [%s]}' % (canvas, timing, extra, layer)

    def circle(keys):
        return '{"circle": {"radius": 4}, %s}' % keys

    def keyframes(prop, keys, period="1"):
        return circle('"animate": [{"kind": "keyframes", "property": "%s", "period": %s, "keys": %s}]'
                      % (prop, period, keys))

    plain = circle('"opacity": 1')
    return [
        ("timing.fps", scene_text(plain, '{"fps": @}')),
        ("timing.step", scene_text(plain, '{"fps": 10, "step": @}')),
        ("timing.duration", scene_text(plain, '{"fps": 10, "duration": @}')),
        ("timing.start", scene_text(plain, '{"fps": 10, "start": @}')),
        ("timing.speed", scene_text(plain, '{"fps": 10, "speed": @}')),
        ("canvas.width", '{"version": 1, "canvas": {"width": @, "height": 32}, "layers": [%s]}' % plain),
        ("canvas.scale", '{"version": 1, "canvas": {"width": 8, "height": 8, "scale": @}, "layers": [%s]}' % plain),
        ("loop", scene_text(plain, extra='"loop": @, ')),
        ("duplicate", scene_text(plain, extra='"duplicate": @, ')),
        ("center", scene_text(circle('"center": [@, 16]'))),
        ("opacity", scene_text(circle('"opacity": @'))),
        ("rotate", scene_text(circle('"rotate": @'))),
        ("scale", scene_text(circle('"scale": @'))),
        ("circle.radius", scene_text('{"circle": {"radius": @}}')),
        ("arc.radius", scene_text('{"arc": {"radius": @}}')),
        ("arc.end", scene_text('{"arc": {"radius": 8, "end": @}}')),
        ("arc.width", scene_text('{"arc": {"radius": 8, "width": @}}')),
        ("rect.width", scene_text('{"rect": {"width": @, "height": 8}}')),
        ("rect.corner", scene_text('{"rect": {"width": 8, "height": 8, "corner": @}}')),
        ("repeat.count", scene_text(circle('"repeat": {"count": @}'))),
        ("repeat.offset", scene_text(circle('"repeat": {"count": 3, "offset": [1, @]}'))),
        ("repeat.around", scene_text(circle('"repeat": {"count": 3, "around": @}'))),
        ("repeat.turn", scene_text(circle('"repeat": {"count": 3, "turn": @}'))),
        ("repeat.delay", scene_text(circle('"repeat": {"count": 3, "delay": @}'))),
        ("animate.delay", scene_text(circle('"animate": [{"kind": "step", "property": "rotate", "by": 90, '
                                            '"delay": @}]'))),
        ("keyframes.period", scene_text(keyframes("scale", '[{"at": 0, "value": 1}]', "@"))),
        ("keys.at", scene_text(keyframes("scale", '[{"at": @, "value": 1}]'))),
        ("keys.value translateY", scene_text(keyframes("translateY", '[{"at": 0, "value": @}, '
                                                       '{"at": 0.5, "value": 0}]'))),
        ("keys.value rotateY", scene_text(keyframes("rotateY", '[{"at": 0, "value": @}, {"at": 0.5, "value": 0}]'))),
        ("keys.value opacity", scene_text(keyframes("opacity", '[{"at": 0, "value": @}, {"at": 0.5, "value": 1}]'))),
        ("keys.value start", scene_text('{"arc": {"radius": 8}, "animate": [{"kind": "keyframes", "property": '
                                        '"start", "period": 1, "keys": [{"at": 0, "value": @}]}]}')),
        ("step.from", scene_text(circle('"animate": [{"kind": "step", "property": "rotate", "by": 90, "from": @}]'))),
        ("step.by", scene_text(circle('"animate": [{"kind": "step", "property": "scale", "by": @, '
                                      '"bounce": [0, 2]}]'))),
        ("step.bounce", scene_text(circle('"animate": [{"kind": "step", "property": "scale", "by": 1, '
                                          '"bounce": [0, @]}]'))),
        ("cubic-bezier", scene_text(keyframes("translateX", '[{"at": 0, "value": 0, "ease": '
                                              '"cubic-bezier(0.5, @, 0.5, 1)"}, {"at": 1, "value": 10}]'))),
        ("cubic-bezier x", scene_text(keyframes("scale", '[{"at": 0, "value": 1, "ease": '
                                                '"cubic-bezier(@, 0, 0.5, 1)"}, {"at": 1, "value": 2}]'))),
        ("steps", scene_text(keyframes("rotate", '[{"at": 0, "value": 0, "ease": "steps(@)"}, '
                                       '{"at": 1, "value": 90}]'))),
        ("encode.dither", scene_text(plain, extra='"encode": {"dither": @}, ')),
        ("encode.colors", scene_text(plain, extra='"encode": {"colors": @}, ')),
    ]


FIELDS = numeric_fields()


def gen_numbers(rng, ctx):
    """A config with one numeric key set to an extreme number."""
    name, text = rng.choice(FIELDS)
    number = rng.choice(EXTREMES)
    return case(text.replace("@", number), "%s = %s" % (name, number))


GENERATORS = {"vector-groups": gen_groups, "vector-steps": gen_steps, "vector-picture": gen_picture,
              "vector-numbers": gen_numbers}
