"""A template's syntax error in a designer's words, at its cause (syntax.in_words):
an unclosed block at the line that opens it (Jinja2 says the line where the template's last
piece starts), a stray end tag with the block still open, and none of Jinja2's own words
("Encountered unknown tag", "expected token", "Jinja was looking for")."""

from __future__ import annotations

import jinja2
import pytest

from generator import sandbox, syntax

CASES = [
    ("# Rules\n\n{% for p in players %}\n{{ p }}\n\nMore text.\n", 3,
     "{% for %} is never closed: end it with {% endfor %}"),
    ("a\n{% for x in y %}\n{% if z %}\nb\n{% endif %}\nc\n", 2,
     "{% for %} is never closed: end it with {% endfor %}"),
    ("{% set x = 1 %}\n{% set y %}text", 2, "{% set %} is never closed: end it with {% endset %}"),
    ("a\n{% if x %}\nb\n{% endfor %}\nc", 4,
     "{% endfor %} does not close {% if %} (line 2): end that block first, with {% endif %}"),
    ("text\n{% endif %}", 2, "{% endif %} closes no block: no {% if %} is open here"),
    ("{% if a %}\n{% elsif b %}\n{% endif %}", 2,
     "there is no tag {% elsif %} (did you mean {% elif %}?)"),
    ("{{ x \nb\n", 2, "expected }} here, not 'b'"),
    ("{{ x y }}", 1, "expected }} here, not 'y'"),
    ("{{ card.name | }}", 1, "expected a name here, not }}"),
    ("{% for x in %}{% endfor %}", 1, "a value is missing before %}"),
    ("a\n\n{# a note\nnever closed", 3, "a comment ({#) is never closed with #}"),
    ("x\n{% raw %}y", 2, "{% raw %} is never closed: end it with {% endraw %}"),
    ("a {{ x }\nb", 1, "'}' cannot stand here"),
    ("{{ 'abc }}", 1, "a text opened with ' is never closed with another"),
    ("a\n{{ x ", 2, "it ends before its closing }}"),
    # (a reviewer's: a real tag out of place, a misspelt end tag, a tag the sandbox lacks)
    ("text\n{% else %}", 2, "{% else %} is out of place: it belongs inside {% if %} or {% for %}"),
    ("{% elif x %}", 1, "{% elif %} is out of place: it belongs inside {% if %} ... {% endif %}"),
    ("{% for x in y %}\n{% endfro %}", 2,
     "there is no tag {% endfro %} (did you mean {% endfor %}?)"),
    ("{% brake %}", 1, "there is no tag {% brake %}"),
    ("{% include %}", 1, "a value is missing before %}"),
]


@pytest.mark.parametrize("source, line, words", CASES)
def test_a_syntax_error_is_said_in_our_words_at_its_cause(source, line, words):
    with pytest.raises(jinja2.TemplateSyntaxError) as raised:
        sandbox.env().parse(source)
    said, at = syntax.in_words(source, raised.value)
    assert (str(said), at) == (words, line)
    for jinja in ("Jinja", "Encountered", "token", "innermost"):
        assert jinja not in said


def test_an_expression_that_stops_short_says_what_is_wanted():
    with pytest.raises(jinja2.TemplateSyntaxError) as raised:
        sandbox.env().compile_expression("cards | length >")
    said, _line = syntax.in_words("cards | length >", raised.value)
    assert said == "it stops where more is wanted (a value after an operator, a closing " \
                   "bracket or quote)"
