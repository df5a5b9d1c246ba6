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
_NUMBER_GLUE = re.compile(  # what cannot start a line, as the match
    f"(?<=[{_DIGIT}])(?:{'|'.join(sorted(map(re.escape, COUNTERS), key=len, reverse=True))})"
    f"|(?<=[{_DIGIT}])[{RANGES}](?=[{_DIGIT}])|(?<=[{RANGES}])[{_DIGIT}]")
_NUMBER_AFTER = re.compile(  # a word a number follows: the number's first digit is glued
    f"(?:{'|'.join(map(re.escape, BEFORE_NUMBERS))})(?=[{_DIGIT}])")
_HAS_DIGIT = re.compile(f"[{_DIGIT}]")


def numbers_glued(plain: str) -> set[int]:
    """Where a line may not start because a number stays with its neighbour: at a counter
    or unit after a number (and inside it), at a range's ～ and the number after it, at a
    number after 約, 第 and their like."""
    out: set[int] = set()
    if not _HAS_DIGIT.search(plain):
        return out
    for m in _NUMBER_GLUE.finditer(plain):
        out.update(range(m.start(), m.end()))
    out.update(m.end() for m in _NUMBER_AFTER.finditer(plain))
    return out
