"""Numbers in line breaking: the words a number stays with on a line, in one place.

JLREQ keeps a number whole (3.1.7); Japanese keeps it with what it counts. These are the
counters and units after a number, the words before one, and the marks of a range, that a
line may not part from it (unless the line cannot hold them together). Latin units (27mm,
50%) stay with their numbers by UAX #14 already; these are the Japanese ones it would let
part. docs/layouts.md lists them (a test checks it does).
"""

from __future__ import annotations

import re

COUNTERS = ("回", "枚", "点", "人", "名", "個", "円", "歳", "才", "年", "月", "日", "時", "分",
            "秒", "度", "倍", "本", "番", "位", "種", "冊", "台", "匹", "頭", "羽", "歩", "面",
            "段", "列", "行", "章", "節", "項", "巻", "話", "戦", "勝", "敗", "ターン", "ラウンド",
            "マス", "ページ", "カード", "％", "㎜", "㎝", "㎞", "㎏")
BEFORE_NUMBERS = ("約", "第", "計", "各", "毎", "全", "最大", "最小", "最低", "残り")
RANGES = "～〜"  # 3～5人: a range stays whole
_DIGIT = "0-9０-９"
_DIGITS = re.compile(f"[{_DIGIT}]+")
_COUNTER = re.compile("|".join(sorted(map(re.escape, COUNTERS), key=len, reverse=True)))


def numbers_glued(plain: str) -> set[int]:
    """Where a line may not start because a number stays with its neighbour: at a counter
    or unit after a number (and inside it), at a range's ～ and the number after it, at a
    number after 約, 第 and their like. (Found from each run of digits: a pattern that looks
    behind every character for a digit took 4 % of the distinct-text benchmark's layout.)"""
    out: set[int] = set()
    for run in _DIGITS.finditer(plain):
        start, end = run.span()
        if start and (plain[start - 1] in RANGES or plain.endswith(BEFORE_NUMBERS, 0, start)):
            out.add(start)  # 3～[5], 第[3]
        counter = _COUNTER.match(plain, end)
        if counter is not None:
            out.update(range(end, counter.end()))  # 3[枚]
        elif end < len(plain) and plain[end] in RANGES and _DIGITS.match(plain, end + 1):
            out.add(end)  # 3[～]5
    return out
