"""What the renderers of Benchmarks/report.py share: a Section (the lines a
suite adds to docs/benchmarks.md, its rows of the Summary table and its
headline ratios against their bounds) and number formatting."""

import re
from dataclasses import dataclass, field

PSNR_CAP = 100.0
# A cell that reads as a number (right-aligned): digits with separators,
# signs, units and markers, or one of the placeholders.
NUMERIC = re.compile(r"^([-+−≤≥]?\s?[\d∞][\d,.\s×%*∞]*(s|ms|MB|B|dB)?|n/a)$")


@dataclass
class Bound:
    """A headline ratio and the bound it must keep: `op` is "<=" (at most
    `limit`) or ">=" (at least)."""
    name: str
    ratio: float
    op: str
    limit: float

    @property
    def ok(self):
        if self.ratio != self.ratio:
            return False
        return self.ratio <= self.limit if self.op == "<=" else self.ratio >= self.limit


@dataclass
class Section:
    """Markdown lines, Summary rows (comparison, measured) and bounds."""
    lines: list = field(default_factory=list)
    summary: list = field(default_factory=list)
    bounds: list = field(default_factory=list)

    def table(self, head, body):
        self.lines += table(head, body) + [""]

    def add(self, other):
        self.lines += other.lines
        self.summary += other.summary
        self.bounds += other.bounds
        return self


def table(head, body):
    """A markdown table; a column of numbers is right-aligned."""
    def numeric(cells):
        cells = [c for c in cells if c]
        return cells and all(NUMERIC.match(c) for c in cells)
    align = ["--:" if numeric([str(row[k]) for row in body]) else "---" for k in range(len(head))]
    return (["| " + " | ".join(head) + " |", "|" + "|".join(align) + "|"]
            + ["| " + " | ".join(str(c) for c in row) + " |" for row in body])


def num(n):
    return f"{n:,}"


def fmt_psnr(x):
    if x is None or x != x:
        return "n/a"
    return "∞" if x >= PSNR_CAP else f"{x:.2f}"


def span(values, pattern="{:.2f}"):
    """"a" or "a … b" over the values, smallest first."""
    values = [v for v in values if v == v]
    if not values:
        return "n/a"
    lo, hi = min(values), max(values)
    return pattern.format(lo) if pattern.format(lo) == pattern.format(hi) else \
        f"{pattern.format(lo)} … {pattern.format(hi)}"


def corpora(n):
    return f"{n} corpus" if n == 1 else f"{n} corpora"
