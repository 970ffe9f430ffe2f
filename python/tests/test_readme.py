"""The README's Python code blocks run as written (issue 18, item 7)."""
import os
import re

import matplotlib

matplotlib.use("Agg")

README = os.path.join(os.environ.get("FLOWCERT_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", "..")),
                      "README.md")


def python_blocks():
    with open(README, encoding="utf-8") as f:
        return re.findall(r"```python\n(.*?)```", f.read(), flags=re.S)


def test_readme_has_a_python_quick_start_and_it_runs(capsys):
    blocks = python_blocks()
    assert blocks, "README.md has no ```python block"
    for code in blocks:
        exec(compile(code, README, "exec"), {"__name__": "__readme__"})
    out = capsys.readouterr().out
    assert "ok Box(" in out and "CERTIFIED True" in out
